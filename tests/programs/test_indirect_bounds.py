"""A loop reading or writing `a[idx[i]]` runs an unchecked copy when every value of `idx` it may read is in
0 … len(a)-1 and nothing it writes shares memory with `idx` (lower/indirect.py); otherwise the checked copy,
which wraps negative values and raises NumPy's IndexError at the failing iteration, as CPython does."""

from __future__ import annotations

import itertools

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.runtime.checks import within


def gather(a, idx, out):
    for i in range(len(idx)):
        out[i] = a[idx[i]]
    return out


def scatter(a, idx, out):
    for i in range(len(idx)):
        out[idx[i]] = a[i]
    return out


def gather_sum(a, idx, start, out):
    for i in range(start, len(idx), 2):
        out[0] += a[idx[i]]
    return out


def backwards(a, idx, out):
    for i in range(len(idx) - 1, -1, -1):
        out[i] = a[idx[i]]
    return out


def gather_rows(m, idx, out):
    for i in range(len(idx)):
        for j in range(m.shape[1]):
            out[i, j] = m[idx[i], j]
    return out


def until_negative(a, idx, out):
    for i in range(len(idx)):
        if idx[i] < 0:
            break
        out[0] += a[idx[i]]
    return out


JITTED = {f: cuvil.jit(f, dynamic=True) for f in (gather, scatter, gather_sum, backwards, gather_rows, until_negative)}


def _outcome(fn, make):
    """`make()` builds fresh arguments for each run (aliasing ones alias again)."""
    args = make()
    try:
        return fn(*args), args, None
    except IndexError as exc:
        return None, args, (type(exc), str(exc))


def _same(fn, make):
    """CPython's result (value, dtype, arguments after the call) or its exception, type and message."""
    value, after, error = _outcome(fn, make)
    got, got_after, got_error = _outcome(JITTED[fn], make)
    assert got_error == error
    if error is None:
        assert type(got) is type(value) and np.array_equal(got, value)
        assert getattr(got, "dtype", None) == getattr(value, "dtype", None)
    for x, y in zip(after, got_after):
        if isinstance(x, np.ndarray):
            assert y.dtype == x.dtype and np.array_equal(y, x)


INDICES = st.lists(st.integers(-9, 9), max_size=7)


@settings(max_examples=40, deadline=None)
@given(size=st.integers(0, 6), values=INDICES, start=st.integers(-3, 3))
def test_indirect_indices_read_and_write_as_python(size, values, start):
    idx = np.array(values, np.int64)
    a = np.arange(size, dtype=np.float64) + 0.5
    for x in (a, a, a.astype(np.float32)):  # first call, guard hit, guard miss
        _same(gather, lambda x=x: (x, idx, np.zeros(len(idx), x.dtype)))
        _same(scatter, lambda x=x: (np.arange(len(idx), dtype=x.dtype), idx, x.copy()))
        _same(gather_sum, lambda x=x: (x, idx, start, np.zeros(1, x.dtype)))
        _same(until_negative, lambda x=x: (x, idx, np.zeros(1, x.dtype)))
    _same(gather, lambda: (a, idx.astype(np.int32), np.zeros(len(idx))))
    _same(backwards, lambda: (a, idx, np.zeros(len(idx))))
    if min(values, default=0) >= 0:
        _same(gather, lambda: (a, idx.astype(np.uint32), np.zeros(len(idx))))
    _same(gather_rows, lambda: (np.arange(size * 2.0).reshape(size, 2), idx, np.zeros((len(idx), 2))))


def test_out_of_bounds_values_raise_numpys_error():
    a = np.arange(3.0)
    for bad, shown in ((3, "3"), (-4, "-4"), (2**40, str(2**40))):
        idx = np.array([0, 2, -1, bad])
        for _ in range(2):
            _, _, error = _outcome(JITTED[gather], lambda idx=idx: (a, idx, np.zeros(4)))
            assert error == (IndexError, f"index {shown} is out of bounds for axis 0 with size 3")
    assert JITTED[gather](a, np.array([0, -1, -3]), np.zeros(3)).tolist() == [0.0, 2.0, 0.0]  # wrapped


def test_idx_that_the_loop_writes_is_read_as_written():
    """`idx` a view of `out`, shifted by one: each iteration's index is the value the previous one wrote, so
    a test of `idx` before the loop proves nothing (here: all 0 before, 5 after the first write)."""
    def shifted(kind):
        buf = np.zeros(5, kind)
        return np.array([5, 1, 1], kind), buf[:-1], buf[1:]

    for kind in (np.int64, np.int64, np.int32):  # first call, guard hit, guard miss
        _, _, error = _outcome(gather, lambda kind=kind: shifted(kind))
        assert error == (IndexError, "index 5 is out of bounds for axis 0 with size 3")
        _same(gather, lambda kind=kind: shifted(kind))

    def same(kind):
        idx = np.array([1, 2, 0, 1], kind)
        return np.array([2, 0, 1, 3], kind), idx, idx  # idx is out: each write changes a later read's index

    for kind in (np.int64, np.int64, np.int32):
        _same(gather, lambda kind=kind: same(kind))
        _same(scatter, lambda kind=kind: same(kind))


def test_the_loop_is_copied_once_checked_once_not():
    jitted = cuvil.jit(gather)  # its own: the first variant (static lengths: out[i] is in bounds by them)
    jitted(np.arange(3.0), np.array([0, 1]), np.zeros(2))
    kernel = jitted.source("kernel")
    assert kernel.count("for i in range(") == 2 and kernel.count("index(idx[i], a.shape[0], 0, at=20)") == 1
    assert "if within(idx, 0, " in kernel and "not overlaps(idx, out)" in kernel
    unchecked = cuvil.jit(gather, boundscheck=False)
    unchecked(np.arange(3.0), np.array([0, 1]), np.zeros(2))
    assert "within(" not in unchecked.source("kernel")


@numba.njit
def _within(idx, start, stop, step, n):
    return within(idx, start, stop, step, n)


@settings(max_examples=15, deadline=None)
@given(values=INDICES, n=st.integers(0, 6))
def test_the_compiled_test_is_its_python_meaning(values, n):
    """True only when every idx[v] of the range is in 0 … n-1 (and v inside idx, not crossing from negative
    positions to non-negative ones); the loop's checked copy answers every other case. Every range over
    -7 … 7 with steps ±1, ±2."""
    idx = np.array(values, np.int64)
    for start, stop, step in itertools.product(range(-7, 8), range(-7, 8), (-2, -1, 1, 2)):
        expected = within(idx, start, stop, step, n)
        assert _within(idx, start, stop, step, n) is expected, (start, stop, step)
        if expected:
            assert all(0 <= idx[v] < n for v in range(start, stop, step))
