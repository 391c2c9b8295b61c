"""NumPy functions Numba computes in float64 and returns in float64 — `np.std`, `np.var`, `np.median`,
`np.average`, the nan- forms, `np.percentile`, `np.quantile` of float32 arrays; `np.ptp` of any integer array
(Numba's ptp of uint8 was a float) — come back in NumPy's dtype; `np.ptp`/`np.percentile` of bools are NumPy's
TypeError (Numba's ptp failed to type, its percentile gave a number); `np.float32(array)` is a cast (Numba has
none). Found by a scan of NumPy calls against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted

CALLS = ["np.std(x)", "np.var(x)", "x.std()", "x.var()", "np.median(x)", "np.average(x)", "np.nanstd(x)",
         "np.nanvar(x)", "np.nanmedian(x)", "np.percentile(x, 30)", "np.quantile(x, 0.7)", "np.ptp(x)",
         "np.float32(x)", "np.int16(x)", "np.uint8(x)", "np.bool_(x)", "np.float64(x) + 1"]
DTYPES = ["float32", "float64", "int8", "int32", "uint8", "bool"]


def values(dtype: str) -> st.SearchStrategy:
    """Small magnitudes: NumPy's own int8 percentile wraps its differences (a NumPy quirk, not ours)."""
    if dtype == "bool":
        return st.booleans()
    if dtype.startswith(("int", "uint")):
        return st.integers(0 if dtype.startswith("u") else -60, 60)
    return st.floats(-1e3, 1e3, width=np.dtype(dtype).itemsize * 8)


@pytest.mark.parametrize("call", CALLS)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_result_in_numpys_dtype(call, data):
    f = jitted(f"def f(x):\n    return {call}\n")
    first, other = data.draw(st.sampled_from(DTYPES)), data.draw(st.sampled_from(DTYPES))
    for dtype in (first, first, other):  # first call, guard hit, guard miss
        size = data.draw(st.integers(1, 7))
        x = data.draw(arrays(dtype, (size,), values=values(dtype)))
        assert_like_numpy(f, x, reduced=x)
