"""Bounds checks inside helper functions (issue 10 §1): a helper whose result no name keeps
(`out[j] = helper(a, ...)`) was not typed, so its indexing went unchecked and read past the end silently."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def shifted(a, i, k):
    return a[i + 3] * k


def gather_through_a_helper(a, idx, k):
    out = np.zeros(len(idx), np.int64)
    for j in range(len(idx)):
        out[j] = shifted(a, idx[j] + j, k)
    return out


def store_through_a_helper(out, i, v):
    out[i - 1] = v
    return 0


def scatter_through_a_helper(out, idx):
    for j in range(len(idx)):
        store_through_a_helper(out, idx[j], j)
    return out


JITTED = cuvil.jit(gather_through_a_helper)
SCATTER = cuvil.jit(scatter_through_a_helper)


@settings(max_examples=40)
@given(size=st.integers(0, 8), idx=st.lists(st.integers(-12, 8), max_size=5))
def test_helper_reads_and_writes_are_checked_as_python(size, idx):
    a = np.arange(size, dtype=np.int64)
    index = np.array(idx, np.int64)
    for _ in range(2):  # a first call, then a guard hit
        assert_matches(gather_through_a_helper, {"jit": JITTED}, a, index, 3)
        assert_matches(scatter_through_a_helper, {"jit": SCATTER}, a.copy(), index)


def test_the_helpers_error_is_numpys_message():
    try:
        JITTED(np.arange(5), np.zeros(3, np.int64), 3)
    except IndexError as error:
        assert str(error) == "index 5 is out of bounds for axis 0 with size 5"
    else:
        raise AssertionError("no IndexError")
