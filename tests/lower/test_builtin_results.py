"""The builtins `abs` and `divmod` on Python numbers give Python's result types and values (analysis/type_rules.py
`builtin`: mutation testing found that typing `abs` of any Python number as an int, or `divmod` as unknown,
failed no test). Each function is called three times per kind (first call, guard hit, guard miss)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def absolute(x):
    return abs(x)


def absolute_twice(x, y):
    return abs(x) + abs(y) / 4 + abs(-2.5)


def quotient_and_rest(a, b):
    q, r = divmod(a, b)
    return q, r, divmod(b, 3)


JITTED = {f: cuvil.jit(f) for f in (absolute, absolute_twice, quotient_and_rest)}
FLOATS = st.floats(-1e6, 1e6, allow_nan=False).filter(lambda v: v != 0.0)
INTS = st.integers(-10**6, 10**6).filter(lambda v: v != 0)


def _same(fn, *args):
    assert_matches(fn, {"cuvil": JITTED[fn]}, *args)


@settings(max_examples=20)
@given(f=FLOATS, i=INTS)
def test_abs_of_python_numbers_keeps_their_type(f, i):
    for value in (f, i):
        _same(absolute, value)
    _same(absolute_twice, f, i)
    _same(absolute_twice, i, f)


@pytest.mark.parametrize("b", [False, True])
def test_abs_of_a_bool_is_an_int(b):
    _same(absolute, b)


@settings(max_examples=20)
@given(fa=FLOATS, fb=FLOATS, ia=INTS, ib=INTS)
def test_divmod_of_python_numbers_matches_python(fa, fb, ia, ib):
    _same(quotient_and_rest, ia, ib)
    _same(quotient_and_rest, fa, fb)
    _same(quotient_and_rest, ia, fb)
