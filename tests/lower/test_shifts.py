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
