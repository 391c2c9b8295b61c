"""max/min of integer arrays start from the dtype's extreme: for int64 that is -2**63, which the generated code
wrote as `-9223372036854775808`, a Python int literal beyond int64 that the overflow checks (rightly) refused to
negate: `np.max(int64_array)` raised OverflowError under the default `overflow="raise"`. Every integer dtype,
whole and along an axis, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted

DTYPES = ["int8", "uint8", "int32", "int64", "uint64"]


@pytest.mark.parametrize("call", ["np.max(x)", "np.min(x)", "x.max(axis=0)", "np.min(x, axis=-1)",
                                  "np.max(x, axis=1, keepdims=True)"])
@pytest.mark.parametrize("overflow", ["raise", "wrap"])
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_integer_max_and_min_are_numpys(call, overflow, data):
    f = jitted(f"def f(x):\n    return {call}\n", overflow=overflow)
    dtype = data.draw(st.sampled_from(DTYPES))
    info = np.iinfo(dtype)
    values = st.sampled_from([int(info.min), int(info.max), 0, 1]) | st.integers(int(info.min), int(info.max))
    x = data.draw(arrays(dtype, (data.draw(st.integers(1, 3)), 2), values=values))
    other = x.astype(np.int64) if dtype != "int64" else x.astype(np.int32)
    for args in (x, x[::-1], other):  # first call, guard hit, guard miss
        assert_like_numpy(f, args)
