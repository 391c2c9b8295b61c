"""A `range` whose span does not fit in int64 (Python counts it; Numba counts `stop - start` in int64, and the
wrapped count was negative: `for i in range(-2**62, 2**62, 2**61)` ran no iteration where Python runs four).
Compiled code now runs every range it can count as Python does and raises OverflowError at the loop's line for
one it cannot (lower/overflow.py, runtime/pyint.range_stop); serial and parallel loops, first call, guard hit."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

LOW, HIGH = -(2**63), 2**63 - 1
BOUNDS = st.integers(LOW, HIGH) | st.sampled_from([LOW, HIGH, 0, -1, 1, 2**62, -(2**62), HIGH - 5, LOW + 5])
STEPS = st.integers(1, HIGH).flatmap(lambda s: st.sampled_from([s, -s])) | st.sampled_from([1, -1, 2**61, 2**62])
SOURCE = """
def walk(a, b, c):
    n = 0
    last = 0
    for i in range(a, b, c):
        n += 1
        last = i
    return n, last
"""
LOOP_LINE = 4  # `for i in range(a, b, c):` in SOURCE (its first line is line 1)


def _python(a: int, b: int, c: int) -> tuple[int, int] | str:
    count = max(0, (b - a + c - (1 if c > 0 else -1)) // c)  # len() of a range past sys.maxsize raises
    if abs(b - a) > HIGH:
        return "overflow"
    if count > 10**6:  # too long to run here, and compiled: not asked
        return "long"
    return count, a + (count - 1) * c if count else 0


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@settings(max_examples=60, deadline=None)
@given(a=BOUNDS, b=BOUNDS, c=STEPS)
def test_ranges_as_python_or_overflow_at_the_loop(parallel, a, b, c):
    expected = _python(a, b, c)
    if expected == "long":
        return
    fn = _walk(parallel)
    if expected == "overflow":
        with pytest.raises(OverflowError, match="int64 can count") as caught:
            fn(a, b, c)
        lines = [f.lineno for f in traceback.extract_tb(caught.value.__traceback__)
                 if f.filename == fn.py_func.__code__.co_filename]
        assert lines[-1] == LOOP_LINE, lines
    else:
        assert fn(a, b, c) == expected


def test_the_example_that_ran_no_iteration():
    fn = _walk(False)
    with pytest.raises(OverflowError):
        fn(-(2**62), 2**62, 2**61)
    assert fn(0, HIGH, 2**62) == (2, 2**62)  # the widest span int64 holds: counted
    assert fn(HIGH - 5, HIGH, 2) == (3, HIGH - 1)


_COMPILED: dict[bool, object] = {}


def _walk(parallel: bool):
    if parallel not in _COMPILED:
        _COMPILED[parallel] = cuvil.jit(define(SOURCE), parallel=parallel)
    return _COMPILED[parallel]


def test_an_inner_range_keeps_its_parallel_loop():
    """The span is tested before the parallel loop runs (cfg/raising.py, as Python-int overflow is): the outer
    loop stays parallel, a range it cannot count raises at its line, one it can runs as Python."""
    source = """
def rows(x, a, b):
    out = np.zeros(x.shape[0], np.int64)
    for i in range(x.shape[0]):
        for j in range(a, b, 2**61):
            out[i] += 1
    return out
"""
    fn = cuvil.jit(define(source, env={"np": np}), parallel=True)
    x = np.zeros(20)
    assert (fn(x, -(2**61), 2**62) == fn.py_func(x, -(2**61), 2**62)).all()
    with pytest.raises(OverflowError, match="int64 can count") as caught:
        fn(x, -(2**62), 2**62)
    lines = [f.lineno for f in traceback.extract_tb(caught.value.__traceback__)
             if f.filename == fn.py_func.__code__.co_filename]
    assert lines[-1] == 4, lines  # the inner loop (the source starts at its def, line 1)
    assert "parallel" in cuvil.explain(fn).loops[0][0], cuvil.explain(fn).loops
