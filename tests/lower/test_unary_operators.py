"""Unary operators keep CPython's and NumPy's types (analysis/type_rules.py `Rules.unary`): `-x` of a Python float
is a Python float, so `int8_array * -x` is a float64 array by NEP 50, while `-True` is the int -1. A mutant that
typed every weak non-bool operand as an int made `int8_array * -2.5` an int8 array of -2 (tests/MUTATION.md)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def negate(a, x):
    y = -x
    return a * y, y, y // 2


def plus(a, x):
    y = +x
    return a * y, y, y // 2


def invert(a, x):
    y = ~x
    return a * y, y, y // 2


def negate_not(a, x):
    y = not x
    return a * y, y


JITTED = {fn.__name__: (fn, cuvil.jit(fn)) for fn in (negate, plus, invert, negate_not)}
DTYPES = ["int8", "uint8", "float32"]


def _same(got, expected):
    assert type(got) is type(expected), (got, expected)
    if isinstance(expected, tuple) and isinstance(expected[0], type):
        assert got == expected
    elif isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            _same(g, e)
    elif isinstance(expected, np.ndarray):
        assert (got.dtype, got.shape) == (expected.dtype, expected.shape)
        np.testing.assert_array_equal(got, expected)
    else:
        assert got == expected


def _outcome(fn, *args):
    try:
        return fn(*args)
    except OverflowError as exc:  # NumPy's: a negative Python int times an unsigned array
        return type(exc), str(exc)


def _check(name, dtype, x):
    plain, jitted = JITTED[name]
    a = np.arange(1, 4, dtype=dtype)
    _same(_outcome(jitted, a.copy(), x), _outcome(plain, a.copy(), x))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["negate", "plus"])
@settings(max_examples=10, deadline=None)
@given(x=st.floats(-8.0, 8.0).map(lambda v: round(v * 4) / 4))
def test_a_python_float_keeps_its_kind_under_minus_and_plus(name, dtype, x):
    _check(name, dtype, x)  # a float64 array for an int array, float32 for float32 (NEP 50)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(JITTED))
@given(x=st.booleans() | st.integers(-5, 5))
@settings(max_examples=12, deadline=None)
def test_bools_and_ints_follow_python(name, dtype, x):
    _check(name, dtype, x)  # -True is -1, ~True is -2: ints, never bools


@pytest.mark.parametrize("name", ["negate", "plus", "negate_not"])
def test_first_call_guard_hit_and_miss(name):
    """The same function over a float, another float (the variant's guard holds), then an int and a bool
    (misses): each result has the type Python gives, and each kind compiled once."""
    plain, _ = JITTED[name]
    jitted = cuvil.jit(plain)
    a = np.arange(1, 4, dtype=np.int8)
    for x in (2.5, -0.75, 3, True):
        _same(jitted(a.copy(), x), plain(a.copy(), x))
    assert len(cuvil.explain(jitted).compiles) == 3
