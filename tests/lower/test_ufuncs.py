"""NumPy's ufuncs called by name, `np.where` and `.astype` inside lowered loops compute NumPy's dtypes and values:
Numba's scalar implementations type and round their own way (int32 with float32 in float32, `sign` of an
unsigned, float16 results), so each is compared with NumPy on every dtype group it has a loop for."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import WIDE, arrays, assert_like_numpy, broadcast_pair, jitted, shapes

UNARY = """
def unary(a):
    r0 = np.exp(a)
    r1 = np.log(a)
    r2 = np.sqrt(a)
    r3 = np.tanh(a)
    r4 = np.sin(a)
    r5 = np.cos(a)
    r6 = np.abs(a)
    r7 = np.negative(a)
    r8 = np.square(a)
    r9 = np.floor(a)
    r10 = np.log1p(a)
    r11 = np.expm1(a)
    r12 = np.sign(a)
    r13 = np.isnan(a)
    r14 = np.isfinite(a)
    return r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14
"""
INTEGER_UNARY = """
def integer_unary(a):
    r0 = np.abs(a)
    r1 = np.negative(a)
    r2 = np.square(a)
    r3 = np.sqrt(a)
    r4 = np.exp(a)
    r5 = abs(a)
    return r0, r1, r2, r3, r4, r5
"""
BINARY = """
def binary(a, b):
    r0 = np.maximum(a, b)
    r1 = np.minimum(a, b)
    r2 = np.fmax(a, b)
    r3 = np.fmin(a, b)
    r4 = np.arctan2(a, b)
    r5 = np.hypot(a, b)
    r6 = np.add(a, b)
    r7 = np.multiply(a, b)
    r8 = np.subtract(a, b)
    r9 = np.logical_and(a, b)
    return r0, r1, r2, r3, r4, r5, r6, r7, r8, r9
"""
INTEGER_BINARY = """
def integer_binary(a, b):
    r0 = np.maximum(a, b)
    r1 = np.minimum(a, b)
    r2 = np.add(a, b)
    r3 = np.multiply(a, b)
    return r0, r1, r2, r3
"""
WHERE = """
def where(c, a, b):
    r0 = np.where(c, a, b)
    r1 = np.where(a > b, a - b, b)
    r2 = np.where(c, a, 2)
    return r0, r1, r2
"""
ASTYPE = """
def astype(a):
    r0 = a.astype(np.float32)
    r1 = a.astype(np.float64)
    r2 = a.astype(np.int8)
    r3 = a.astype(np.uint8)
    r4 = a.astype(np.int64)
    r5 = a.astype(np.bool_)
    r6 = a.astype(float)
    r7 = a.astype(int) + 1
    return r0, r1, r2, r3, r4, r5, r6, r7
