"""What a function reads from outside, found from its bytecode (frontend/captures.py)."""

from __future__ import annotations

import ast
import math
import types

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cuvil.codegen.bindings import compiled_in
from cuvil.frontend.captures import name_chains, reads, walk
from tests.helpers import define


def _chains(fn) -> set[tuple[str, str, tuple[str, ...]]]:
    return set(name_chains(fn.__code__, fn.__code__.co_freevars))


def test_attribute_chains_of_globals_methods_and_comprehensions():
    fn = define("""
        def f(x):
            y = [cfg.A.B + k for k in range(3)]
            return pkg.sub.K + np.sqrt(x) + x.shape[0] + len(y)
        """)
    assert _chains(fn) == {
        ("global", "cfg", ("A", "B")), ("global", "range", ()), ("global", "pkg", ("sub", "K")),
        ("global", "np", ("sqrt",)), ("global", "len", ()),
    }  # `x.shape` is a local's attribute: not read from outside


def test_closure_variables_are_reads_and_locals_are_not():
    def make(module):
        def f(x):
            t = x
            return module.K + t
        return f

    assert _chains(make(types.ModuleType("m"))) == {("closure", "module", ("K",))}


def test_reads_follow_user_modules_only_and_list_a_module_before_its_attributes():
    cfg = types.ModuleType("cfg_for_reads")
    cfg.SCALE = 2.0
    fn = define("""
        def f(x):
            return x * cfg.SCALE * math.pi + len(x)
        """, env={"cfg": cfg, "math": math})
    found = [(r.label, r.kind, r.value) for r in reads(fn)]
    assert found == [("len", "builtin", len), ("cfg", "global", cfg), ("cfg.SCALE", "global", 2.0),
                     ("math", "global", math)]  # math.pi: a library's constant


def test_walk_visits_callees_and_numba_helpers_once_with_their_defaults():
    helper_globals = {"numba": numba, "OFF": 1.0}
    exec("@numba.njit\ndef off(x):\n    return x + OFF\n", helper_globals)
    fn = define("""
        def h(x, k=2.0):
            return off(x) + k + h2(x)
        def h2(x):
            return h(x) if x > 0 else x
        def f(x):
            return h(x) + h(x)
        """, "f", env={"off": helper_globals["off"]})
    labels = [r.label for r in walk(fn, compiled_in)]
    assert labels == ["h", "h.__defaults__", "h.h2", "h.h2.h", "h.off", "h.off.OFF"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["g1", "g2", "x", "t"]),
                          st.lists(st.sampled_from(["a", "b", "m"]), max_size=3),
                          st.sampled_from(["plain", "call", "comprehension"])), min_size=1, max_size=5))
def test_name_chains_agree_with_the_syntax_tree(terms):
    """Generated expressions over globals (g1, g2), a parameter (x) and a local (t): the bytecode scan finds
    exactly the chains an AST walk finds on outside names."""
    parts = []
    for name, attrs, form in terms:
        chain = ".".join([name, *attrs])
        parts.append({"plain": chain, "call": f"{chain}(x)", "comprehension": f"[{chain} for _ in x]"}[form])
    source = "def f(x):\n    t = x\n    return " + " + ".join(f"({p})" for p in parts) + "\n"
    namespace: dict = {}
    exec(compile(source, "<generated>", "exec"), namespace)
    assert _chains(namespace["f"]) == _ast_chains(source)


def _ast_chains(source: str) -> set[tuple[str, str, tuple[str, ...]]]:
    found = set()
    tree = ast.parse(source)
    inner = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    for node in ast.walk(tree):
        if id(node) in inner or not isinstance(node, ast.Attribute | ast.Name):
            continue
        attrs: list[str] = []
        while isinstance(node, ast.Attribute):
            attrs.insert(0, node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in ("g1", "g2"):
            found.add(("global", node.id, tuple(attrs)))
    return found


def test_a_numpy_default_array_is_a_read_of_the_callee():
    table = np.arange(3.0)
    fn = define("""
        def pick(i, t=TABLE):
            return t[i]
        def f(i):
            return pick(i)
        """, "f", env={"TABLE": table})
    (defaults,) = [r for r in walk(fn, compiled_in) if r.kind == "defaults"]
    assert defaults.label == "pick.__defaults__" and defaults.value[0] is table
