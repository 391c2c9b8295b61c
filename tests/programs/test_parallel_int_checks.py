"""Python-int arithmetic inside a parallel loop (cfg/raising.py): an overflow is tested before the statement
and raised after the loop as the serial code raises it, and an operand that calls something which may raise
on its own keeps the loop serial, saying why. Written against surviving mutants of cfg/raising.py
(tests/MUTATION.md)."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.helpers import define

INT64_OVERFLOW = ("int64 overflow: Python would give an int wider than 64 bits here; compute in float, or pass "
                  "overflow=\"wrap\" to cuvil.jit for Numba's wrap-around")


def _loop_lines(fn) -> list[str]:
    return [line.strip() for line in str(cuvil.explain(fn)).splitlines() if line.strip().startswith("loop ")]


def test_an_int_overflow_in_a_parallel_loop_raises_after_it():
    py = define("""
    def scale(a, k):
        out = np.zeros(a.shape[0], np.int64)
        for i in range(a.shape[0]):
            out[i] = a[i] + i * k
        return out
    """, env={"np": np})
    fn = cuvil.jit(py, parallel=True)
    a = np.arange(100)
    for k in (3, 5):  # a first call, a guard hit
        got, want = fn(a, k), py(a, k)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    assert _loop_lines(fn) == ["loop scale L3: parallel (raises after the loop (1 check(s)))"]
    with pytest.raises(OverflowError) as caught:
        fn(a, 2**62)
    assert str(caught.value) == INT64_OVERFLOW
    got = fn(a[:7].copy(), 2)  # a miss on a new size still checks
    np.testing.assert_array_equal(got, py(a[:7].copy(), 2))


def test_an_int_operand_that_calls_a_raising_function_keeps_the_loop_serial():
    py = define("""
    def scale(a, b):
        out = np.zeros(a.shape[0], np.int64)
        for i in range(a.shape[0]):
            out[i] = a[i] + i * int(np.max(b))
        return out
    """, env={"np": np})
    fn = cuvil.jit(py, parallel=True)
    a = np.arange(50)
    got, want = fn(a, a), py(a, a)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert _loop_lines(fn) == ["loop scale L3: serial (L4: an int operand calls numpy.max)"]


def test_the_same_int_expression_of_the_index_twice():
    """`(n - i) * (n - i)`: each `n - i` is checked; Numba's parfor pass once rejected the loop ("Overwrite of
    parallel loop index") because the check was inlined twice with the index as its argument."""
    py = define("""
    def square(a, n):
        out = np.zeros(a.shape[0])
        for i in range(a.shape[0]):
            out[i] = (n - i) * (n - i) + -(n - i) * -(i - n)
        return out
    """, env={"np": np})
    fn = cuvil.jit(py, parallel=True)
    a = np.ones(40)
    for n in (3, 1000, -7):  # a first call, guard hits
        np.testing.assert_array_equal(fn(a, n), py(a, n))
    assert _loop_lines(fn)[0].startswith("loop square L3: parallel (raises after the loop")
    with pytest.raises(OverflowError) as caught:
        fn(a, 2**62)
    assert str(caught.value) == INT64_OVERFLOW