"""


def _array(dtype: str, ndim: int = 2, **kwargs) -> st.SearchStrategy[np.ndarray]:
    return shapes(ndim).flatmap(lambda s: arrays(dtype, s, **kwargs))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@settings(max_examples=20)
@given(data=st.data())
def test_unary_float_ufuncs(dtype, data):
    assert_like_numpy(jitted(UNARY, dynamic=True), data.draw(_array(dtype)))


@pytest.mark.parametrize("dtype", ["int32"] + (["int64", "uint32", "int16"] if WIDE else []))
@settings(max_examples=15)
@given(data=st.data())
def test_unary_integer_ufuncs(dtype, data):
    assert_like_numpy(jitted(INTEGER_UNARY, dynamic=True), data.draw(_array(dtype)))


@pytest.mark.parametrize(("da", "db"), [("float32", "float32")] + ([("float64", "float32")] if WIDE else []))
@settings(max_examples=20)
@given(data=st.data())
def test_binary_float_ufuncs_broadcast(da, db, data):
    out, other = data.draw(broadcast_pair(2, 1))
    assert_like_numpy(jitted(BINARY, dynamic=True), data.draw(arrays(da, out)), data.draw(arrays(db, other)))


@pytest.mark.parametrize(("da", "db"), [("int8", "uint8")] + ([("int64", "int64")] if WIDE else []))
@settings(max_examples=15)
@given(data=st.data())
def test_binary_integer_ufuncs(da, db, data):
    out, other = data.draw(broadcast_pair(2, 2))
    fn = jitted(INTEGER_BINARY, dynamic=True)
    assert_like_numpy(fn, data.draw(arrays(da, out)), data.draw(arrays(db, other)))


@pytest.mark.parametrize(("da", "db"), [("float32", "float32"), ("int8", "uint8")])
@settings(max_examples=20)
@given(data=st.data())
def test_where(da, db, data):
    out, other = data.draw(broadcast_pair(2, 1))
    c = data.draw(arrays("bool", out[1:]))
    assert_like_numpy(jitted(WHERE, dynamic=True), c, data.draw(arrays(da, out)), data.draw(arrays(db, other)))


@pytest.mark.parametrize(("dtype", "values"), [
    ("float64", st.floats(-127, 127)),  # in every target's range: C leaves other conversions undefined
    ("int32", None),
] + ([("bool", None)] if WIDE else []))
@settings(max_examples=20)
@given(data=st.data())
def test_astype(dtype, values, data):
    assert_like_numpy(jitted(ASTYPE, dynamic=True), data.draw(_array(dtype, values=values)))


def test_float_astype_bool_counts_nan_as_true():
    fn = jitted("def truth(a):\n    return a.astype(np.bool_)\n")
    assert_like_numpy(fn, np.array([0.0, -0.0, np.nan, np.inf, 1e-300]))


def test_abs_of_the_most_negative_integer_wraps():
    assert_like_numpy(jitted(INTEGER_UNARY, dynamic=True), np.array([[-2**31, 2**31 - 1, 0]], np.int32))


# -- regressions: each a class of bug found here ----------------------------------------------------------


def test_named_ufuncs_compute_in_numpys_loop_dtype():
    a, b = np.array([[2**31 - 1, 7, -2**31]], np.int32), np.array([-2.0, 3.0, 0.5], np.float32)
    assert_like_numpy(jitted(INTEGER_BINARY, dynamic=True), a, b)


def test_named_true_divide_of_integers_is_float64():
    fn = jitted("def divide(a, b):\n    return np.true_divide(a, b)\n")
    assert_like_numpy(fn, np.array([1, -128, 127, 5], np.int8), np.array([-1, 0, 3, -2], np.int8))


NAMED_DIVISION = "def named(a, b):\n    return np.floor_divide(a, b), np.power(a, b)\n"


def test_named_floor_divide_and_power():
    """inf // 2.5 is nan, as the operator's."""
    assert_like_numpy(jitted(NAMED_DIVISION), np.array([np.inf, -np.inf, 5.0]), np.array([2.5, 2.5, np.inf]))


def test_named_integer_power_with_a_negative_exponent():
    assert_like_numpy(jitted(NAMED_DIVISION), np.array([1, 5], np.int8), np.array([3, -2], np.int8))


def test_sign_of_unsigned():
    assert_like_numpy(jitted("def sign(a):\n    return np.sign(a)\n"), np.array([0, 3, 255], np.uint8))


def test_integer_fmod():
    fn = jitted("def fmod(a, b):\n    return np.fmod(a, b)\n")
    assert_like_numpy(fn, np.array([1, -128, 127, 5], np.int8), np.array([-1, 0, 3, -2], np.int8))


@pytest.mark.parametrize("dtype", ["uint8", "bool", "int8"])
def test_float16_results(dtype):
    """Finding 8: NumPy's float16 result (exp of a small integer) is answered in float16 with NumPy's values
    (issue 12: computed in float32, rounded once), not in float32."""
    fn = jitted("def exp(a):\n    return np.exp(a), np.sqrt(a) * 0.5\n")
    a = np.arange(256).astype(dtype) if dtype != "bool" else np.array([True, False])
    with np.errstate(all="ignore"):
        want = fn.py_func(a)
    got = fn(a)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype == np.float16
        assert np.array_equal(g, w, equal_nan=True)


