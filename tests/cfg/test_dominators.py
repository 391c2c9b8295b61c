"""Certain blocks: those every path from the entry to an exit passes through."""

from __future__ import annotations

import libcst as cst

from cuvil.cfg.build import build_function
from cuvil.cfg.dominators import certain_blocks, dominators, reachable
from cuvil.frontend.parse import parse
from cuvil.frontend.source import get_source
from cuvil.normalize.pipeline import normalize
from tests.helpers import define


def _certain_lines(source: str) -> list[str]:
    """The first line of each statement in a certain block."""
    cfg = build_function(normalize(parse(get_source(define(source)))).function)
    sure = certain_blocks(cfg)
    return [cst.Module([]).code_for_node(s).splitlines()[0].split("  #")[0].strip()
            for b in cfg.blocks if b.id in sure for s in b.stmts]


def test_branches_are_not_certain_and_the_join_is():
    assert _certain_lines("""
        def f(a, b):
            if len(a) != len(b):
                return a * 0.0
            c = a + b
            return c
        """) == ["if len(a) != len(b):", "return _rv"]


def test_a_loop_body_is_not_certain_and_its_header_is():
    assert _certain_lines("""
        def f(a, n):
            s = 0.0
            for i in range(n):
                s += a[i]
            t = s * 2.0
            return t
        """) == ["s = 0.0", "for i in range(n):", "t = s * 2.0", "return t"]


def test_a_function_that_never_exits_has_only_its_entry_certain():
    cfg = build_function(normalize(parse(get_source(define("""
        def f(a):
            a[0] = 1.0
            while True:
                a[0] += 1.0
        """)))).function)
    assert certain_blocks(cfg) == frozenset({0})


def test_code_after_a_break_is_unreachable():
    cfg = build_function(normalize(parse(get_source(define("""
        def f(a):
            while True:
                break
                a[0] = 1.0
            return a
        """)))).function)
    live = reachable(cfg)
    dead = [b.id for b in cfg.blocks if b.id not in live]
    assert dead and all(b not in dominators(cfg) for b in dead)
