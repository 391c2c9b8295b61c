"""Out-of-bounds indexing raises Python's (NumPy's) IndexError by default (issue 10 §1, lower/checks.py):
reads and writes, negative indices wrapping as in Python, checks hoisted out of loops only where that keeps
Python's answer (a loop that breaks before the bad index raises nothing), the first failing iteration's
error after a parallel loop, and `boundscheck=False` for none."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def read(a, k):
    return a[k]


def write(a, k):
    a[k] = 7.0
    return a


def read_2d(m, i, j):
    return m[i, j] + m[i][j]


def total(a, n):
    s = 0.0
    for i in range(n):
        s += a[i]
    return s


def neighbours(a, n):
    out = np.zeros(n)
    for i in range(n):
        out[i] = a[i - 1] + a[i + 1]
    return out


def backwards(a, start):
    s = 0.0
    for i in range(start, -1, -2):
        s += a[i]
    return s


def until_end(a, n):
    s = 0.0
    for i in range(n):
        if i >= len(a):
            break
        s += a[i]
    return s


def rows(m, n):
    s = 0.0
    for i in range(n):
        for j in range(m.shape[1]):
            s += m[i, j]
    return s


def gather(a, idx, out):
    for i in range(len(idx)):
        out[i] = a[idx[i]]
    return out


def shifted(a, n):
    s = 0.0
    for i in range(n):
        s += a[i + 2]
    return s


def rising(a, start, stop):
    s = 0.0
    for i in range(start, stop, 2):
        s += a[i - 1]
    return s


def falling(a, start, stop):
    s = 0.0
    for i in range(start, stop, -3):
        s += a[i + 1]
    return s


def inner_rising(m, out, start, stop):
    for i in range(m.shape[0]):
        s = 0.0
        for j in range(start, stop, 2):
            s += m[i, j + 1]
        out[i] = s
    return out


def inner_falling(m, out, start, stop):
    for i in range(m.shape[0]):
        s = 0.0
        for j in range(start, stop, -3):
            s += m[i, j - 1]
        out[i] = s
    return out


def counter_moved(a, out):
    s = 0.0
    for i in range(len(out)):
        i += 1  # the body's `i`, not the range's: every access is checked where it is
        out[i - 1] = a[i]
        s += a[i]
    return s


def inner_counter_moved(m):
    s = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            j = j + 1
            s += m[i, j]
    return s


def copy_shift(a, out):
    for i in range(len(out)):
        out[i] = a[i + 1]
    return out


def copy_shift_2d(m, out):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = m[i, j + 1]
    return out


HOISTED = (shifted, rising, falling)
JITTED = {f: cuvil.jit(f) for f in (read, write, read_2d, total, neighbours, backwards, until_end, rows, gather,
                                     counter_moved, inner_counter_moved, *HOISTED)}
STORES = {f: (cuvil.jit(f), cuvil.jit(f, parallel=True)) for f in (copy_shift, copy_shift_2d)}
INNER = {fn: {"serial": cuvil.jit(fn), "parallel": cuvil.jit(fn, parallel=True)}
         for fn in (inner_rising, inner_falling)}


def _same(fn, *args):
    """Compiled three times over (first call, guard hit, a miss on a new length) against CPython."""
    assert_matches(fn, {"cuvil": JITTED[fn]}, *args)


@settings(max_examples=40)
@given(n=st.integers(0, 6), k=st.integers(-9, 9))
def test_index_of_a_1d_array(n, k):
    a = np.arange(float(n))
    _same(read, a, k)
    _same(write, a.copy(), k)


@settings(max_examples=30)
@given(shape=st.tuples(st.integers(0, 4), st.integers(0, 4)), i=st.integers(-5, 5), j=st.integers(-5, 5))
def test_index_of_a_2d_array(shape, i, j):
    _same(read_2d, np.ones(shape), i, j)


@settings(max_examples=30)
@given(size=st.integers(0, 6), n=st.integers(0, 9))
def test_hoisted_loop_checks_raise_as_python(size, n):
    a = np.arange(float(size))
    for fn in (total, neighbours, until_end):
        _same(fn, a, n)
    _same(backwards, a, n - 2)
    _same(rows, np.ones((size, 3)), n)


def _index_error(fn, *args):
    try:
        fn(*args)
    except IndexError as exc:
        return str(exc)
    return None


@settings(max_examples=60)
@given(size=st.integers(0, 6), start=st.integers(-12, 12), stop=st.integers(-12, 12))
def test_a_check_hoisted_out_of_a_loop_names_the_index_python_names(size, start, stop):
    """Tested once before the loop, the error still names the first index out of bounds in the loop's order
    (the loop's checked copy raises it), not the loop's last one: rising and falling ranges, offsets either way,
    first call, guard hit, guard miss (another length)."""
    for fn, args in ((shifted, (stop,)), (rising, (start, stop)), (falling, (start, stop))):
        for length in (size, size, size + 3):
            a = np.arange(float(length))
            assert _index_error(JITTED[fn], a, *args) == _index_error(fn, a, *args)
        assert "outside(" in JITTED[fn].source()  # the hoisted form is the one tested


@settings(max_examples=40)
@given(rows=st.integers(1, 3), size=st.integers(0, 6), start=st.integers(-9, 9), stop=st.integers(-9, 9))
def test_a_check_hoisted_out_of_an_inner_loop_names_the_index_python_names(rows, size, start, stop):
    """The inner loop's test sits in the outer loop's body, and its checked copy there: a parallel outer loop
    records the first failing index (cfg/raising.py) and raises Python's error after the loop."""
    for fn, kinds in INNER.items():
        for kind, jitted in kinds.items():
            for columns in (size, size, size + 2):  # first call, guard hit, guard miss
                m = np.arange(float(rows * columns)).reshape(rows, columns)
                got, want = np.zeros(rows), np.zeros(rows)
                error = _index_error(fn, m, want, start, stop)
                assert _index_error(jitted, m, got, start, stop) == error, (fn.__name__, kind)
                assert error is not None or np.array_equal(got, want), (fn.__name__, kind)
            assert "outside(" in jitted.source(), (fn.__name__, kind)
        assert "parallel" in cuvil.explain(kinds["parallel"]).loops[0][0], fn.__name__


@settings(max_examples=8)
@given(size=st.integers(0, 6), extra=st.integers(-2, 2), rows=st.integers(0, 3))
def test_a_loop_counter_moved_in_the_body_is_checked_where_it_indexes(size, extra, rows):
    """`i += 1` in the body: the range's ends say nothing of the index (a read past the end, a write into the
    next array, before this was checked); serial and parallel, the out-of-bounds one's neighbours in memory
    untouched."""
    for parallel in (False, True):
        jitted = {f: cuvil.jit(f, parallel=parallel) for f in (counter_moved, inner_counter_moved)}
        for length in (size, size, size + 1):
            base, want = np.full(2 * length + 4, -1.0), np.full(2 * length + 4, -1.0)
            a = np.arange(float(length + extra if length + extra >= 0 else 0))
            assert_matches(counter_moved, {"cuvil": jitted[counter_moved]}, a, base[:length])
            counter_moved_error = _index_error(counter_moved, a, want[:length])
            assert _index_error(jitted[counter_moved], a, base[:length]) == counter_moved_error
            assert np.array_equal(base[length:], want[length:])
            assert_matches(inner_counter_moved, {"cuvil": jitted[inner_counter_moved]}, np.ones((rows, length)))


@settings(max_examples=15)
@given(size=st.integers(0, 5), other=st.integers(0, 6))
def test_a_stores_check_comes_after_its_values_as_python_evaluates_them(size, other):
    """`out[i] = a[i + 1]`: both hoisted, Python fails on reading a[i + 1] before it would store out[i]."""
    for jitted in STORES[copy_shift]:
        for length in (size, size, size + 1):
            a, out, want = np.arange(float(other)), np.zeros(length), np.zeros(length)
            assert _index_error(jitted, a, out) == _index_error(copy_shift, a, want)
    for jitted in STORES[copy_shift_2d]:
        m, out, want = np.ones((2, other)), np.zeros((2, size)), np.zeros((2, size))
        assert _index_error(jitted, m, out) == _index_error(copy_shift_2d, m, want)


def test_the_message_is_numpys():
    with pytest.raises(IndexError, match=r"^index 3 is out of bounds for axis 0 with size 3$"):
        JITTED[total](np.ones(3), 4)
    with pytest.raises(IndexError, match=r"^index -4 is out of bounds for axis 0 with size 3$"):
        JITTED[read](np.ones(3), -4)


def test_a_loop_that_breaks_before_the_end_raises_nothing():
    assert JITTED[until_end](np.ones(3), 10) == until_end(np.ones(3), 10) == 3.0
    assert "index(" in JITTED[until_end].source()  # checked where it indexes, not before the loop


@pytest.mark.filterwarnings("error::numba.core.errors.NumbaPerformanceWarning")  # Numba runs it in parallel
@pytest.mark.parametrize("bad", [-11, 10, 2**40])
def test_parallel_gather_raises_the_first_failing_iteration(bad):
    jitted = cuvil.jit(gather, parallel=True)

    def make():
        idx = np.arange(10)
        idx[3], idx[7] = bad, 12
        return np.arange(10.0), idx, np.zeros(10)

    for _ in range(3):
        assert_matches(gather, {"cuvil": jitted}, *make())
    assert "parallel" in cuvil.explain(jitted).loops[0][0]


def test_boundscheck_false_checks_nothing():
    unchecked = cuvil.jit(total, boundscheck=False)
    assert unchecked(np.ones(3), 3) == 3.0
    assert "index(" not in unchecked.source()
