"""A returned tuple whose array elements follow one that may raise (`return u[0], u + n`): the array elements
are lowered too, the earlier one evaluated first into a temporary (lower/arrays.Lowering.tuple). They were
left whole for Numba, whose ufuncs follow NumPy 1's promotion: an int8 array plus a Python int came back
int64, a uint64 array against a Python int compared as float64, `np.where(u > n, u, n)` of a uint8 array was
int64 and of a uint64 array float64."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted

EXPRESSIONS = ("u + n", "u * n", "u - n", "u // n", "u % n", "u / n", "u ** 2", "-u", "u & n", "u << 1",
               "u > n", "u != n", "np.maximum(u, n)", "np.where(u > n, u, n)", "u * 0.5", "u.astype(np.int8)")
DTYPES = ("int8", "uint8", "int32", "uint64", "float32", "bool")


@pytest.mark.parametrize("expression", EXPRESSIONS)
@settings(max_examples=4, deadline=None)
@given(dtype=st.sampled_from(DTYPES), n=st.integers(1, 100), data=st.data())
def test_array_elements_after_a_checked_element_are_numpys(expression, dtype, n, data):
    fn = jitted(f"def f(u, n):\n    return u[0], {expression}, u[-1]\n")
    for size in (3, 3, 4):  # first call, guard hit, guard miss
        u = data.draw(arrays(dtype, (size,)))
        with np.errstate(all="ignore"):
            assert_like_numpy(fn, u, n)


def test_the_checked_element_raises_first():
    """`u[0]` of an empty array raises IndexError before the broadcast of the next element can fail."""
    fn = jitted("def f(u, v):\n    return u[0], u + v\n")
    for u, v in ((np.zeros(0), np.ones(3)), (np.zeros(0), np.ones(3)), (np.zeros(2), np.ones(3))):
        assert_like_numpy(fn, u, v)  # IndexError, IndexError, then NumPy's ValueError

