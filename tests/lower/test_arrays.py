"""Whole-array arithmetic lowered to loop nests (lower/arrays.py) computes what NumPy 2 computes: the same
dtype (NEP 50), shape (broadcasting against lower-rank arrays and size-1 dims, 0-size arrays) and values
(wrap-around, NumPy's division and NaN semantics), serially and under `parallel=True`.

Each source groups several operations so that one compile serves them all (a compile costs about a second);
an operation found wrong for some dtype is split out into an xfail test naming the bug and its reproducer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import DTYPES, WIDE, arrays, assert_like_numpy, broadcast_pair, jitted, shapes

ARITHMETIC = """
def arithmetic(a, b):
    r0 = a + b
    r1 = a - b
    r2 = a * b
    r3 = a / b
    r4 = a // b
    r5 = a % b
    return r0, r1, r2, r3, r4, r5
"""
# bool - bool is NumPy's TypeError: bools get their own group (the error: test_bool_subtract_is_numpys_type_error)
BOOL_ARITHMETIC = """
def bool_arithmetic(a, b):
    r0 = a + b
    r1 = a * b
    r2 = a / b
    r3 = a // b
    r4 = a % b
    r5 = a & b
    r6 = a | b
    r7 = a ^ b
    return r0, r1, r2, r3, r4, r5, r6, r7
"""
BITWISE = """
def bitwise(a, b):
    r0 = a & b
    r1 = a | b
    r2 = a ^ b
    return r0, r1, r2
"""
COMPARISONS = """
def comparisons(a, b):
    r0 = a < b
    r1 = a <= b
    r2 = a > b
    r3 = a >= b
    r4 = a == b
    r5 = a != b
    return r0, r1, r2, r3, r4, r5
"""
UNARY = """
def unary(a):
    r0 = -a
    r1 = +a
    r2 = a * 1
    return r0, r1, r2
"""
# A representative matrix by default (a compile costs about a second); CUVIL_LOWER_WIDE=1 runs every pair.
MIXED = [("int8", "uint8"), ("int32", "float32")]
MIXED_WIDE = [(a, b) for a in DTYPES for b in DTYPES if a != b and "bool" not in (a, b)] \
    + [("bool", d) for d in DTYPES if d != "bool"]
PARALLEL = ["int8"] + (["float32"] if WIDE else [])
# A parallel compile costs several times a serial one: the parallel group is the serial one's core.
PARALLEL_ARITHMETIC = """
def parallel_arithmetic(a, b):
    r0 = a + b
    r1 = a * b
    r2 = a / b
    r3 = a // b
    return r0, r1, r2, r3
"""


@st.composite
def _operands(draw, da: str, db: str, out_ndim: int, other_ndim: int):
    """An array of rank `out_ndim` and one of rank `other_ndim` that broadcasts against it."""
    out, other = draw(broadcast_pair(out_ndim, other_ndim))
    return draw(arrays(da, out)), draw(arrays(db, other))


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bool"] if WIDE else
                         ["float16", "float32", "int8", "uint8"])
@settings(max_examples=25)
@given(data=st.data())
def test_arithmetic_same_dtype_with_size_one_dims(dtype, data):
    a, b = data.draw(_operands(dtype, dtype, 2, 2))
    assert_like_numpy(jitted(ARITHMETIC, dynamic=True), a, b)


@pytest.mark.parametrize(("da", "db"), MIXED_WIDE if WIDE else MIXED)
@settings(max_examples=20)
@given(data=st.data())
def test_arithmetic_mixed_dtypes_against_a_lower_rank_array(da, db, data):
    a, b = data.draw(_operands(da, db, 2, 1))
    assert_like_numpy(jitted(ARITHMETIC, dynamic=True), a, b)


@settings(max_examples=20)
@given(data=st.data())
def test_lower_rank_array_on_the_left(data):
    b, a = data.draw(_operands("int32", "float64", 3, 1))
    assert_like_numpy(jitted(ARITHMETIC, dynamic=True), a, b)


@settings(max_examples=25)
@given(data=st.data())
def test_bool_arithmetic(data):
    a, b = data.draw(_operands("bool", "bool", 2, 2))
    assert_like_numpy(jitted(BOOL_ARITHMETIC, dynamic=True), a, b)


@pytest.mark.parametrize(("da", "db"), [("uint8", "int32")] + ([("int8", "int8"), ("int64", "bool")] if WIDE else []))
@settings(max_examples=15)
@given(data=st.data())
def test_bitwise(da, db, data):
    a, b = data.draw(_operands(da, db, 2, 1))
    assert_like_numpy(jitted(BITWISE, dynamic=True), a, b)


@pytest.mark.parametrize("dtype", PARALLEL)
@settings(max_examples=20)
@given(data=st.data())
def test_arithmetic_parallel(dtype, data):
    a, b = data.draw(_operands(dtype, dtype, 2, 2))
    assert_like_numpy(jitted(PARALLEL_ARITHMETIC, dynamic=True, parallel=True), a, b)


@pytest.mark.parametrize(("da", "db"), [(d, d) for d in DTYPES] + MIXED_WIDE if WIDE else
                         [("float32", "float32"), ("int8", "uint8")])
@settings(max_examples=15)
@given(data=st.data())
def test_comparisons(da, db, data):
    a, b = data.draw(_operands(da, db, 2, 1))
    assert_like_numpy(jitted(COMPARISONS, dynamic=True), a, b)


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bool"] if WIDE else ["int8", "float32"])
@settings(max_examples=15)
@given(data=st.data())
def test_unary(dtype, data):
    a = data.draw(shapes(2).flatmap(lambda s: arrays(dtype, s)))
    assert_like_numpy(jitted(UNARY, dynamic=True), a)


def test_mismatched_shapes_raise_numpys_value_error():
    fn = jitted("def add(a, b):\n    return a + b\n", dynamic=True)
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        fn(np.ones((3, 4)), np.ones(5))
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        fn(np.ones((3, 4)), np.ones((2, 1)))
    assert_like_numpy(fn, np.ones((3, 4)), np.ones((3, 1)))


def test_zero_size_broadcasts_against_one():
    fn = jitted("def add(a, b):\n    return a + b\n", dynamic=True)
    assert_like_numpy(fn, np.ones((0, 4)), np.ones((1, 4)))
    assert_like_numpy(fn, np.ones((3, 1)), np.ones((1, 0)))
    assert_like_numpy(fn, np.ones((0, 0)), np.ones((1, 1)))


POWERS = """
def powers(a):
    r0 = a ** 2
    r1 = a ** 3
    r2 = a ** 4
    r3 = a ** 1
    r4 = a ** 0
    return r0, r1, r2, r3, r4
