"""Reductions along an axis that is not the last (lower/across.py): a row of accumulators updated one input row
at a time, and under `parallel=True` chunks of rows whose accumulators are combined after the loop. NumPy's
answer for every reduction the lowering takes (sum prod mean max min any all; var and std in two passes; argmax
and argmin), 2-D to 4-D, keepdims, a NaN in any chunk, integers and bools, an empty reduced axis; serial and
parallel; the first call, a guard hit and a guard miss; static and dynamic dims; rows from 0 to past the chunk
count (16), so chunks of one row, of several, and chunks past the end that hold none."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define
from tests.lower.compare import assert_like_numpy, jitted, seeded_array

FLOATS = """
def floats(a):
    r0 = np.sum(a, axis=0)
    r1 = a.mean(axis=0, keepdims=True)
    r2 = np.max(a, axis=0)
    r3 = a.min(axis=-2)
    r4 = np.prod(a, axis=0)
    return r0, r1, r2, r3, r4
"""
LOGICAL = """
def logical(a):
    r0 = np.any(a, axis=0)
    r1 = np.all(a, axis=0, keepdims=True)
    r2 = a.max(axis=0)
    r3 = np.min(a, axis=0)
    r4 = a.sum(axis=0)
    return r0, r1, r2, r3, r4
"""
MIDDLE = """
def middle(a):
    r0 = np.sum(a, axis=1)
    r4 = a.std(axis=1)
    r5 = a.argmax(axis=1)
    r1 = a.max(axis=1, keepdims=True)
    r2 = np.mean(a, axis=0)
    r3 = a.min(axis=-2)
    return r0, r1, r2, r3, r4, r5
"""
SPREAD = """
def spread(a):
    r0 = np.var(a, axis=0)
    r1 = a.std(axis=0, ddof=1, keepdims=True)
    r2 = a.var(axis=-1, ddof=2)
    r3 = np.std(a, axis=1, keepdims=True)
    r4 = np.var(a, 0, ddof=-1)
    return r0, r1, r2, r3, r4
"""
POSITIONS = """
def positions(a):
    r0 = np.argmax(a, axis=0)
    r1 = a.argmin(axis=0)
    r2 = np.argmax(a, axis=-1, keepdims=True)
    r3 = a.argmin(1)
    return r0, r1, r2, r3
"""
STANDARDISED = """
def standardised(x):
    return (x - x.mean(axis=0)) / (x.max(axis=0) - x.min(axis=0) + 1)
"""
SIDES = st.integers(0, 40)


def _rows(data, ndim: int, dtype: str) -> np.ndarray:
    shape = (data.draw(SIDES, label="rows"), *(data.draw(st.integers(0, 5), label="dim") for _ in range(ndim - 1)))
    return seeded_array(data, dtype, shape)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@settings(max_examples=25)
@given(data=st.data())
def test_floats_along_the_first_axis(parallel, dtype, data):
    """A NaN lands in a drawn row half the time: whichever chunk holds it, the max and min are NaN there."""
    a = _rows(data, 2, dtype)
    assert_like_numpy(jitted(FLOATS, dynamic=True, parallel=parallel), a, reduced=a)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8", "bool"])
@settings(max_examples=20)
@given(data=st.data())
def test_integers_and_bools_along_the_first_axis(parallel, dtype, data):
    rows, cols = data.draw(SIDES, label="rows"), data.draw(st.integers(0, 5), label="cols")
    a = seeded_array(data, dtype, (rows, cols), full_range=True)
    assert_like_numpy(jitted(LOGICAL, dynamic=True, parallel=parallel), a)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "bool"])
@settings(max_examples=20)
@given(data=st.data())
def test_var_and_std_in_two_passes(parallel, dtype, data):
    """NumPy's var and std along either axis, ddof 0, 1, 2 and -1: nan for no rows, inf or nan where the
    divisor n - ddof is 0 or less, float32 for float32, float64 for integers and bools."""
    a = _rows(data, 2, dtype) if dtype.startswith("float") else seeded_array(
        data, dtype, (data.draw(SIDES, label="rows"), data.draw(st.integers(0, 5), label="cols")))
    assert_like_numpy(jitted(SPREAD, dynamic=True, parallel=parallel), a, reduced=a.astype(np.float64) ** 2)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint64", "bool"])
@settings(max_examples=20)
@given(data=st.data())
def test_argmax_and_argmin(parallel, dtype, data):
    """The first index of the extreme; of the first NaN where there is one (a NaN half the time, ±inf drawn
    in, several equal extremes among few distinct values); NumPy's ValueError for an empty axis."""
    rows, cols = data.draw(SIDES, label="rows"), data.draw(st.integers(0, 5), label="cols")
    a = seeded_array(data, dtype, (rows, cols), scale=1.5, full_range=data.draw(st.booleans(), label="full"))
    if a.dtype.kind == "f" and a.size:
        a.flat[data.draw(st.integers(0, a.size - 1), label="at")] = data.draw(st.sampled_from([np.inf, -np.inf]))
    assert_like_numpy(jitted(POSITIONS, dynamic=True, parallel=parallel), a)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("ndim", [3, 4])
