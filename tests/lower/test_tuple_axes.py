"""`np.mean`, `np.max`, `np.min` (`np.amax`, `np.amin`, the methods) over a tuple of axes are NumPy's: the
kept axes' shape (with `keepdims=True` every axis, the reduced ones as 1; a number when none is kept), a mean
of integers or bools in float64 and of float32 in float32, NaN propagated by max and min, NumPy's ValueError
for the max of an empty selection, its AxisError for an axis out of range and its ValueError for a repeated
one. Numba takes an axis tuple for np.sum only and refused these in its words ("got an unexpected keyword
argument 'axis'"); runtime/axis_reductions.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted, shapes

FORMS = ["np.mean(a, axis=(0, 1))", "a.max(axis=(0, -1))", "np.min(a, axis=(-1, 0), keepdims=True)",
         "np.amax(a, (1, 0))", "a.mean((0, 1), keepdims=True)", "np.amin(a, axis=(1,))"]
THREE_D = ["np.mean(a, axis=(0, 2))", "a.min(axis=(2, 0, 1))", "np.max(a, (0, 2), keepdims=True)"]
DTYPES = ["float32", "float64", "int8", "uint8", "int64", "bool"]


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=5, deadline=None)  # each draw compiles new variants (~1 s each)
@given(dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES), ndim=st.integers(2, 3),
       data=st.data())
def test_reductions_over_a_tuple_of_axes_are_numpys(form, dtype, other, ndim, data):
    fn = jitted(f"def f(a):\n    return {form}\n")
    for kind, rank in ((dtype, ndim), (dtype, ndim), (other, 5 - ndim)):  # first call, guard hit, guard miss
        a = data.draw(arrays(kind, data.draw(shapes(rank))))
        assert_like_numpy(fn, a, reduced=a)


@pytest.mark.parametrize("form", THREE_D)
@settings(max_examples=5, deadline=None)  # each draw compiles new variants (~1 s each)
@given(dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES), data=st.data())
def test_reductions_over_axes_of_a_3d_array_are_numpys(form, dtype, other, data):
    fn = jitted(f"def f(a):\n    return {form}\n")
    for kind in (dtype, dtype, other):  # first call, guard hit, guard miss (another dtype)
        a = data.draw(arrays(kind, data.draw(shapes(3))))
        assert_like_numpy(fn, a, reduced=a)


def test_the_mean_of_complex_values_over_axes():
    fn = jitted("def f(a):\n    return np.mean(a, axis=(0, 1)), a.mean(axis=(1, 0), keepdims=True)\n")
    for a in (np.arange(12).reshape(2, 3, 2) * (1 + 2j), np.zeros((0, 2, 3), np.complex64),
              (np.arange(6) - 1j).reshape(3, 2).astype(np.complex64)):
        assert_like_numpy(fn, a, reduced=np.abs(a))


@pytest.mark.parametrize("form", ["np.max(a, axis=(0, 0))", "np.mean(a, axis=(0, 2))", "a.min(axis=(-3, 1))",
                                  "np.mean(a, axis=(1, -2))", "np.max(a, axis=(1, 2, 5))"])
def test_a_bad_axis_is_numpys_error(form):
    fn = jitted(f"def f(a):\n    return {form}\n")
    for a in (np.ones((2, 3)), np.ones((2, 3)), np.ones((4, 1), np.int8)):
        assert_like_numpy(fn, a)
