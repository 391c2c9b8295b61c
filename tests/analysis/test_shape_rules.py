"""The shape algebra agrees with NumPy wherever dims are known, and stays unknown where they are not."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuvil.analysis.shape_rules import UNKNOWN, Contradiction, Sym, broadcast, matmul, reduce, reshape

shapes = st.lists(st.integers(0, 4), max_size=4).map(tuple)


@given(shapes, shapes)
def test_broadcast_matches_numpy(a, b):
    try:
        expected = np.broadcast_shapes(a, b)
    except ValueError:
        with pytest.raises(Contradiction):
            broadcast(a, b)
    else:
        assert broadcast(a, b) == expected


@given(st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
       st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple))
def test_matmul_matches_numpy(a, b):
    try:
        expected = np.matmul(np.ones(a), np.ones(b)).shape
    except ValueError:
        with pytest.raises(Contradiction):
            matmul(a, b)
    else:
        assert matmul(a, b) == expected


@given(st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple), st.integers(1, 6), st.booleans())
def test_reshape_matches_numpy(shape, first, hole):
    target = (first, -1) if hole else (first, int(np.prod(shape)) // first)
    try:
        expected = np.ones(shape).reshape(target).shape
    except ValueError:
        with pytest.raises(Contradiction):
            reshape(shape, target)
    else:
        assert reshape(shape, target) == expected


@given(st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple), st.integers(0, 2))
def test_reduce_matches_numpy(shape, axis):
    assert reduce(shape, None) == ()
    if axis < len(shape):
        assert reduce(shape, axis) == np.ones(shape).sum(axis=axis).shape


def test_symbols_broadcast_with_themselves_and_ones_and_are_unknown_otherwise():
    s0, s1 = Sym("s0"), Sym("s1")
    assert broadcast((s0, 3), (s0, 1)) == (s0, 3)
    assert broadcast((s0,), (s1,)) == (UNKNOWN,)
    assert broadcast((s0,), (4,)) == (UNKNOWN,)  # only run time can tell
    assert matmul((s0, 3), (3, s1)) == (s0, s1)
