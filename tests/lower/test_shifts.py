"""NumPy integer shifts by a count of the type's width or more, or a negative count, shift every bit out (`<<`:
0; `>>`: the sign's bits, -1 or 0). Numba shifts as the CPU does, by the count modulo 64: `np.int64(1) << 64`
was 1, `int8_array << 70` gave 64s, `a <<= 64` left `a` unchanged (runtime/elementwise.left_shift and
right_shift, runtime/division_into.left_shift_into and right_shift_into)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import jitted

DTYPES = ("int8", "uint8", "int32", "int64", "uint64")
COUNTS = (0, 1, 7, 8, 31, 32, 63, 64, 65, 100, 127, -1, -64)

FORMS = {
    "expression": "def f(a, n):\n    return a << n, a >> n\n",
    "loop": """
        def f(a, n):
            left, right = np.empty_like(a), np.empty_like(a)
            for i in range(len(a)):
                left[i] = a[i] << n
                right[i] = a[i] >> n
            return left, right
        """,
    "in place": "def f(a, n):\n    b = a.copy()\n    a <<= n\n    b >>= n\n    return a, b\n",
    "element in place": "def f(a, n):\n    b = a.copy()\n    a[0] <<= n\n    b[-1] >>= n\n    return a, b\n",
    "numpy scalars": """
        def f(a, n):
            x, y = a[0], a[-1]
            x <<= n
            y >>= n
            return np.full(1, x), np.full(1, y), np.full(1, np.left_shift(a[0], n))
        """,
    "array counts": "def f(a, n):\n    c = np.full(len(a), n)\n    return a << c, a >> c\n",
}


@pytest.mark.parametrize("form", FORMS.values(), ids=FORMS.keys())
@settings(max_examples=12, deadline=None)
@given(dtype=st.sampled_from(DTYPES), count=st.sampled_from(COUNTS), data=st.data())
def test_shifts_by_any_count_are_numpys(form, dtype, count, data):
    fn = jitted(form)
    info = np.iinfo(dtype)
    for size in (3, 3, 4):  # first call, guard hit, guard miss
        values = data.draw(st.lists(st.integers(int(info.min), int(info.max)), min_size=size, max_size=size))
        a = np.array(values, dtype)
        try:
            expected = fn.py_func(a.copy(), count)
        except (OverflowError, TypeError) as exc:  # a count the dtype cannot hold (NEP 50); uint64 << int64
            with pytest.raises(type(exc)):
                fn(a.copy(), count)
            continue
        got = fn(a.copy(), count)
        for g, e in zip(got, expected, strict=True):
            assert (type(g), g.dtype, g.shape) == (type(e), e.dtype, e.shape)
            assert np.array_equal(g, e), (dtype, count, values, g, e)


PYTHON_SHIFTS = "def f(a, n):\n    return a >> n, a << min(n, 8)\n"
BOOL_SHIFTS = "def f(a, n):\n    return a << n, a >> n\n"


@settings(max_examples=30, deadline=None)
@given(a=st.integers(-(2**54), 2**54) | st.booleans(), n=st.sampled_from(COUNTS) | st.integers(-3, 200))
def test_python_int_shifts_are_cpythons(a, n):
    """A Python int (or bool) shifted right by 64 or more is its sign's bits, by a negative count CPython's
    ValueError; Numba's `a >> -3` was 0 and `-5 >> 64` was -5 (runtime/pyint.rshift). Below 2**54, so that
    `a << 8` stays in int64 (beyond it, Cuvil's documented OverflowError). Three calls: first, hit, count 1."""
    fn = jitted(PYTHON_SHIFTS)
    for count in (n, n, 1):
        try:
            expected = fn.py_func(a, count)
        except ValueError as error:
            with pytest.raises(ValueError, match=str(error)):
                fn(a, count)
            continue
        got = fn(a, count)
        assert got == expected and [type(g) for g in got] == [int, int], (a, count, got, expected)


@pytest.mark.parametrize("shape", [(), (3,)])
@settings(max_examples=20, deadline=None)
@given(n=st.sampled_from(COUNTS), values=st.lists(st.booleans(), min_size=3, max_size=3))
def test_bool_shifts_are_numpys_int64_shifts(shape, n, values):
    """NumPy shifts bools (arrays and np.bool_) as int64s: every bit out for counts of 64 or more, where
    Numba shifted the CPU's way (`np.array([True]) << 64` was [1]). First call, hit, and an int8 array."""
    fn = jitted(BOOL_SHIFTS)
    x = np.array(values) if shape else np.bool_(values[0])
    for a in (x, x, np.array(values, np.int8)):
        expected, got = fn.py_func(a, n), fn(a, n)
        for e, g in zip(expected, got, strict=True):
            assert np.asarray(g).dtype == np.asarray(e).dtype and np.array_equal(g, e), (a, n, got, expected)


@pytest.mark.parametrize("kinds", [("uint8", "int64"), ("int8", "uint16"), ("uint32", "int8")])
def test_mixed_kind_numpy_scalar_shifts_have_numpys_dtype(kinds):
    """np.uint8(1) << np.int64(3) is an int64 in NumPy; Numba's shift gave a uint64."""
    fn = jitted(BOOL_SHIFTS)
    for a, n in ((1, 3), (1, 3), (100, 70)):
        x, k = np.dtype(kinds[0]).type(a), np.dtype(kinds[1]).type(n)
        expected, got = fn.py_func(x, k), fn(x, k)
        for e, g in zip(expected, got, strict=True):
            assert np.asarray(g).dtype == np.asarray(e).dtype and g == e, (x, k, got, expected)
