"""`np.median` of a whole array is NumPy's: nan when any element is NaN (Numba's median sorts NaN aside and gave
the median of the rest: [1, 2, nan] was 2.0) or when the array is empty, in NumPy's dtype otherwise (float32
for float32, float64 for integers and bools). Each case is called three times: first call, guard hit, guard miss
(another dtype and rank)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define
from tests.lower.compare import assert_like_numpy, jitted, seeded_array

MEDIAN = """
def middle(x):
    return np.median(x)
"""
DTYPES = ["float32", "float64", "int8", "int64", "uint8", "bool"]



@settings(max_examples=30, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES),
       shape=st.sampled_from([(0,), (1,), (4,), (7,), (3, 5)]))
def test_median_is_numpys_with_nan_and_empty_arrays(data, dtype, other, shape):
    fn = jitted(MEDIAN)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "Mean of empty slice"
        arrays = (seeded_array(data, dtype, shape), seeded_array(data, dtype, shape), seeded_array(data, other, (2, 3)))
        for x in arrays:
            assert_like_numpy(fn, x)


MEDIAN_ALONG = """
def middle_along(x, k):
    return np.median(x, axis=k), np.median(x, axis=0, keepdims=True), np.median(x, 1)
"""


@settings(max_examples=20, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES),
       rows=st.integers(0, 7), cols=st.integers(1, 6))
def test_median_along_an_axis_is_numpys(data, dtype, other, rows, cols):
    """np.median(x, axis=k), which Numba refuses ("got an unexpected keyword argument 'axis'"): each lane's
    median, nan for an empty lane or one holding a NaN, keepdims, an axis given by value and NumPy's AxisError
    for one out of range; first call, guard hit, guard miss (another dtype and rank)."""
    fn = jitted(MEDIAN_ALONG)
    k = data.draw(st.integers(-3, 2), label="k")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "Mean of empty slice"
        for x in (seeded_array(data, dtype, (rows, cols)), seeded_array(data, dtype, (rows, cols)),
                  seeded_array(data, other, (2, 3, 2))):
            assert_like_numpy(fn, x, k)


def test_half_median_along_an_axis_is_refused_in_the_users_words():
    """A float16 array's median along an axis is refused naming np.median, not Cuvil's helper for it, at the
    user's line."""
    fn = cuvil.jit(define("def halves(x):\n    y = x + 1\n    return np.median(y, axis=0)\n", env={"np": np}))
    with pytest.raises(cuvil.CuvilTypeError, match=r"^.*:3: np\.median on a float16 array"):
        fn(np.ones((3, 2), np.float16))
