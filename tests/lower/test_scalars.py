"""Arrays with scalars follow NEP 50: a Python number (literal or argument) is weak and takes the array's dtype
(`uint8_array + 1` wraps, `float32_array * 0.1` stays float32), unless its kind is higher (`int8_array + 1.5`
is float64); a NumPy scalar is strong and promotes like an array (`int8_array + np.int64(1)` is int64)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import WIDE, arrays, assert_like_numpy, elements, jitted, shapes

LITERALS = """
def literals(a):
    r0 = a + 1
    r1 = a * 0.1
    r2 = a + 1.5
    r3 = 2 - a
    r4 = a / 2
    r5 = a // 3
    r6 = a % 3
    r7 = a * 2 > 1
    r8 = a - 2
    return r0, r1, r2, r3, r4, r5, r6, r7, r8
"""
WITH_SCALAR = """
def with_scalar(a, s):
    r0 = a + s
    r1 = s - a
    r2 = a * s
    r3 = a / s
    r4 = s // a
    r5 = a % s
    r6 = a < s
    r7 = np.maximum(a, s)
    return r0, r1, r2, r3, r4, r5, r6, r7
"""
SCALAR_KINDS = [  # (array dtype, scalar strategy) — a Python number in the array's range, or a NumPy scalar
    ("uint8", st.integers(0, 255)),
    ("float32", st.floats(-1e4, 1e4)),
    ("int32", elements("float32").map(np.float32)),  # strong: float64, as the one-op cases below
]
SCALAR_KINDS_WIDE = [(a, s) for a in ("int8", "uint8", "int32", "int64", "float32", "float64")
                     for s in (st.integers(0, 100), st.floats(-10, 10), elements("int8").map(np.int8),
                               elements("uint8").map(np.uint8), elements("float32").map(np.float32),
                               elements("float64").map(np.float64), elements("int64").map(np.int64))]


def _array(dtype: str) -> st.SearchStrategy[np.ndarray]:
    return shapes(2).flatmap(lambda s: arrays(dtype, s))


@pytest.mark.parametrize("dtype", ["uint8", "int8", "float32"] if not WIDE else
                         ["uint8", "int8", "float32", "float64", "int32", "int64", "bool"])
@settings(max_examples=20)
@given(data=st.data())
def test_python_literals_are_weak(dtype, data):
    assert_like_numpy(jitted(LITERALS, dynamic=True), data.draw(_array(dtype)))


@pytest.mark.parametrize(("dtype", "scalar"), SCALAR_KINDS_WIDE if WIDE else SCALAR_KINDS)
@settings(max_examples=20)
@given(data=st.data())
def test_scalar_arguments(dtype, scalar, data):
    """A Python number argument is weak like a literal, a NumPy scalar argument strong; the same dispatcher
    sees each kind (a new variant per scalar type)."""
    assert_like_numpy(jitted(WITH_SCALAR, dynamic=True), data.draw(_array(dtype)), data.draw(scalar))


@pytest.mark.parametrize(("expr", "dtype", "expected"), [
    ("a + 1", "uint8", "uint8"),  # wraps: 255 + 1 == 0
    ("a * 0.1", "float32", "float32"),
    ("a + 1.5", "int8", "float64"),
    ("a + np.int64(1)", "int8", "int64"),
    ("a * np.float64(0.1)", "float32", "float64"),
    ("a + np.float32(0.5)", "int32", "float64"),
    ("a - 1", "bool", "int64"),
])
def test_nep50_result_dtypes(expr, dtype, expected):
    fn = jitted(f"def nep50(a):\n    return {expr}\n")
    a = np.array([0, 1, 100], dtype)
    assert fn(a).dtype == np.dtype(expected)
    assert_like_numpy(fn, a)


def test_uint8_plus_one_wraps():
    fn = jitted("def inc(a):\n    return a + 1\n")
    assert fn(np.array([254, 255], np.uint8)).tolist() == [255, 0]


def test_comparison_with_out_of_range_python_int():
    """Finding 1: NumPy compares a Python int by value, whatever the array's dtype (300 is not 44)."""
    fn = jitted("""
def compare(a):
    r0 = a < 300
    r1 = a > -1
    r2 = a == 256
    r3 = a != -1
    return r0, r1, r2, r3
""")
    assert_like_numpy(fn, np.array([0, 44, 200, 255], np.uint8))


@pytest.mark.parametrize("s", [300, -1, 2**63 - 1])
def test_arithmetic_with_out_of_range_python_int_argument(s):
    """Finding 2, for a value known only at run time: NumPy's OverflowError, not a wrapped constant."""
    fn = jitted("def add(a, s):\n    return a + s\n")
    assert_like_numpy(fn, np.array([0, 200, 255], np.uint8), s)
    assert_like_numpy(fn, np.array([0, 200, 255], np.uint8), 3)


@pytest.mark.parametrize("source", [
    "def divide(a, s):\n    r0 = a % s\n    r1 = a // s\n    return r0, r1\n",
    "def divide(a, s):\n    r0 = a % 0.001\n    r1 = a // 0.001\n    return r0, r1\n",
], ids=["argument", "literal"])
def test_weak_float_in_numpy_division_semantics(source):
    """75.305 // 0.001: 75304 in float32 (NumPy), 75305 in float64."""
    assert_like_numpy(jitted(source), np.array([135.0, 75.305, 68.481, 7.7], np.float32), 0.001)


FITTED = {  # a Python int NumPy converts to the array's dtype first, whatever the array's size
    "operator": "def f(a, v):\n    return a + v\n",
    "literal": "def f(a, v):\n    return -1 * a + 300 * a\n",
    "ufunc": "def f(a, v):\n    return np.maximum(a, v)\n",
    "power": "def f(a, v):\n    return np.power(a, v % 3) + a\n",
    "chain": "def f(a, v):\n    return (a + 1) * v\n",
    "2-D": "def f(a, v):\n    return a.reshape(-1, 1) - v\n",
    "where": "def f(a, v):\n    return np.where(a > 0, a, v)\n",
}


@pytest.mark.parametrize("form", FITTED)
@settings(max_examples=6, deadline=None)
@given(dtype=st.sampled_from(["int8", "uint8", "int16"]), v=st.integers(-400, 400), data=st.data())
def test_a_python_int_is_converted_before_the_elements(form, dtype, v, data):
    """NumPy converts the Python int first: OverflowError "Python integer 300 out of bounds for int8" for an
    empty array too (bug 16: Cuvil converted it per element, so never for an empty one); np.where casts it,
    wrapping, as C does."""
    fn = jitted(FITTED[form])
    for n in (0, 0, 3):  # first, hit, miss
        assert_like_numpy(fn, data.draw(arrays(dtype, (n,), special=False)), v)


@pytest.mark.parametrize("dtype", ["uint8"])
def test_python_bool_scalar(dtype):
    fn = jitted("def divide(a, s):\n    return a / s\n")
    assert_like_numpy(fn, np.array([0, 1, 1], dtype), True)
