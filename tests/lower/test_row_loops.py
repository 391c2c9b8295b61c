"""Loops over the rows or columns of a 2-D array, spelled as users spell them (lower/row_loops.py): the body
computed over whole arrays when run time allows, the loop as written otherwise. NumPy's answer either way:
float, integer and bool rows; a NaN in a row; no rows, no columns; rows on both sides of the static-dim
threshold (16); the first call, a guard hit and a guard miss; serial and parallel; an `out` of the wrong
shape (Python's IndexError after the rows it wrote), an `out` that is the input or overlaps it. Where the
dims are dynamic and the arrays fit, `explain` must show the whole-array branch was taken."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import assert_like_numpy, jitted, outcome, seeded_array

SOFTMAX = """
def softmax(X, out):
    for i in range(X.shape[0]):
        row = X[i]
        e = np.exp(row - row.max())
        out[i] = e / e.sum()
    return out
"""
LAYER_NORM = """
def layer_norm(X, gamma, beta, out, eps):
    for i, row in enumerate(X):
        m = row.mean()
        v = ((row - m) ** 2).mean()
        out[i] = (row - m) / np.sqrt(v + eps) * gamma + beta
    return out
"""
COLUMNS = """
def columns(x, out):
    for j in range(x.shape[1]):
        c = x[:, j]
        out[:, j] = (c - c.mean()) / (c.std(ddof=1) + 1.0)
    return out
"""
PER_ROW = """
def per_row(X, where, total, spread):
    for i in range(len(X)):
        where[i] = np.argmax(X[i])
        total[i] = X[i].sum()
        spread[i] = np.var(X[i])
    return where, total, spread
"""
IN_PLACE = """
def in_place(X):
    for i in range(X.shape[0]):
        X[i] = X[i] / (np.abs(X[i]).sum() + 1.0)
    return X
"""
INTEGERS = """
def integers(X, out):
    for i in range(X.shape[0]):
        row = X[i]
        low = row.min()
        out[i] = np.where(row > low, row - low, 0)
        out[i] *= 2
    return out
"""
READ_AFTER = """
def read_after(X, out):
    m = 0.0
    for i in range(X.shape[0]):
        m = X[i].max()
        out[i] = X[i] - m
    return out, m
