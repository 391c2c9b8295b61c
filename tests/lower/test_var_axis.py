"""`np.var` and `np.std` (and the methods) along an axis are NumPy's: any axis, negative ones too, with `ddof=`
and `keepdims=`, the squared deviations from each lane's mean summed and divided by max(n - ddof, 0) (nan for
an empty lane), in NumPy's dtype (float32 for float32 and complex64, float64 for integers and bools), a number
for a 1-D array; an axis out of range is NumPy's AxisError. Numba's take no axis and refused them in its words
("got an unexpected keyword argument 'axis'"); runtime/axis_reductions.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted, shapes

FORMS = ["np.var(a, axis=k)", "np.std(a, axis=k, ddof=d)", "a.var(k, ddof=d)", "a.std(axis=k)",
         "np.var(a, k, keepdims=True)", "a.std(axis=k, ddof=d, keepdims=True)", "np.var(a, axis=-1, ddof=d)"]
DTYPES = ["float32", "float64", "int8", "uint8", "int64", "bool", "complex64", "complex128"]


def _array(data, dtype: str, ndim: int) -> np.ndarray:
    values = None
    if np.dtype(dtype).kind == "c":
        part = st.floats(-100, 100, width=32)
        values = st.builds(complex, part, part)
    a = data.draw(arrays(dtype, data.draw(shapes(ndim)), special=False, values=values))
    return a if np.dtype(dtype).kind in "cb" else np.clip(a, -100, 100).astype(dtype)


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=5, deadline=None)  # each draw compiles new variants (~1 s each)
@given(dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES), ndim=st.integers(1, 3),
       other_ndim=st.integers(1, 3), d=st.sampled_from([0, 1, 2, 0.5]), data=st.data())
def test_var_and_std_along_an_axis_are_numpys(form, dtype, other, ndim, other_ndim, d, data):
    fn = jitted(f"def f(a, k, d):\n    return {form}\n")
    k = data.draw(st.integers(-min(ndim, other_ndim), min(ndim, other_ndim) - 1), label="k")
    for kind, rank in ((dtype, ndim), (dtype, ndim), (other, other_ndim)):  # first call, guard hit, guard miss
        a = _array(data, kind, rank)
        assert_like_numpy(fn, a, k, d, reduced=np.abs(a.astype(np.complex128)) ** 2 + 1)


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 4)])
def test_var_of_an_empty_lane_is_nan(shape):
    fn = jitted("def f(a, k):\n    return np.var(a, axis=k), np.std(a, axis=k, ddof=1)\n")
    for dtype in ("float64", "float32", "int8"):
        for k in range(-len(shape), len(shape)):
            assert_like_numpy(fn, np.zeros(shape, dtype), k)


def test_an_axis_out_of_range_is_numpys_axis_error():
    fn = jitted("def f(a, k):\n    return np.std(a, axis=k)\n")
    for a, k in ((np.ones((2, 3)), 2), (np.ones((2, 3)), -3), (np.ones(4, np.float32), 1)):
        assert_like_numpy(fn, a, k)
