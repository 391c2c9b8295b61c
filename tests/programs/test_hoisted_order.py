"""A loop whose index checks are tested before it (lower/checks.py) fails as Python fails: at the first failing
iteration, after the iterations before it have written what they write, and with the exception Python meets
first — another index's IndexError at an earlier iteration, an earlier ZeroDivisionError or math domain error.
Serial loops are compared with CPython in full (result, exception, arrays after the call); a parallel loop
raises the same exception (what its other iterations wrote is unspecified, docs/semantics.md)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def two_reads(a, b, start, stop):
    s = 0.0
    for i in range(start, stop):
        s += b[i + 3]
        s += a[i]
    return s


def write_then_read(a, out, start, stop):
    for i in range(start, stop):
        out[i + 3] = a[i]
    return out


def divide_first(a, d, n):
    s = 0
    for i in range(n):
        s += 10 // int(d[i % len(d)])
        s += int(a[i])
    return s


def domain_first(a, n):
    s = 0.0
    for i in range(n):
        s += math.sqrt(a[i % len(a)] - 2.0)
        s += a[i]
    return s


def shift_out(a, out, n):
    for i in range(n):
        out[i + 1] = a[i] * 2.0
    return out


def rows_out(m, out, n):
    for i in range(n):
        for j in range(m.shape[1]):
            out[i, j + 1] = m[i, j]
    return out


SERIAL = {fn: cuvil.jit(fn) for fn in (two_reads, write_then_read, divide_first, domain_first, shift_out,
                                       rows_out)}
PARALLEL = {fn: cuvil.jit(fn, parallel=True) for fn in SERIAL}


def _outcome(fn, *args):
    """What a call returns or raises, and every array argument afterwards (copies in, so calls compare)."""
    args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
    try:
        result = np.asarray(fn(*args))  # a 64-bit scalar as NumPy's dtype (cuvil.testing's rule)
        shown = (result.dtype, result.shape, result.tolist())
    except (IndexError, ZeroDivisionError, ValueError) as exc:
        shown = (type(exc).__name__, str(exc))
    return shown, [(a.dtype, a.shape, a.tolist()) for a in args if isinstance(a, np.ndarray)]


def _compare(fn, *variants):
    """Each variant of args: serial compared in full, parallel on its exception or result alone."""
    for args in variants:
        want = _outcome(fn, *args)
        assert _outcome(SERIAL[fn], *args) == want, (fn.__name__, args)
        assert _outcome(PARALLEL[fn], *args)[0] == want[0], (fn.__name__, args)


@settings(max_examples=40, deadline=None)
@given(size=st.integers(0, 6), start=st.integers(-9, 4), stop=st.integers(-4, 9))
def test_the_first_failing_access_in_python_order_raises(size, start, stop):
    """Two hoisted indices fail at different iterations: the one Python reaches first raises (b[i + 3] may fail
    only at the last iterations, a[i] at the first). First call, guard hit, guard miss (another length)."""
    for length in (size, size, size + 2):
        a, b = np.arange(float(length)), np.arange(float(length + 1))
        _compare(two_reads, (a, b, start, stop))
        _compare(write_then_read, (a, np.zeros(length + 2), start, stop))


@settings(max_examples=30, deadline=None)
@given(size=st.integers(1, 6), extra=st.integers(0, 3), zero=st.integers(0, 5))
def test_an_earlier_iteration_s_exception_comes_first(size, extra, zero):
    """Python raises ZeroDivisionError or a math domain error at an iteration before the one whose index is
    out of bounds: the compiled loop does too, not the IndexError its test before the loop foresaw."""
    for length in (size, size, size + 1):
        a = np.arange(length)
        d = np.ones(3, dtype=np.int64)
        d[zero % 3] = 0
        _compare(divide_first, (a, d, length + extra))
        _compare(domain_first, (np.arange(float(length)) + 2.0 + zero - 3.0, length + extra))


@settings(max_examples=30, deadline=None)
@given(size=st.integers(0, 6), n=st.integers(0, 8), columns=st.integers(0, 4))
def test_iterations_before_the_failure_write_what_they_write(size, n, columns):
    """`out[i + 1] = …` past out's end at the last iteration: every earlier element is written, as Python
    writes it, before the IndexError; a nest's inner loop as well (its checked copy inside the outer's)."""
    for length in (size, size, size + 1):
        _compare(shift_out, (np.arange(float(length)), np.zeros(length), n))
        _compare(rows_out, (np.ones((length, columns)), np.zeros((length, columns)), n))
