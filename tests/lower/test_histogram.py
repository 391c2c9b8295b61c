"""`np.histogram` is NumPy's (runtime/histograms.py): counts and edges of NumPy's dtype and values for every dtype,
equal bins with and without a range, edges given, constant data, empty data, values on the edges, NaN and inf
(NumPy's ValueError in an autodetected range). Numba's put nothing in the bins of constant data, took NaN into
the range, failed on an empty array and gave float64 edges for float32 data."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import assert_like_numpy, jitted

pytestmark = pytest.mark.filterwarnings("error::cuvil.PerformanceWarning")  # lowered, not Numba's code as written
DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float32", "float64"]
FORMS = ["np.histogram(a)", "np.histogram(a, n)", "np.histogram(a, n, (lo, hi))", "np.histogram(a, bins=n)",
         "np.histogram(a, edges)", "np.histogram(a, n, range=(lo, hi))"]


@st.composite
def data(draw, dtype: str) -> np.ndarray:
    """Values of `dtype` that land on edges: small integers and tenths (a third of them, or all, alike), NaN and
    ±inf among floats, empty arrays."""
    kind = np.dtype(dtype).kind
    size = draw(st.integers(0, 12))
    if kind == "b":
        return np.array(draw(st.lists(st.booleans(), min_size=size, max_size=size)), bool)
    if kind in "iu":
        info = np.iinfo(dtype)
        values = st.integers(max(-20, int(info.min)), min(20, int(info.max))) | st.sampled_from(
            [int(info.min), int(info.max)])
        return np.array(draw(st.lists(values, min_size=size, max_size=size)), dtype)
    values = st.integers(-30, 30).map(lambda k: k / 10) | st.sampled_from([np.nan, np.inf, -np.inf, 0.0, -0.0])
    if draw(st.booleans()):
        values = st.integers(-30, 30).map(lambda k: k / 10)
    return np.array(draw(st.lists(values, min_size=size, max_size=size)), dtype)


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(DTYPES), draw=st.data())
def test_histogram_is_numpys(form: str, dtype: str, draw: st.DataObject) -> None:
    a = draw.draw(data(dtype), label="a")
    if draw.draw(st.booleans(), label="constant") and a.size:
        a = np.full(a.size, a[0], a.dtype)
    n = draw.draw(st.integers(0, 7), label="n")
    lo = draw.draw(st.sampled_from([0.0, -1.5, 0.1, 2.0, -np.inf, np.nan]), label="lo")
    hi = draw.draw(st.sampled_from([1.0, 3.0, 0.3, 2.0, np.inf]), label="hi")
    edges = np.array(draw.draw(st.lists(st.integers(-30, 30).map(lambda k: k / 10), min_size=1, max_size=6)))
    if draw.draw(st.booleans(), label="sorted edges"):
        edges = np.sort(edges)
    fn = jitted(f"def f(a, n, lo, hi, edges):\n    return {form}\n")
    assert_like_numpy(fn, a, n, lo, hi, edges)


def test_histogram_of_a_2d_array_counts_every_element() -> None:
    fn = jitted("def f(a):\n    return np.histogram(a, 4)\n")
    assert_like_numpy(fn, np.arange(12.0).reshape(3, 4))