@pytest.mark.parametrize(("a", "s"), [(np.array([0, 7, 200], np.uint8), np.True_),
                                      (np.array([True, False, True]), np.float32(0.5))], ids=["uint8", "bool"])
def test_where_with_a_bool_branch(a, s):
    assert_like_numpy(jitted("def where(a, s):\n    return np.where(a > 0, a, s)\n"), a, s)


def test_builtin_abs_of_an_array():
    assert_like_numpy(jitted("def absolute(a):\n    return abs(a)\n"), np.array([-1.5, 2.0, -0.0, np.nan]))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_where_of_python_numbers_is_a_strong_float64(dtype):
    """np.where(c, 0.1, 1.5) is a float64 array: compared with a float32 (or float16) array it is not rounded to
    that dtype first (found by tests/precision/test_expressions.py: 0.1 became 0.0999755859375)."""
    fn = jitted("def f(a):\n    return a == np.where(a < 1.5, 0.1, 1.5), np.where(a < 1, a, np.where(a < 2, 0.1, 3))\n")
    a = np.array([0.1, 0.0999755859375, 1.0, 2.0], dtype)  # a[0] == 0.1 only after rounding 0.1 to dtype
    assert_like_numpy(fn, a)


@pytest.mark.parametrize("dtype", ["float16", "float32", "int8", "uint8", "int64"])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_inline_where_of_python_numbers_against_every_dtype(dtype, data):
    """The class of the reproducer above: a fused np.where whose branches are Python numbers, met by an array
    of another dtype in the same expression."""
    yes, no = data.draw(st.sampled_from(["0.1", "3", "-1", "2.5", "True"])), data.draw(st.sampled_from(["0.1", "7"]))
    fn = jitted(f"def f(a):\n    w = np.where(a < 2, {yes}, {no})\n    return a == np.where(a < 2, {yes}, {no}), "
                f"a + np.where(a > 0, {yes}, {no}), w\n")
    assert_like_numpy(fn, data.draw(arrays(dtype, data.draw(shapes(1)))))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["np.sqrt(abs(k))", "np.exp(k % 5)", "np.add(k, 1)", "np.negative(k)", "np.abs(k)",
                        "-np.sqrt(abs(k))", "np.multiply(k, 3) - 1", "np.maximum(k, 2)"]),
       st.integers(-10**6, 10**6) | st.floats(-1e3, 1e3))
def test_numpy_functions_of_python_numbers_are_numpy_scalars(expr, k):
    """np.<ufunc> of Python numbers is a NumPy scalar (float64 or int64), never Python-int arithmetic."""
    assert_like_numpy(jitted(f"def f(k):\n    return {expr}\n"), k)


@settings(max_examples=20, deadline=None)
@given(dtype=st.sampled_from(["float32", "float64"]), data=st.data())  # float16: lower/half.py, refused whole
def test_sign_of_floats_is_numpys_signed_zeros_included(dtype, data):
    """NumPy's sign of -0.0 is +0.0 (Numba's kept -0.0); nan stays nan, infinities give ±1. Whole arrays,
    elements and the scalar of an element; first call, guard hit, guard miss."""
    fn = jitted("def f(a):\n    return np.sign(a), np.full(1, np.sign(a[0])), np.sign(a[-1:])\n")
    values = st.sampled_from([-0.0, 0.0, np.nan, np.inf, -np.inf, 1e-300, -2.5]) | st.floats(-3, 3)
    for size in (2, 2, 3):
        a = np.array(data.draw(st.lists(values, min_size=size, max_size=size)), dtype)
        for got, expected in zip(fn(a), fn.py_func(a), strict=True):
            assert (got.dtype, got.shape) == (expected.dtype, expected.shape)
            assert np.array_equal(got, expected, equal_nan=True)
            assert np.array_equal(np.signbit(got), np.signbit(expected)), (a, got, expected)