"""


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint8", "int64"] if WIDE else
                         ["float32", "uint8"])
@settings(max_examples=20)
@given(data=st.data())
def test_small_integer_powers_multiplied_out(dtype, data):
    """`x ** k` for k = 2, 3, 4 is multiplied out: the same wrap-around as NumPy's integer power, float
    results within the tolerance of a correctly rounded pow."""
    a = data.draw(shapes(2).flatmap(lambda s: arrays(dtype, s)))
    assert_like_numpy(jitted(POWERS, dynamic=True), a)


@settings(max_examples=20)
@given(data=st.data())
def test_array_powers(data):
    """int ** int with a negative exponent anywhere: NumPy's ValueError; floats: nan and inf as NumPy."""
    a, b = data.draw(_operands("int64", "int64", 2, 1))
    fn = jitted("def power(a, b):\n    return a ** b\n", dynamic=True)
    assert_like_numpy(fn, a % 7, b % 4 - int(data.draw(st.booleans())))
    x, y = data.draw(_operands("float64", "float64", 2, 1))
    assert_like_numpy(fn, x, y)


def test_square_root_power_of_float64():
    assert_like_numpy(jitted("def root(a):\n    return a ** 0.5\n"), np.array([4.0, 2.0, -1.0, np.inf, np.nan]))


# -- regressions: each a class of bug found here ----------------------------------------------------------


def test_power_keeps_numpys_dtype_float32_root():
    assert_like_numpy(jitted("def root(a):\n    return a ** 0.5\n"), np.array([4.0, 2.0], np.float32))


def test_power_keeps_numpys_dtype_python_base():
    assert_like_numpy(jitted("def exp2(a):\n    return 2 ** a\n"), np.array([0, 3, 7], np.uint8))


def test_power_keeps_numpys_dtype_mixed_arrays():
    fn = jitted("def power(a, b):\n    return a ** b\n")
    assert_like_numpy(fn, np.array([2, 3], np.int32), np.array([0.5, 2.0], np.float32))


def test_bool_squared_is_int8():
    """NumPy's `array ** 2` is np.square, whose bool loop gives int8; `** 3` is np.power's int64."""
    fn = jitted("def square(a):\n    return a ** 2, a ** 3\n")
    for a in (np.array([True, False]), np.array([False, True]), np.array([True, True, False])):
        assert_like_numpy(fn, a)


def test_bool_subtract_is_numpys_type_error():
    a, b = np.array([True, False]), np.array([True, True])
    assert_like_numpy(jitted("def bool_sub(a, b):\n    return a - b\n"), a, b)


def test_bool_negative_is_numpys_type_error():
    assert_like_numpy(jitted("def bool_neg(a):\n    return -a\n"), np.array([True, False]))


@pytest.mark.parametrize("expr", ["a + 300", "a - -1"])
def test_arithmetic_with_out_of_range_python_int(expr):
    assert_like_numpy(jitted(f"def add(a):\n    return {expr}\n"), np.array([0, 200, 255], np.uint8))


def test_uint64_with_int64_is_float64():
    a, b = np.array([[2**63 + 5, 3]], np.uint64), np.array([-3, 2**62], np.int64)
    assert_like_numpy(jitted(ARITHMETIC, dynamic=True), a, b)
