"""NumPy functions given a number instead of an array: `np.cumsum(3)` is the array [3] (Cuvil returned the
number 3), `np.ptp(True)` NumPy's TypeError (Cuvil returned 0). Found by a scan of NumPy calls on Python and
NumPy scalars against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import assert_like_numpy, jitted

CALLS = ["np.cumsum(x)", "np.cumprod(x)", "np.cumsum(x, dtype=np.int16)", "np.cumsum(x, axis=0)", "np.ptp(x)"]
NUMBERS = st.one_of(st.booleans(), st.integers(-50, 50), st.floats(-1e3, 1e3),
                    st.sampled_from([np.float32(1.5), np.int8(-3), np.uint16(7), np.bool_(True), np.float64(-0.0)]))


@pytest.mark.parametrize("call", CALLS)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_numpy_call_of_a_number(call, data):
    f = jitted(f"def f(x):\n    return {call}\n")
    first = data.draw(NUMBERS)
    for x in (first, first, data.draw(NUMBERS)):  # first call, guard hit, and another kind of number
        assert_like_numpy(f, x)
