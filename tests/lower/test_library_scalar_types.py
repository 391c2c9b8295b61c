"""Library calls that return one number give NumPy's type: Numba computes `np.trace`, `np.linalg.norm`,
`np.linalg.det` and `np.nanmean` of float32 in float32 or float64 and returns a float64 (a Python float), where
NumPy returns an np.float32; `np.max` of a complex array crashed the lowering (a CuvilInternalError, "Invalid
integer data type 'c'"): NumPy orders complex numbers by real part, then imaginary, and Numba's own max does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import assert_like_numpy, jitted

pytestmark = pytest.mark.filterwarnings("error::cuvil.PerformanceWarning")
CALLS = ["np.trace(a)", "np.linalg.norm(a)", "np.linalg.det(a)", "np.nanmean(a)", "np.max(a)", "a.min()"]
DTYPES = ["float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("call", CALLS)
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_one_number_in_numpys_type(call, data):
    fn = jitted(f"def f(a):\n    return {call}\n")
    first = data.draw(st.sampled_from(DTYPES))
    for dtype in (first, first, data.draw(st.sampled_from(DTYPES))):  # first call, guard hit, guard miss
        parts = st.lists(st.integers(-3, 3), min_size=18, max_size=18)
        re, im = np.array(data.draw(parts)), np.array(data.draw(parts))
        a = (re + 1j * im if dtype.startswith("complex") else re).astype(dtype)[:9].reshape(3, 3)
        assert_like_numpy(fn, a)
