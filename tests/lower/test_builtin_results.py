"""The builtins `abs` and `divmod` on Python numbers give Python's result types and values (analysis/type_rules.py
`builtin`: mutation testing found that typing `abs` of any Python number as an int, or `divmod` as unknown,
failed no test). Each function is called three times per kind (first call, guard hit, guard miss)."""

from __future__ import annotations

import math

import numpy as np
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


def float_of(x):
    return float(x) / 2


def round_of(x):
    return round(x) + 1


def power_of(x):
    return 2.5 ** x + x ** 2


BOOL_FUNCTIONS = [absolute, float_of, round_of, power_of]
BOOL_JITTED = {f: cuvil.jit(f) for f in BOOL_FUNCTIONS}


def _outcome(fn, x):
    try:
        value = fn(x)
    except TypeError as exc:
        return TypeError, exc.message if isinstance(exc, cuvil.CuvilTypeError) else str(exc)
    # (an np.float64 or np.int64 result is a Python float or int: docs/semantics.md "Results")
    return {np.float64: float, np.int64: int}.get(type(value), type(value)), value


@pytest.mark.parametrize("fn", BOOL_FUNCTIONS, ids=lambda f: f.__name__)
def test_builtins_of_python_and_numpy_bools_match_python(fn):
    """`abs`, `float`, `round`, `**` of a Python bool treat it as the int 0 or 1; `abs(np.True_)` is
    `np.True_` and `round(np.True_)` NumPy's TypeError (were: np.int8(1), refused with Numba's words, 1; `2.5 **
    True` was refused). Every bool in both classes, in both orders, so each call after the first is a guard hit
    or a miss."""
    for x in (True, np.False_, np.True_, False, True, np.True_):
        assert _outcome(BOOL_JITTED[fn], x) == _outcome(fn, x), x


def numpy_divmod(a, b):
    q, r = divmod(a, b)
    return q, r, divmod(a, 3)


NUMPY_DIVMOD = cuvil.jit(numpy_divmod)
DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint64", "float32", "float64"]  # float16 arguments: refused


def _scalar(data, dtype: str):
    """A value of `dtype`, its edges (0, -1, the minimum, nan, inf) drawn often."""
    if np.dtype(dtype).kind == "f":
        edges = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan]
        value = data.draw(st.sampled_from(edges) | st.floats(-1e4, 1e4, width=32))
    else:
        info = np.iinfo(dtype)
        value = data.draw(st.sampled_from([0, 1, -1 if info.min else 2, info.min, info.max])
                          | st.integers(int(info.min), int(info.max)))
    return np.dtype(dtype).type(value)


@settings(max_examples=25)
@given(data=st.data(), kinds=st.tuples(st.sampled_from(DTYPES), st.sampled_from(DTYPES + ["int", "float"])))
def test_divmod_of_numpy_scalars_is_numpys(data, kinds):
    """`divmod()` of a NumPy scalar is NumPy's divmod: its dtype (a float32 pair, not Numba's float64 one), 0 or
    inf/nan for a zero divisor, INT_MIN // -1 wrapped; with a Python number, NumPy's OverflowError for an int the
    dtype cannot hold. Three calls per pair: first call, guard hit, guard miss (the operands swapped)."""
    a = _scalar(data, kinds[0])
    b = {"int": data.draw(st.integers(-300, 300)), "float": data.draw(st.floats(-1e3, 1e3))}.get(kinds[1]) \
        if kinds[1] in ("int", "float") else _scalar(data, kinds[1])
    with np.errstate(all="ignore"):
        for args in ((a, b), (a, b), (b, a)):
            assert_matches(numpy_divmod, {"cuvil": NUMPY_DIVMOD}, *args)


def array_divmod(a, b):
    q, r = divmod(a, b)
    return q, r


ARRAY_DIVMOD = cuvil.jit(array_divmod)


@settings(max_examples=15)
@given(data=st.data(), kinds=st.tuples(st.sampled_from(DTYPES), st.sampled_from(DTYPES + ["int", "float"])),
       shape=st.sampled_from([(0,), (1,), (5,), (2, 3)]))
def test_divmod_of_arrays_is_numpys(data, kinds, shape):
    """`divmod()` of an array (Numba has none: it was refused in Numba's words) is np.divmod, with an array or
    a scalar on either side: first call, guard hit, guard miss (swapped)."""
    a = np.array([_scalar(data, kinds[0]) for _ in range(int(np.prod(shape)))], dtype=kinds[0]).reshape(shape)
    b = {"int": data.draw(st.integers(-100, 100)), "float": data.draw(st.floats(-1e3, 1e3))}.get(kinds[1]) \
        if kinds[1] in ("int", "float") else _scalar(data, kinds[1])
    with np.errstate(all="ignore"):
        for args in ((a, b), (a, b), (b, a)):
            assert_matches(array_divmod, {"cuvil": ARRAY_DIVMOD}, *args)


def truncated(x):
    return math.trunc(x) + 1


TRUNCATED = cuvil.jit(truncated)


@pytest.mark.parametrize("value", [True, 7, -2.5, np.float64(-2.5), np.int8(-3), np.int64(5), np.uint64(2**63),
                                   np.float32(2.5), np.bool_(True)])
def test_math_trunc_is_cpythons(value):
    """CPython's math.trunc takes Python numbers (and np.float64, a float subclass) only: a NumPy int, float32
    or bool is a TypeError in its words (Cuvil truncated them). Twice: first call, guard hit."""
    for _ in range(2):
        assert_matches(truncated, {"cuvil": TRUNCATED}, value)
        try:
            truncated(value)
        except TypeError as expected:
            with pytest.raises(TypeError) as got:
                TRUNCATED(value)
            assert str(got.value) == str(expected)


ABSOLUTE = JITTED[absolute]


@settings(max_examples=25)
@given(data=st.data(), dtype=st.sampled_from([*DTYPES, "bool", "complex64", "complex128"]),
       shape=st.sampled_from([(), (0,), (3,), (2, 3)]))
def test_abs_of_numpy_values_is_numpys_absolute(data, dtype, shape):
    """`abs()` of an array or a NumPy scalar is np.absolute: a complex one's is real (float32 for complex64),
    where the type analysis kept it complex and the compiled abs returned a complex array with a zero imaginary
    part. First call, guard hit, guard miss (the other rank)."""
    def value(shape):
        if np.dtype(dtype).kind == "c":  # parts set apart: Python's 1j * inf would be nan+infj
            part = np.dtype(dtype).type(0).real.dtype.name
            out = np.zeros(shape or (1,), dtype)
            out.real = np.array([_scalar(data, part) for _ in range(out.size)]).reshape(out.shape)
            out.imag = np.array([_scalar(data, part) for _ in range(out.size)]).reshape(out.shape)
            return out if shape else out[0]
        if dtype == "bool":
            flat = [data.draw(st.booleans()) for _ in range(int(np.prod(shape)))]
        else:
            flat = [_scalar(data, dtype) for _ in range(int(np.prod(shape)))]
        return np.array(flat, dtype).reshape(shape)[()] if shape else np.dtype(dtype).type(flat[0])

    other = (4,) if shape == () else ()
    with np.errstate(all="ignore"):
        for x in (value(shape), value(shape), value(other)):
            assert_matches(absolute, {"cuvil": ABSOLUTE}, x)
