"""`max()` and `min()` of a NumPy scalar and a Python number (analysis/types.extreme, lower/builtin_calls.py).

CPython returns one argument unconverted, so no single type follows it; Cuvil's result holds every argument's
value exactly where a type can, and keeps the NumPy argument's type where that type holds the Python literal
beside it. Before, the analysis took NEP 50's type (`max(np.int8(5), 300) * 2` wrapped in int8 to 88; Python:
600) while Numba's code computed another (`max(np.uint64(x), 0)` went through float64 and lost the bits above
2**53; `max(np.int32(x), 0)` was a Python int, so `+ 1` did not wrap as x's own would). Each function is
called three times: first call, guard hit, guard miss (another dtype).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import jitted

LITERAL_FORMS = [  # (source, the literal beside the NumPy argument)
    ("def f(a):\n    return max(a, 0) + 1\n", 0),
    ("def f(a):\n    return max(a, 300) * 2\n", 300),
    ("def f(a):\n    return min(a, 255)\n", 255),
    ("def f(a):\n    return min(-1, a)\n", -1),
    ("def f(a):\n    return max(a, 0.5)\n", 0.5),
    ("def f(a):\n    return min(a, 0.1)\n", 0.1),
]
PAIR = "def f(a, b):\n    return max(a, b), min(b, a)\n"
_BOXED = {np.int64: int, np.float64: float}  # results of these types come back as Python's (docs/semantics.md)
DTYPES = ["int8", "uint8", "int32", "int64", "uint64", "float32", "float64"]


def _scalar(draw, dtype: str) -> np.generic:
    kind = np.dtype(dtype).kind
    if kind == "f":
        return np.dtype(dtype).type(draw(st.floats(-1e6, 1e6, width=np.dtype(dtype).itemsize * 8)))
    info = np.iinfo(dtype)
    return np.dtype(dtype).type(draw(st.integers(int(info.min), int(info.max)) | st.sampled_from(
        [int(info.min), int(info.max), 0, 1])))


def _held(dtype: np.dtype, value: int | float) -> bool:
    if dtype.kind in "iu":
        return isinstance(value, int) and int(np.iinfo(dtype).min) <= value <= int(np.iinfo(dtype).max)
    return float(dtype.type(value)) == value


def _same_number(got, expected) -> bool:
    if isinstance(expected, float | np.floating) and math.isnan(expected):
        return isinstance(got, float | np.floating) and math.isnan(got)
    if isinstance(got, float | np.floating) or isinstance(expected, float | np.floating):
        return float(got) == float(expected) and (float(got) != 0 or math.copysign(1, got) == math.copysign(
            1, expected))
    return int(got) == int(expected)


def _check(fn, args: tuple, keeps_type: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's scalar overflow warning
        expected, got = fn.py_func(*args), fn(*args)
    expected, got = (expected, got) if isinstance(expected, tuple) else ((expected,), (got,))
    for e, g in zip(expected, got):
        assert _same_number(g, e), f"{args}: {g!r} != {e!r}"
        if keeps_type and isinstance(e, np.generic):  # the NumPy argument won: its type, as in Python
            expected_type = _BOXED.get(type(e), type(e))
            assert type(g) is expected_type, f"{args}: {type(g).__name__} != {expected_type.__name__}"


@pytest.mark.parametrize(("source", "literal"), LITERAL_FORMS, ids=lambda v: str(v).split("return ")[-1][:18])
@settings(max_examples=12, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES))
def test_max_min_of_a_numpy_scalar_and_a_literal_are_pythons(source, literal, data, dtype, other):
    fn = jitted(source)
    for kind in (dtype, dtype, other):
        a = _scalar(data.draw, kind)
        _check(fn, (a,), _held(np.dtype(kind), literal))


@settings(max_examples=12, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES),
       number=st.integers(-1000, 1000) | st.floats(-1e3, 1e3))
def test_max_min_of_a_numpy_scalar_and_a_python_number_hold_both(data, dtype, other, number):
    """A Python number passed in is no literal: an int is an int64, a float a float64 (the value exact; the
    result's type NumPy's promotion, below 2**53 for a uint64 beside an int, NumPy's float64)."""
    fn = jitted(PAIR)
    for kind in (dtype, dtype, other):
        a = _scalar(data.draw, kind)
        if kind == "uint64" and isinstance(number, int):
            a = np.uint64(min(int(a), 2**53))
        _check(fn, (a, number), False)


def test_uint64_beside_a_zero_literal_keeps_every_bit():
    fn = jitted("def f(a):\n    return max(a, 0), min(a, 0)\n")
    for a in (np.uint64(2**64 - 1), np.uint64(2**53 + 1), np.uint64(7)):
        assert fn(a) == (a, np.uint64(0)) and type(fn(a)[0]) is np.uint64


def test_max_min_compare_a_python_float_in_the_scalars_dtype():
    """CPython's max(a, b) is `b if b > a else a`, and NumPy compares a Python float with a float32 in float32
    (NEP 50): 512.2865243953829 rounds to the float32 beside it, so neither is larger and max gives `a`'s value,
    where a comparison in float64 gave the float (the example hypothesis found). First call, guard hit, miss."""
    fn = jitted(PAIR)
    a, number = np.float32(512.2864990234375), 512.2865243953829
    for args in ((a, number), (a, number), (np.float64(2.5), 2.5000000000000004), (np.float32(1.5), 1.25)):
        _check(fn, args, False)


SEVERAL = "def f(a, b, c, d):\n    return max(a, b), min(b, a), max(a, b, c), min(c, a, b), max(d, a, b, c)\n"


@settings(max_examples=25, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(["float32", "float64", "int8", "int64"]),
       other=st.sampled_from(["float32", "int32"]))
def test_max_min_of_scalars_and_python_numbers_near_them(data, dtype, other):
    """The class of the example above: Python numbers within a rounding of a NumPy scalar (equal in its dtype
    under NEP 50, different as Python floats), NaN and ±inf, 2 to 4 arguments in every order, where each
    comparison CPython makes is NumPy's. First call, guard hit, guard miss (another dtype)."""
    fn = jitted(SEVERAL)
    for kind in (dtype, dtype, other):
        a = _scalar(data.draw, kind)
        step = float(np.finfo(kind).eps) if np.dtype(kind).kind == "f" else 0.0
        near = [float(a) * (1 + f * step) + f * step for f in (-0.4, -0.1, 0.0, 0.1, 0.4)]
        numbers = st.sampled_from(near) | st.integers(-130, 130) | st.sampled_from([math.nan, math.inf, -math.inf])
        b, c = data.draw(st.sampled_from(near), label="b"), data.draw(numbers, label="c")
        d = _scalar(data.draw, kind)
        _check(fn, (a, b, c, d), False)
