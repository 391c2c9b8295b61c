"""`np.any`/`np.all` (and the methods), whole or along an axis, with `keepdims`, are lowered like the other
reductions and give NumPy's bools: NaN is true, an empty any is False and an empty all True. Along an axis they
were Numba's "got an unexpected keyword argument 'axis'" (found by a random-expression hunt)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted

CALLS = ["np.any(x)", "np.all(x > 0)", "np.any(x, axis=0)", "np.all(x, axis=-1)", "x.any(axis=1, keepdims=True)",
         "x.all(axis=0, keepdims=True)"]


@pytest.mark.filterwarnings("error::cuvil.PerformanceWarning")  # lowered, not Numba's code as written
@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("call", CALLS)
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_any_and_all_are_numpys(call, parallel, data):
    f = jitted(f"def f(x):\n    return {call}\n", parallel=parallel)
    dtype = data.draw(st.sampled_from(["bool", "int8", "float32"]))
    rows, cols = data.draw(st.integers(0, 3)), data.draw(st.integers(1, 4))
    values = st.sampled_from([0.0, -0.0, 1.0, np.nan]) if dtype == "float32" else None
    x = data.draw(arrays(dtype, (rows, cols), values=values))
    other = x.astype(np.float64) if dtype != "float32" else np.nan_to_num(x).astype(np.int8)
    for args in (x, x[::-1], other):  # first call, guard hit, guard miss
        assert_like_numpy(f, args)
    if "axis" in call:
        assert "_acc" in f.source()  # a lowered reduction, not Numba's np.any
