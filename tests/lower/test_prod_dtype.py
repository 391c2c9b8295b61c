"""`np.prod(a, dtype=d)` and `a.prod(dtype=d)` of a whole array are NumPy's: each element cast to d and multiplied
in d (wrapping for integers), a d scalar. Numba's prod takes no dtype and refused it in its words ("got an
unexpected keyword argument 'dtype'"); lower/library_results.py casts the array first. np.sum with dtype= was
Numba's own already, and stays right beside it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted, shapes

FORMS = ["np.prod(a, dtype=np.{d})", "a.prod(dtype=np.{d})", "(np.prod(a, dtype=np.{d}), np.sum(a, dtype=np.{d}))"]
DTYPES = ["int8", "uint8", "int32", "int64", "float32", "float64", "bool"]
TARGETS = ["int64", "int32", "uint8", "float32", "float64"]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("target", TARGETS)
@settings(max_examples=8, deadline=None)
@given(dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES), data=st.data())
def test_prod_with_dtype_is_numpys(form, target, dtype, other, data):
    fn = jitted(f"def f(a):\n    return {form.format(d=target)}\n")
    for kind, ndim in ((dtype, 1), (dtype, 1), (other, 2)):  # first call, guard hit, guard miss
        a = data.draw(arrays(kind, data.draw(shapes(ndim)), special=False))
        if np.dtype(kind).kind == "f":
            a = np.clip(a, -100, 100).astype(kind)
        assert_like_numpy(fn, a)
