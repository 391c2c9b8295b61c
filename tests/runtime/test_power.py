"""`**` follows NumPy on arrays and CPython on scalars (issue 8 §2): `x ** 0.5` on an array works, an integer
power with a negative exponent raises NumPy's ValueError, `0.0 ** -1.0` and an overflowing float power raise
as in Python. Where Python's result type depends on the values (int ** negative int, negative ** fraction),
Cuvil raises ValueError with a hint instead of answering in the wrong type."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cuvil
from cuvil.testing import assert_matches
from tests.helpers import define
from tests.runtime.inplace_helpers import check_args

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's, in the Python runs: nan, inf
_ULPS = 4 * np.finfo(np.float64).eps  # NumPy's vectorized pow and C's pow() may differ in the last bits
_POW = cuvil.jit(define("""
    def power(x, n):
        return x ** n
    """), dynamic=True)
_LITERALS = cuvil.jit(define("""
    def literals(x):
        return x ** 0.5, x ** -2, x ** 2, x ** -1.0
    """), dynamic=True)


def test_array_power_with_a_fractional_exponent():
    check_args(_POW, np.arange(5.0), 0.5)
    check_args(_POW, np.arange(5.0) - 2.0, 0.5)  # nan where NumPy gives nan
    check_args(_POW, np.arange(5.0), 1.5)  # guard hit


def test_array_power_follows_numpy_not_python():
    check_args(_POW, np.arange(3.0), -2)  # inf at 0 (Numba's `**` raised ZeroDivisionError)
    check_args(_POW, np.arange(3), -1)  # ValueError: Integers to negative integer powers are not allowed.
    check_args(_POW, 2, np.array([1, -1]))
    check_args(_POW, np.arange(3), np.array([1, 2, 3]))
    check_args(_POW, np.arange(3), np.array([1, 2]))  # broadcasting error first, as NumPy
    check_args(_POW, np.zeros(0, dtype=np.int64), -1)  # nothing to compute: no error


@pytest.mark.parametrize("x", [np.arange(4.0), np.arange(1, 4), np.arange(4), 2, 0, 2.0, 0.0])
def test_literal_exponents(x):
    check_args(_LITERALS, x)


@pytest.mark.parametrize(("base", "exp"), [(0.0, -1.0), (0, -1.0), (10.0, 400.0), (-10.0, 401.0), (0.5, -2000.0),
                                           (2, 0.5), (-8.0, 3.0), (-8.0, float("inf")), (2.0, float("nan"))])
def test_scalar_power_follows_python(base, exp):
    check_args(_POW, base, exp, rtol=_ULPS)


@pytest.mark.parametrize(("base", "exp", "words"), [
    (2, -1, "integer ** negative integer gives a float in Python"),
    (-8.0, 1 / 3, "a negative number ** a fractional power is complex in Python"),
])
def test_scalar_powers_whose_type_python_decides_by_value_raise(base, exp, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        _POW(base, exp)


@given(hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-4, 4)),
       st.one_of(st.integers(-3, 3), st.floats(-3, 3)))
def test_float_array_powers_match_numpy(x, n):
    with np.errstate(all="ignore"):
        check_args(_POW, x, n, rtol=_ULPS)


@given(hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(-4, 4)),
       st.one_of(st.integers(-2, 4), hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(-2, 4))))
def test_int_array_powers_match_numpy(x, n):
    check_args(_POW, x, n)


@given(st.one_of(st.integers(-5, 5), st.floats(-1e3, 1e3)), st.one_of(st.integers(0, 5), st.floats(-5, 400)))
def test_scalar_powers_match_python_where_its_type_is_static(base, exp):
    if base < 0 and exp != int(exp):  # complex in Python (or its OverflowError): refused
        with pytest.raises(ValueError, match="complex in Python"):
            _POW(base, exp)
        return
    try:
        base ** exp
    except (ZeroDivisionError, OverflowError) as exc:
        with pytest.raises(type(exc), match=re.escape(str(exc))):
            _POW(base, exp)
        return
    check_args(_POW, base, exp, rtol=_ULPS)


def _builtin_pow(a, b):
    return pow(a, b)


def _operator(a, b):
    return a ** b


BUILTIN = cuvil.jit(_builtin_pow)


@settings(max_examples=40)
@given(a=st.one_of(st.integers(1, 5), st.floats(0.5, 3)), b=st.sampled_from(
    [np.uint8(200), np.int8(-100), np.int8(3), np.int32(5), np.float32(2.0), np.float64(0.5), 3, -2, 2.5]))
def test_the_builtin_pow_is_the_operator(a, b):
    """CPython's `pow(a, b)` is `a ** b`: NumPy's power for NumPy scalars (`pow(3, np.uint8(200))` wraps in
    uint8; Numba's pow gave 6627890308811632801), Python's for Python numbers; value, type and exception."""
    for args in ((a, b), (b, a)):
        negative_fractional = type(args[0]) in (int, float) and args[0] < 0 and type(args[1]) is float \
            and not args[1].is_integer()
        if negative_fractional or all(type(x) is int for x in args) and args[1] < 0:  # documented ValueErrors
            with pytest.raises(ValueError, match="in Python"):
                BUILTIN(*args)
            continue
        assert_matches(_builtin_pow, {"cuvil": BUILTIN}, *args)
        assert_matches(_operator, {"cuvil": BUILTIN}, *args)
