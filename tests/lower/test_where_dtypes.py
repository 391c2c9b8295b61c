"""`np.where(cond, x, y)` has the dtype NumPy promotes its branches to, Python numbers included: two Python bools
give a bool array (it was int64: the rule promoted them as Python adds them, `True + False`), a Python bool
with a Python int int64, a Python float with a float32 array float32 (NEP 50)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import jitted

BRANCHES = ("True", "False", "2", "-1", "0.5", "np.int8(3)", "np.float32(1.5)", "a", "a.astype(np.float32)",
            "a > 2", "a.astype(np.int8)")


@pytest.mark.parametrize("x", BRANCHES)
@settings(max_examples=4, deadline=None)
@given(y=st.sampled_from(BRANCHES), data=st.data())
def test_where_has_numpys_dtype_and_values(x, y, data):
    fn = jitted(f"def f(a):\n    return np.where(a > 1, {x}, {y})\n")
    for size in (3, 3, 5):  # first call, guard hit, guard miss
        a = np.array(data.draw(st.lists(st.integers(-3, 3), min_size=size, max_size=size)), np.float64)
        expected, got = fn.py_func(a), fn(a)
        assert (type(got), got.dtype, got.shape) == (type(expected), expected.dtype, expected.shape), (x, y)
        assert np.array_equal(got, expected)
