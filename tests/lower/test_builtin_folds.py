"""Python's `sum()`, `max()` and `min()` of an array fold over its first axis in NumPy's arithmetic, as CPython
runs them (runtime/folds.py): `sum(int8_array)` wraps in int8 (Numba's was an int64 200 for [100, 100]), a
float32 array sums in float32, a 2-D array sums its rows, a bool array counts in int64; `max()` of an empty
array is Python's ValueError (Numba's, StopIteration), NaN is kept where CPython keeps it. First call, guard hit,
guard miss (another dtype and rank)."""

from __future__ import annotations

import functools
import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import assert_like_numpy, jitted, seeded_array

FOLDS = """
def folds(a):
    return sum(a), max(a), min(a)
"""
SUM = """
def total(a):
    return sum(a)
"""
_array = functools.partial(seeded_array, scale=1e3, full_range=True)  # integers over their whole range
DTYPES = ["int8", "uint8", "int16", "int64", "uint64", "float32", "float64", "bool"]



@settings(max_examples=30, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES),
       length=st.integers(0, 9))
def test_sum_max_min_of_a_1d_array_are_pythons(data, dtype, other, length):
    fn = jitted(FOLDS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's scalar overflow warnings
        for x in (_array(data, dtype, (length,)), _array(data, dtype, (length,)), _array(data, other, (3,))):
            if x.size == 0:  # Python's sum of nothing is the int 0, max's a ValueError: max first, alone
                assert_like_numpy(jitted("def top(a):\n    return max(a)\n"), x)
                continue
            assert_like_numpy(fn, x)


@settings(max_examples=20, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(DTYPES), shape=st.sampled_from([(1, 3), (4, 2), (2, 3, 2)]))
def test_sum_of_a_2d_array_adds_its_rows(data, dtype, shape):
    fn = jitted(SUM)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for x in (_array(data, dtype, shape), _array(data, dtype, shape), _array(data, "float32", (5,))):
            assert_like_numpy(fn, x)


ANY_ALL = """
def truths(a):
    return any(a), all(a)
"""


@settings(max_examples=30, deadline=None)
@given(data=st.data(), dtype=st.sampled_from([*DTYPES, "complex128"]), length=st.integers(0, 40), nan=st.booleans())
def test_any_all_of_a_1d_array_are_pythons(data, dtype, length, nan):
    """Each element's truth (NaN is true), empty arrays included, lengths on both sides of the static-dim
    threshold; Numba had no any() or all() of an array ('Untyped global name')."""
    fn = jitted(ANY_ALL)
    x = _array(data, dtype, (length,))
    x[data.draw(st.lists(st.booleans(), min_size=length, max_size=length)) if length else []] = 0
    if nan and length and x.dtype.kind in "fc":
        x[0] = np.nan
    assert_like_numpy(fn, x)
    assert_like_numpy(fn, x[::-1])  # a view: another layout
