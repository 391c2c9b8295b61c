"""`np.arange` with a float argument has NumPy's values, bit for bit: NumPy stores `start` and `start + step`
cast to the dtype and steps by their difference (`np.arange(1, 2, 0.1)[2]` is 1.2000000000000002,
`np.arange(-2.5, 2, dtype=np.int8)` is [-2 … 2]); Numba computed `start + i * step` (runtime/ranges.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import jitted

NUMBERS = st.sampled_from([0.0, 0.1, -0.3, 1.0, 2.5, -2.5, 1e-3, 7.0, 3, -4, 0]) | st.floats(-20, 20)
FORMS = {"stop": "np.arange(x)", "start stop": "np.arange(x, y)", "step": "np.arange(x, y, s)",
         "int8": "np.arange(x, y, s, dtype=np.int8)", "float32": "np.arange(x, y, s, dtype=np.float32)",
         "int64 by position": "np.arange(x, y, s, np.int64)"}


@pytest.mark.parametrize("form", FORMS.values(), ids=FORMS.keys())
@settings(max_examples=25, deadline=None)
@given(x=NUMBERS, y=NUMBERS, s=NUMBERS.filter(lambda v: v == 0 or abs(v) > 0.05))
def test_arange_values_are_numpys(form, x, y, s):
    fn = jitted(f"def f(x, y, s):\n    return {form}\n")
    try:
        expected = fn.py_func(x, y, s)
    except (ZeroDivisionError, ValueError) as exc:  # a zero step: NumPy's error (float or int form)
        with pytest.raises(type(exc)):
            fn(x, y, s)
        return
    got = fn(x, y, s)
    assert (type(got), got.dtype, got.shape) == (type(expected), expected.dtype, expected.shape), (x, y, s)
    assert np.array_equal(got, expected), (x, y, s, got, expected)
