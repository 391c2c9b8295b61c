"""Guards see the values Python fixed earlier than the call (issue 8 §4): defaults (computed when the `def`
ran), builtins that a global may come to shadow, read-only arrays compiled in as constants."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import cuvil
from tests.helpers import define


def _reasons(fn) -> list[str]:
    return [c.reason for c in cuvil.explain(fn).compiles]


def test_callee_defaults_are_the_values_of_when_def_ran():
    fn = define("""
        D0 = 1.0
        def h(x, k=D0):
            return x + k
        def f(x):
            return h(x)
        D0 = 5.0
        """, "f")
    jitted = cuvil.jit(fn)
    assert jitted(1.0) == fn(1.0) == 2.0
    assert "def h(x, k=1.0)" in jitted.source()


def test_callee_defaults_changed_after_a_compile_recompile():
    fn = define("""
        def h(x, k=1.0):
            return x + k
        def f(x):
            return h(x)
        """, "f")
    jitted = cuvil.jit(fn)
    assert jitted(1.0) == 2.0
    fn.__globals__["h"].__defaults__ = (7.0,)
    assert jitted(1.0) == fn(1.0) == 8.0
    assert _reasons(jitted)[1] == "defaults h.__defaults__: (7.0,) != (1.0,) (guard of variant #1)"


def test_entry_defaults_changed_after_a_compile_are_used():
    fn = define("""
        def f(x, k=1.0):
            return x + k
        """)
    jitted = cuvil.jit(fn)
    assert jitted(1.0) == 2.0
    fn.__defaults__ = (3.0,)
    assert jitted(1.0) == fn(1.0) == 4.0
    assert jitted(1.0, 0.5) == 1.5
    fn.__defaults__ = (3,)  # another type: another variant
    assert jitted(1.0) == fn(1.0) == 4.0 and type(jitted(1.0)) is float
    assert len(_reasons(jitted)) == 3


def test_array_default_of_a_callee_is_passed_by_identity():
    table = np.arange(3.0)
    table.flags.writeable = False
    fn = define("""
        def pick(i, t=TABLE):
            return t[i]
        def f(i):
            return pick(i)
        """, "f", env={"TABLE": table})
    jitted = cuvil.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert jitted(2) == 2.0


def test_builtin_shadowed_after_the_first_call_recompiles():
    fn = define("""
        def f(a):
            return len(a)
        """)
    jitted = cuvil.jit(fn)
    a = np.ones(3)
    assert jitted(a) == 3
    assert jitted(a) == 3
    fn.__globals__["len"] = define("""
        def my_len(a):
            return 42
        """)
    assert jitted(a) == fn(a) == 42
    assert _reasons(jitted)[1].startswith("global len: <function at")
    assert "shadows the builtin" in _reasons(jitted)[1]
    del fn.__globals__["len"]
    assert jitted(a) == fn(a) == 3


def test_read_only_global_array_made_writable_again_recompiles():
    table = np.arange(3.0)
    table.flags.writeable = False
    fn = define("""
        def f(i):
            return TABLE[i]
        """, env={"TABLE": table})
    jitted = cuvil.jit(fn)
    assert jitted(0) == 0.0
    table.flags.writeable = True
    table[0] = 99.0
    with pytest.warns(cuvil.CuvilWarning, match="global array 'TABLE' is compiled in as a constant"):
        assert jitted(0) == fn(0) == 99.0
    assert _reasons(jitted)[1] == (
        "global TABLE: writable again (compiled in as a read-only constant) (guard of variant #1)")


def test_read_only_view_of_a_writable_array_is_not_a_constant():
    base = np.arange(3.0)
    view = base[:]
    view.flags.writeable = False
    fn = cuvil.jit(define("""
        def f(i):
            return VIEW[i]
        """, env={"VIEW": view}))
    with pytest.warns(cuvil.CuvilWarning, match="global array 'VIEW' is compiled in as a constant"):
        fn(0)


def test_numpy_scalar_default_of_a_callee_is_injected_by_value():
    fn = define("""
        def h(x, k=S):
            return x * k
        def f(x):
            return h(x)
        """, "f", env={"S": np.float32(2.5)})
    jitted = cuvil.jit(fn)
    x = np.float32(2.0)
    assert jitted(x) == fn(x) == np.float32(5.0) and type(jitted(x)) is type(fn(x))
    fn.__globals__["h"].__defaults__ = (np.float32(4.0),)
    assert jitted(x) == fn(x) == np.float32(8.0)
    assert _reasons(jitted)[1].startswith("defaults h.__defaults__: ")


def test_entry_defaults_changed_after_a_compile_name_the_entry():
    fn = define("""
        def entry(x, k=1.0):
            return x + k
        """)
    jitted = cuvil.jit(fn)
    jitted(1.0)
    fn.__defaults__ = (2.0,)
    assert jitted(1.0) == 3.0
    assert _reasons(jitted)[1] == "defaults entry.__defaults__: (2.0,) != (1.0,) (guard of variant #1)"
