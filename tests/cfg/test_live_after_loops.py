"""The names live after each loop (cfg/dataflow.live_after_loops): what a parallel loop must leave as Python
leaves it. Flow-sensitive: a read in the other branch of an `if` (lower/'s versioned copy of a loop) is on no
path after the loop; a read at the top of an enclosing loop's next iteration is."""

from __future__ import annotations

import textwrap

import libcst as cst

from cuvil.cfg.dataflow import live_after_loops


def _live(source: str) -> list[set[str]]:
    """Per loop, in source order: its live-after set."""
    module = cst.parse_module(textwrap.dedent(source))
    fn = module.body[0]
    assert isinstance(fn, cst.FunctionDef)
    loops: list[cst.CSTNode] = []

    class Find(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            loops.append(node)

        def visit_While(self, node: cst.While) -> None:
            loops.append(node)

    fn.visit(Find())
    live = live_after_loops(fn.body.body)  # type: ignore[arg-type]
    return [set(live[id(loop)]) for loop in loops]


def test_a_read_in_the_sibling_copy_is_not_after_the_loop():
    assert _live("""
        def f(a, n, c):
            if c:
                for j in range(n):
                    t = a[j]
            else:
                for j in range(n):
                    t = a[j]
            return a
    """) == [{"a"}, {"a"}]


def test_a_read_after_the_loop_before_any_assignment_is_live():
    assert _live("""
        def f(a, n):
            for i in range(n):
                t = a[i]
                u = t
            u = 0
            return t + u
    """) == [{"t"}]


def test_the_next_iteration_of_an_enclosing_loop_reads_what_it_did_not_assign():
    assert _live("""
        def f(a, n):
            s = 0
            for i in range(n):
                s = s + t if i else s
                for j in range(n):
                    t = a[j]
                    w = t
                w = 1
            return s
    """) == [{"s"}, {"a", "n", "range", "s", "t"}]


def test_break_leaves_for_after_the_loop_and_continue_for_its_top():
    assert _live("""
        def f(a, n):
            k = 0
            while k < n:
                k = k + 1
                if a[k]:
                    break
                for j in range(n):
                    if a[j]:
                        continue
                    m = j
            return k
    """) == [{"k"}, {"a", "k", "n", "range"}]
