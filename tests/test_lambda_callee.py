"""A module-level lambda called from compiled code is a CuvilSyntaxError at the call (lambdas are outside the
subset: the source of a lambda is a whole line, which may hold several), never an internal error."""

from __future__ import annotations

import pytest

import cuvil
from tests.helpers import define


def test_module_level_lambda_is_a_syntax_error_at_the_call():
    fn = cuvil.jit(define("""
        sq = lambda v: v * v

        def f(x):
            y = x + 1.0
            return sq(y) + 1.0
        """, name="f"))
    with pytest.raises(cuvil.CuvilSyntaxError) as info:
        fn(2.0)
    error = info.value
    assert (error.filename, error.lineno, error.offset) == (fn.py_func.__code__.co_filename, 5, 12)
    assert error.text.strip() == "return sq(y) + 1.0"
    assert error.reason == "'sq' is a lambda, which cannot be compiled"
    assert error.hint == "define it with def at module level: def sq(v): return ..."
    assert error.__cause__ is None


def test_lambda_called_by_a_helper_is_reported_in_the_helper():
    helper = define("""
        twice = lambda v, k=2: v * k

        def helper(x):
            return twice(x)
        """, name="helper")
    fn = cuvil.jit(define("""
        def f(x):
            return helper(x) + 1.0
        """, env={"helper": helper}))
    with pytest.raises(cuvil.CuvilSyntaxError) as info:
        fn(2.0)
    assert (info.value.filename, info.value.lineno) == (helper.__code__.co_filename, 4)
    assert "def twice(v, k=2)" in info.value.hint


def test_the_same_function_with_def_compiles():
    fn = cuvil.jit(define("""
        def sq(v):
            return v * v

        def f(x):
            y = x + 1.0
            return sq(y) + 1.0
        """, name="f"))
    assert fn(2.0) == fn.py_func(2.0) == 10.0
