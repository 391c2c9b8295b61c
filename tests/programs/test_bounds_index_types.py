"""Bounds checks on indices of every integer type (runtime/checks.index): signed ones take the test written as
LLVM IR (`_test`, widened to int64), unsigned ones the plain body; both raise NumPy's IndexError, with its
message, at the user's line, and negative indices wrap as in Python. Each kind first call, guard hit and miss."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def gather(a, idx):
    s = 0.0
    for i in range(len(idx)):
        s += a[idx[i]]
    return s


def one(a, k):
    return a[k]


SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
JITTED = {dtype: cuvil.jit(gather) for dtype in SIGNED + UNSIGNED}


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 6), values=st.lists(st.integers(-9, 9), min_size=1, max_size=5),
       dtype=st.sampled_from(SIGNED + UNSIGNED))
def test_any_index_type_raises_or_reads_as_python(n, values, dtype):
    if dtype.startswith("u"):
        values = [abs(v) for v in values]
    a, idx = np.arange(float(n)), np.array(values, dtype)
    for size in (n, n, n + 1):  # first call, guard hit, a miss on the array's new length
        a = np.arange(float(size))
        assert_matches(gather, {"cuvil": JITTED[dtype]}, a, idx)


@pytest.mark.parametrize("dtype", SIGNED + UNSIGNED)
def test_the_message_and_line_are_numpys(dtype):
    fn = JITTED[dtype]
    a = np.arange(4.0)
    assert fn(a, np.array([3, 1], dtype)) == 4.0
    assert fn(a, np.array([2], dtype)) == 2.0  # a guard hit
    with pytest.raises(IndexError) as caught:
        fn(a, np.array([1, 4], dtype))
    assert str(caught.value) == "index 4 is out of bounds for axis 0 with size 4"
    last = traceback.extract_tb(caught.value.__traceback__)[-1]
    assert (last.filename, last.lineno) == (gather.__code__.co_filename, gather.__code__.co_firstlineno + 3)
    assert last.line == "s += a[idx[i]]"
    with pytest.raises(IndexError, match=r"^index 5 is out of bounds for axis 0 with size 3$"):
        fn(np.arange(3.0), np.array([5], dtype))  # a guard miss: a new length


@pytest.mark.parametrize("k", [np.int8(-5), np.int32(-4), np.int64(3), -1, 2])
def test_a_scalar_index_of_a_narrow_type(k):
    fn = cuvil.jit(one)
    a = np.arange(4.0)
    assert_matches(one, {"cuvil": fn}, a, k)
    assert_matches(one, {"cuvil": fn}, a, k)
    assert_matches(one, {"cuvil": fn}, np.arange(5.0), k)


ONE = cuvil.jit(one)


@settings(max_examples=25, deadline=None)
@given(k=st.sampled_from([2**64 - 1, 2**64 - 2, 2**63, 2**63 - 1, 3, 0]) | st.integers(0, 2**64 - 1),
       n=st.integers(1, 5))
def test_a_uint64_index_beyond_int64_is_numpys_overflowerror(k, n):
    """NumPy cannot make an index of a uint64 above 2**63 - 1: OverflowError (the check named it as negative)."""
    for size in (n, n, n + 2):  # first call, guard hit, a miss on the array's new length
        a = np.arange(float(size))
        expected, got = _outcome(one, a, np.uint64(k)), _outcome(ONE, a, np.uint64(k))
        assert got == expected


def _outcome(fn, *args):
    try:
        return "ok", float(fn(*args))
    except Exception as exc:  # noqa: BLE001 (compared with the other side's)
        return "raise", type(exc).__name__, str(exc)
