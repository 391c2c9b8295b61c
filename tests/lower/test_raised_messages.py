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


JITTED = {f: cuvil.jit(f) for f in (rows_of, shifted, into)}
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
