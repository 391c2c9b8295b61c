"""`np.percentile(a, q)` and `np.quantile(a, q)` of an empty array are NumPy's IndexError: "index -1 is out of
bounds for axis 0 with size 0" for a float array (NumPy reads its last element for a NaN), "index 0 …" for an
integer one (its last where the first q is 0; np.quantile with an integer q: "cannot do a non-empty take from
an empty axes."); a q out of range is NumPy's ValueError first. Numba's failed a bare assertion
(runtime/statistics.py). Arrays with elements keep Numba's values, in NumPy's dtype (an array of q of a float32
array: float32, where the type analysis took a scalar and the lowered code did not compile; a float64 q, an
array or a NumPy scalar, makes it float64)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted, shapes

pytestmark = pytest.mark.filterwarnings("error::cuvil.PerformanceWarning")  # lowered, not Numba's code as written
DTYPES = ["float32", "float64", "int8", "uint8", "int64"]
FORMS = {"np.percentile(a, q)": [0, 50, 100, 150, -1, 37.5], "np.quantile(a, q)": [0.0, 0.5, 1.0, 1.5, -0.1, 0.375]}


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=20, deadline=None)
@given(dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES), ndim=st.integers(1, 2), data=st.data())
def test_percentiles_of_empty_arrays_are_numpys_index_error(form, dtype, other, ndim, data):
    fn = jitted(f"def f(a, q):\n    return {form}\n")
    q = data.draw(st.sampled_from(FORMS[form]), label="q")
    empty = data.draw(shapes(ndim).filter(lambda s: 0 in s), label="empty shape")
    # first call, guard hit, guard miss (another dtype and rank)
    for a in (np.zeros(empty, dtype), data.draw(arrays(dtype, data.draw(shapes(ndim)), special=False)),
              data.draw(arrays(other, data.draw(shapes(3 - ndim)), special=False))):
        assert_like_numpy(fn, a, q, reduced=a)


def test_an_array_of_q_for_an_empty_array():
    fn = jitted("def f(a, q):\n    return np.percentile(a, q), np.quantile(a, q / 100)\n")
    for a in (np.zeros(0), np.zeros((3, 0), np.float32), np.zeros(0, np.int64), np.arange(5.0),
              np.arange(6, dtype=np.float32).reshape(2, 3), np.arange(4, dtype=np.int8)):
        for q in (np.array([10.0, 50.0]), np.array([0.0, 50.0]), np.zeros(0), np.array([0.0, 50.0], np.float32),
                  np.float64(50.0)):  # (a 2-D q: Numba flattens it)
            assert_like_numpy(fn, a, q, reduced=a)


def test_quantile_of_an_empty_integer_array_with_integer_q_takes():
    """(With elements, NumPy's quantile of an integer array at integer q is in the array's dtype, Numba's a
    float64: not compared here.)"""
    fn = jitted("def f(a, q):\n    return np.quantile(a, q)\n")
    for a, q in ((np.zeros(0, np.int8), 0), (np.zeros((2, 0), np.int64), 1), (np.zeros(0, np.uint8), 2),
                 (np.zeros(0, np.int8), np.array([1, 0])), (np.zeros(0), 1), (np.zeros(0, np.int8), 0.0)):
        assert_like_numpy(fn, a, q)


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=15, deadline=None)
@given(dtype=st.sampled_from(["int8", "int16", "int64"]), data=st.data())
def test_percentiles_of_signed_integers_step_in_their_dtype(form, dtype, data):
    """NumPy takes the step between neighbours in the array's dtype, wrapping (np.percentile of int8 [-1, 127]
    at 50 is 191.0); Numba's was the exact step, 63.0 (runtime/statistics._signed)."""
    fn = jitted(f"def f(a, q):\n    return {form}\n")
    info = np.iinfo(dtype)
    extremes = st.sampled_from([int(info.min), int(info.max), -1, 0, 1]) | st.integers(int(info.min), int(info.max))
    scale = 1 if "quantile" in form else 100
    q = data.draw(st.sampled_from([0.25 * scale, 0.5 * scale, 0.375 * scale]) |
                  st.just(np.array([0.0, 0.3, 0.5, 0.9, 1.0]) * scale), label="q")
    for n in (2, 2, 3):  # first call, guard hit, guard miss
        a = np.array(data.draw(st.lists(extremes, min_size=n, max_size=n)), dtype)
        with np.errstate(over="ignore"):
            assert_like_numpy(fn, a, q, reduced=a)
