"""Sums along an axis are reordered for speed (runtime/reorder.py); sums the user wrote as loops are not.

`np.sum(x, axis=k)` and `np.mean` promise no order of additions, so their per-row loop may keep many partial
sums (an `fadd reassoc`); the answer must still be NumPy's within the float dtype's rounding, with NumPy's dtype
and shape, serial and parallel, on first call, guard hit and guard miss. A loop `s += v` the user wrote keeps
Python's order exactly: the reordering is for NumPy's sums only.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define
from tests.lower.compare import arrays, jitted

AXIS_SUMS = """
def axis_sums(x):
    return np.sum(x, axis=1), np.mean(x, axis=0, keepdims=True)
"""


def _close_to_exact(got: np.ndarray, rows: np.ndarray, dtype: np.dtype, slack: float = 1e-300,
                    accumulated: str = "float64") -> None:
    """Within one rounding of the result dtype (plus the accumulation error of a sum in `accumulated`, and
    `slack`: a mean's rounding into the subnormals, scaled back up) of the exact sum."""
    exact = np.array([math.fsum(r) for r in rows.astype(np.float64)])
    magnitude = np.abs(rows.astype(np.float64)).sum(axis=1)
    bound = np.finfo(dtype).eps * np.abs(exact) + rows.shape[1] * np.finfo(accumulated).eps * magnitude + slack
    assert np.all(np.abs(got.astype(np.float64) - exact) <= bound), (got, exact)


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_axis_sums_are_numpys_within_one_rounding(dtype, parallel, data):
    fn = jitted(AXIS_SUMS, parallel=parallel)
    for rows in (3, 3, 40):  # first call, guard hit, guard miss
        cols = data.draw(st.integers(0, 70), label="cols")
        x = data.draw(arrays(dtype, (rows, cols), special=False), label="x")
        got_sum, got_mean = fn(x)
        want_sum, want_mean = x.sum(axis=1), x.mean(axis=0, keepdims=True)
        assert (got_sum.dtype, got_sum.shape) == (want_sum.dtype, want_sum.shape)
        assert (got_mean.dtype, got_mean.shape) == (want_mean.dtype, want_mean.shape)
        _close_to_exact(got_sum, x, np.dtype(dtype))
        # the mean of each column as NumPy's along axis 0: the rows added in order in the dtype (lower/across.py;
        # NumPy's bits where it does so too, float32 serial), so within that sum's error of the exact one
        _close_to_exact(got_mean[0].astype(np.float64) * rows, x.T, np.dtype(dtype),
                        slack=rows * float(np.finfo(dtype).smallest_subnormal), accumulated=dtype)
        if dtype == "float32" and not parallel and cols > 1:
            np.testing.assert_array_equal(got_mean, want_mean)


def test_axis_and_whole_sums_are_printed_as_any_order_updates():
    """Outside a parallel loop both vectorize: NumPy's own sums are pairwise, not in order, so no bits are lost."""
    fn = jitted("def both(x):\n    return np.sum(x, axis=1), np.sum(x)\n")
    x = np.ones((4, 9))
    assert [a.tolist() for a in np.atleast_1d(*fn(x))] == [[9.0] * 4, [36.0]]
    source = fn.source()
    assert source.count("add_any_order(") == 2 and "+= " not in source, source


@pytest.mark.parametrize("parallel", [False, True])
def test_a_loop_the_user_wrote_keeps_pythons_order(parallel):
    """1e16 + 1 - 1e16 is 0 in order and 1 reordered: the user's loop must give Python's 0.0 at every row."""
    fn = cuvil.jit(define("""
def row_totals(x):
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        s = 0.0
        for j in range(x.shape[1]):
            s += x[i, j]
        out[i] = s
    return out
""", env={"np": np}), parallel=parallel)
    for rows in (2, 2, 5):
        x = np.tile(np.array([1e16, 1.0, -1e16, 1.0] * 8), (rows, 1))
        want = fn.py_func(x)
        got = fn(x)
        assert got.dtype == want.dtype and got.tolist() == want.tolist() == [1.0] * rows