@settings(max_examples=20)
@given(data=st.data())
def test_three_and_four_dimensions(parallel, ndim, data):
    """Axis 1: the first axis is kept, each of its indices has lanes of its own; axis 0: chunks of rows."""
    a = _rows(data, ndim, "float64")
    assert_like_numpy(jitted(MIDDLE, dynamic=True, parallel=parallel), a, reduced=a)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_empty_reduced_axis(parallel):
    """No rows: NumPy's sum is 0, its mean nan, its max a ValueError (raised before any lane is touched)."""
    fn = jitted(FLOATS, dynamic=True, parallel=parallel)
    assert_like_numpy(fn, np.zeros((0, 3)))
    total = cuvil.jit(define("def total(a):\n    return a.sum(axis=0), a.mean(axis=0)\n", env={"np": np}),
                      parallel=parallel)
    with np.errstate(invalid="ignore"):
        assert_like_numpy(total, np.zeros((0, 3), np.float32))


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_first_call_guard_hit_guard_miss(parallel):
    """Static dims first (a 40 x 3 array), the same shape again (no recompile), then other row and column counts
    (one recompile, after which the dims are dynamic); transposed and sliced operands, not C-ordered, too."""
    fn = cuvil.jit(define(STANDARDISED, env={"np": np}), parallel=parallel)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((40, 3)).astype(np.float32)
    assert_like_numpy(fn, x, reduced=x)
    assert_like_numpy(fn, x[::-1].copy(), reduced=x)
    assert len(fn.compile_events) == 1
    y = rng.standard_normal((17, 5)).astype(np.float32)
    assert_like_numpy(fn, y, reduced=y)
    assert len(fn.compile_events) == 2
    for z in (rng.standard_normal((6, 33)).astype(np.float32), np.zeros((1, 2), np.float32)):
        assert_like_numpy(fn, z, reduced=z)
    assert len(fn.compile_events) == 2
    w = rng.standard_normal((5, 41)).astype(np.float32)
    for view in (w.T, w[:, ::3], w.T[::2]):
        assert_like_numpy(fn, view, reduced=view)


def test_serial_sum_adds_each_lane_in_row_order():
    """One chunk: each column is added top to bottom, as a Python loop over the rows does (exact, float64)."""
    fn = cuvil.jit(define("def column_sums(a):\n    return a.sum(axis=0)\n", env={"np": np}))
    a = np.random.default_rng(3).standard_normal((1000, 7)) * 10.0 ** np.arange(-3, 4)
    expected = np.zeros(7)
    for row in a:
        expected = expected + row
    np.testing.assert_array_equal(fn(a), expected)


@settings(max_examples=25)
@given(data=st.data())
def test_float32_column_sums_and_means_are_numpys_bits(data):
    """Along a leading axis NumPy adds the rows in order in float32 (its pairwise sum is only along the contiguous
    axis; with one column the reduction is contiguous and it is used): serial code does the same, bit for bit."""
    rows, cols = data.draw(st.integers(1, 300), label="rows"), data.draw(st.integers(2, 40), label="cols")
    scale = 10.0 ** data.draw(st.integers(-3, 6), label="exponent")
    x = seeded_array(data, "float32", (rows, cols), scale=scale)
    fn = jitted("def column_stats(a):\n    return a.sum(axis=0), np.mean(a, axis=0)\n")
    for got, want in zip(fn(x), fn.py_func(x), strict=True):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
