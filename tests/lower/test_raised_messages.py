"""Errors whose message compiled code hands to Python to build (runtime/messages.py, library_checks.py,
elementwise.py: object mode, so that no kernel links int-to-str code): the exception type and words are
NumPy's, raised at the user's line, on the first call, a guard hit and a guard miss."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def rows_of(a, n):
    return a.reshape(n, -1)


def shifted(a, k):
    return a + k


def into(a, b):
    a[1:] = b
    return a


def store_one(a, k):
    a[0] = k
    return a


def store_all(a, k):
    a[:] = k
    return a


def store_each(a, k):
    for i in range(len(a)):
        a[i] = k
    return a


def clear(a):
    for i in range(len(a)):
        a[i] = 0
        a[i] += -1
    return a


STORES = (store_one, store_all, store_each)
JITTED = {f: cuvil.jit(f) for f in (rows_of, shifted, into, *STORES)}
WIDTHS = [np.int8, np.int16, np.uint8, np.uint16, np.int32, np.uint32]


@settings(max_examples=25)
@given(size=st.integers(0, 12), n=st.integers(-3, 7))
def test_reshape_of_a_size_that_does_not_divide(size, n):
    for length in (size, size, size + 1):  # first call, hit, miss
        assert_matches(rows_of, {"cuvil": JITTED[rows_of]}, np.arange(float(length)), n)


@settings(max_examples=25)
@given(dtype=st.sampled_from(WIDTHS), k=st.integers(-70000, 70000), size=st.integers(1, 3))
def test_a_python_int_the_dtype_cannot_hold(dtype, k, size):
    """Non-empty arrays: with an empty one the check is not made (test_scalars.py's strict xfail)."""
    for length in (size, size, size + 2):
        assert_matches(shifted, {"cuvil": JITTED[shifted]}, np.zeros(length, dtype), k)


@settings(max_examples=25)
@given(size=st.integers(1, 5), other=st.lists(st.integers(0, 4), min_size=1, max_size=3).map(tuple))
def test_a_value_that_does_not_broadcast_into_the_view(size, other):
    for length in (size, size, size + 1):
        assert_matches(into, {"cuvil": JITTED[into]}, np.zeros(length), np.ones(other))


@settings(max_examples=25)
@given(dtype=st.sampled_from([*WIDTHS, np.uint64, np.int64]), size=st.integers(1, 3), k=st.sampled_from(
    [0, 1, -1, 127, 128, -128, -129, 255, 256, 2**15, 2**31, -(2**31) - 1, 2**32, 2**62, -(2**62)]))
def test_a_python_int_stored_into_an_array_must_fit_its_dtype(dtype, k, size):
    """NumPy 2 refuses `a[0] = 300` on int8 (OverflowError) where Numba wraps it to 44."""
    for fn in STORES:
        for length in (size, size, size + 2):
            assert_matches(fn, {"cuvil": JITTED[fn]}, np.ones(length, dtype), k)


def test_a_literal_that_fits_is_not_checked_and_the_loop_stays_parallel():
    jitted = cuvil.jit(clear, parallel=True)
    for dtype in (np.int8, np.int16, np.int32):
        assert_matches(clear, {"cuvil": jitted}, np.ones(7, dtype))
    assert "python_int_as" not in jitted.source()
    assert "parallel" in cuvil.explain(jitted).loops[0][0]


def fill_with(a, k):
    a.fill(k)
    return a


def as_int8(k):
    return np.int8(k)


def as_uint64(k):
    return np.uint64(k)


FITTED = {f: cuvil.jit(f) for f in (fill_with, as_int8, as_uint64)}
FLOATS = [0.0, -0.5, 2.9, -1.5, 127.9, 128.0, -128.9, -129.0, 300.7, 2.0**31, 2.0**63, -(2.0**63), 1e19, 1e300,
          float("nan"), float("inf"), float("-inf")]


@settings(max_examples=30)
@given(dtype=st.sampled_from([*WIDTHS, np.uint64, np.int64]), size=st.integers(1, 3), k=st.sampled_from(FLOATS))
def test_a_python_float_stored_into_an_integer_array(dtype, k, size):
    """NumPy stores int(k) and refuses what int() or the dtype refuses (ValueError for nan, OverflowError for
    infinities, "Python int too large …", "Python integer … out of bounds …"); Numba stored garbage."""
    for fn in (*STORES, fill_with):
        for length in (size, size, size + 2):
            compiled = JITTED[fn] if fn in JITTED else FITTED[fn]
            assert_matches(fn, {"cuvil": compiled}, np.ones(length, dtype), k)


@settings(max_examples=30)
@given(k=st.one_of(st.sampled_from(FLOATS), st.integers(-(2**63), 2**63 - 1)))
def test_integer_dtype_constructors_of_python_numbers(k):
    """`np.int8(300)` and `np.uint64(-1)` are NumPy 2's OverflowError; Numba wrapped them."""
    for fn in (as_int8, as_uint64, fill_with):
        args = (np.zeros(2, np.int16), k) if fn is fill_with else (k,)
        assert_matches(fn, {"cuvil": FITTED[fn]}, *args)


def full_of(a, k):
    return np.full(3, k, a.dtype), np.full_like(a, k), np.full(2, fill_value=k, dtype=a.dtype)


@settings(max_examples=25, deadline=None)
@given(dtype=st.sampled_from([*WIDTHS, np.uint64, np.int64]), size=st.integers(1, 3), k=st.sampled_from(
    [0, 1, -1, 127, 128, -128, -129, 255, 256, 2**15, 2**31, -(2**31) - 1, 2**32, 2**62, -(2**62)]))
def test_a_python_int_filling_an_integer_array_must_fit_its_dtype(dtype, k, size):
    """`np.full(3, 300, np.int8)` is NumPy 2's OverflowError, where Numba wrapped it to 44s."""
    jitted = cuvil.jit(full_of)
    for length in (size, size, size + 2):  # first call, guard hit, guard miss
        assert_matches(full_of, {"cuvil": jitted}, np.ones(length, dtype), k)
