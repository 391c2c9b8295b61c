"""`.item()` of a uint64 array is a Python int, as in CPython (Numba: np.uint64, which wraps on `- 1` and mixes
with int64 into float64); a value beyond int64, which CPython's int would hold, raises OverflowError as every
int wider than 64 bits does (runtime/pyint.to_int)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.runtime.pyint import MESSAGE


def item_minus(x, k):
    return x[:1].item() - k


ITEM_MINUS = cuvil.jit(item_minus, dynamic=True)


@settings(max_examples=30, deadline=None)
@given(value=st.integers(0, 2**63 - 1), k=st.integers(-(2**40), 2**40))
def test_item_of_uint64_is_a_python_int(value, k):
    for x in (np.array([value], np.uint64), np.array([value, 1], np.uint64)):  # first call, guard hit
        expected = item_minus(x, k)
        if -(2**63) <= expected < 2**63:
            got = ITEM_MINUS(x, k)
            assert type(got) is int and got == expected
        else:
            with pytest.raises(OverflowError):
                ITEM_MINUS(x, k)
    x = np.array([value], np.int64)  # guard miss: another dtype
    assert ITEM_MINUS(x, 0) == item_minus(x, 0) == value


@pytest.mark.parametrize("value", [2**63, 2**64 - 1])
def test_item_of_uint64_beyond_int64_raises(value):
    assert item_minus(np.array([value], np.uint64), 0) == value  # CPython: a wide int
    with pytest.raises(OverflowError) as info:
        ITEM_MINUS(np.array([value], np.uint64), 0)
    assert str(info.value) == MESSAGE