"""
ROWS = st.integers(0, 40)  # 16 and fewer: static dims, the loop as written; more: dynamic


def _matrix(data, dtype: str = "float64", cols: tuple[int, int] = (0, 6)) -> np.ndarray:
    shape = (data.draw(ROWS, label="rows"), data.draw(st.integers(*cols), label="cols"))
    return seeded_array(data, dtype, shape)


def _whole(fn) -> bool:
    """Whether the newest variant (listed first) computes a loop over whole rows."""
    return any("over whole rows" in word for word in fn.loops()[0])


def _check_taken(fn, X) -> None:
    if X.shape[0] > 16 and X.shape[1] > 16:  # every dim dynamic: nothing to specialize the loop away
        assert _whole(fn), fn.loops()


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@settings(max_examples=25)
@given(data=st.data())
def test_softmax_per_row(parallel, dtype, data):
    X = _matrix(data, dtype, (0, 40))
    fn = jitted(SOFTMAX, parallel=parallel)
    assert_like_numpy(fn, X, np.empty_like(X))
    _check_taken(fn, X)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@settings(max_examples=25)
@given(data=st.data())
def test_layer_norm_with_weights_across_the_row(parallel, data):
    """gamma and beta are 1-D arrays along the row; eps a Python float."""
    X = _matrix(data, "float32", (0, 40))
    gamma = seeded_array(data, "float32", (X.shape[1],), scale=1.0)
    beta = seeded_array(data, "float32", (X.shape[1],), scale=1.0)
    fn = jitted(LAYER_NORM, parallel=parallel)
    assert_like_numpy(fn, X, gamma, beta, np.empty_like(X), 1e-5, reduced=X)
    _check_taken(fn, X)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@settings(max_examples=25)
@given(data=st.data())
def test_column_standardisation(parallel, dtype, data):
    x = _matrix(data, dtype, (0, 40))
    fn = jitted(COLUMNS, parallel=parallel)
    assert_like_numpy(fn, x, np.empty_like(x), reduced=x)
    _check_taken(fn, x)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("dtype", ["float64", "int16", "uint8", "bool"])
@settings(max_examples=20)
@given(data=st.data())
def test_one_value_per_row(parallel, dtype, data):
    """argmax (the first extreme, the first NaN), a sum and a variance per row, stored into 1-D arrays."""
    X = _matrix(data, dtype, (0, 40))
    n = X.shape[0]
    total_dtype = np.float64 if dtype == "float64" else np.int64
    fn = jitted(PER_ROW, parallel=parallel)
    assert_like_numpy(fn, X, np.zeros(n, np.int64), np.zeros(n, total_dtype), np.zeros(n), reduced=X)
    _check_taken(fn, X)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@settings(max_examples=20)
@given(data=st.data())
def test_rows_updated_in_place(parallel, data):
    X = _matrix(data, "float64", (0, 40))
    fn = jitted(IN_PLACE, parallel=parallel)
    assert_like_numpy(fn, X, reduced=X)
    _check_taken(fn, X)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16"])
@settings(max_examples=20)
@given(data=st.data())
def test_integer_rows_wrap_as_numpy(parallel, dtype, data):
    rows, cols = data.draw(ROWS, label="rows"), data.draw(st.integers(0, 40), label="cols")
    X = seeded_array(data, dtype, (rows, cols), full_range=True)
    fn = jitted(INTEGERS, parallel=parallel)
    assert_like_numpy(fn, X, np.empty_like(X))
    _check_taken(fn, X)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_three_calls_hit_and_miss(parallel):
    """First call, the same shapes (a guard hit: no compile), new dims on both sides of the threshold and a
    new dtype (misses), then each again (hits)."""
    fn = jitted(SOFTMAX.replace("softmax", "softmax_calls"), parallel=parallel)
    rng = np.random.default_rng(7)
    cases = [((40, 33), np.float64), ((25, 3), np.float64), ((3, 25), np.float64), ((50, 20), np.float32)]
    for k, (shape, dtype) in enumerate(cases):
        X = rng.standard_normal(shape).astype(dtype)
        assert_like_numpy(fn, X, np.empty_like(X))
        if k == 0:
            assert len(fn.compile_events) == 1 and _whole(fn)
            assert_like_numpy(fn, X, np.empty_like(X))
            assert len(fn.compile_events) == 1
    compiled = len(fn.compile_events)
    for shape, dtype in cases:
        X = rng.standard_normal(shape).astype(dtype)
        assert_like_numpy(fn, X, np.empty_like(X))
    assert len(fn.compile_events) == compiled


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_out_of_the_wrong_shape_raises_as_python(parallel):
    """Fewer rows in `out`: Python writes the rows it has, then raises IndexError at the store; a row of
    another length: NumPy's broadcast ValueError before anything is written."""
    fn = jitted(SOFTMAX.replace("softmax", "softmax_short"), parallel=parallel)
    X = np.random.default_rng(1).standard_normal((30, 20))
    for out in (np.zeros((29, 20)), np.zeros((30, 19))):
        expected_out, got_out = out.copy(), out.copy()
        expected, got = outcome(fn.py_func, X, expected_out), outcome(fn, X, got_out)
        assert got[0] == expected[0] == "raise" and got[1][0] is expected[1][0], (expected, got)
        if expected[1][0] is IndexError:
            assert got[1] == expected[1]
    short, reference = np.zeros((29, 20)), np.zeros((29, 20))
    with pytest.raises(IndexError):
        fn.py_func(X, reference)
    with pytest.raises(IndexError):
        fn(X, short)
    np.testing.assert_allclose(short, reference, rtol=1e-12)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_out_that_overlaps_the_input(parallel):
    """`out` is the input, or the input shifted by one row: each iteration then reads what the one before it
    wrote, and only the loop as written gives Python's answer."""
    fn = jitted(SOFTMAX.replace("softmax", "softmax_overlap"), parallel=parallel)
    for shift in (0, 1):
        base = np.random.default_rng(2).standard_normal((41, 24))
        reference = base.copy()
        fn.py_func(reference[shift:], reference[:41 - shift] if shift else reference)
        fn(base[shift:], base[:41 - shift] if shift else base)
        np.testing.assert_allclose(base, reference, rtol=1e-12)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_no_rows_and_no_columns(parallel):
    """No rows: nothing runs (no ValueError from a max of nothing); rows of no columns: NumPy's ValueError."""
    fn = jitted(SOFTMAX.replace("softmax", "softmax_empty"), parallel=parallel)
    for shape in [(0, 20), (0, 0), (20, 0), (40, 0)]:
        X = np.zeros(shape)
        assert_like_numpy(fn, X, np.empty_like(X))


def test_a_value_read_after_the_loop_keeps_the_loop():
    """`m` is read after the loop: it must hold the last row's max, so the loop stays as written."""
    fn = jitted(READ_AFTER)
    X = np.random.default_rng(3).standard_normal((30, 20))
    assert_like_numpy(fn, X, np.empty_like(X))
    assert not _whole(fn)


THROUGH_A_NAME = """
def through_a_name(X, Y, out):
    for i in range(X.shape[0]):
        e = X[i]
        e *= 2.0
        out[i] = Y[i] + e.sum()
    return out
"""


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_a_row_changed_through_another_name(parallel):
    """`e = X[i]; e *= 2` writes X: with Y the rows of X one further on, iteration i reads a row the next one
    changes, so only the loop as written gives Python's answer (and it stays as written)."""
    fn = jitted(THROUGH_A_NAME, parallel=parallel)
    base = np.random.default_rng(4).standard_normal((41, 24))
    reference = base.copy()
    expected = fn.py_func(reference[:40], reference[1:], np.zeros((40, 24)))
    got = fn(base[:40], base[1:], np.zeros((40, 24)))
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    np.testing.assert_allclose(base, reference, rtol=1e-12)
    assert not _whole(fn)
