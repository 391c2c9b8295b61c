"""Unpacking into the wrong number of names raises CPython's ValueError at the user's line (lower/
library_raises.py): a shape or tuple, whose length Numba knows and refused to compile as written, and an array
(its rows), where Numba raised ValueError with no words. First call, guard hit, guard miss."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def dims3(a):
    x, y, z = a.shape
    return x * y * z


def dims2(a):
    x, y = a.shape
    return x - y


def pair(a):
    t = (a[0], a[-1], 2.0)
    x, y = t
    return x + y


def rows2(m):
    first, second = m
    return first - second


JITTED = {f: cuvil.jit(f) for f in (dims3, dims2, pair, rows2)}


@settings(max_examples=20)
@given(shape=st.lists(st.integers(1, 3), min_size=1, max_size=4))
def test_a_shape_unpacked_into_the_wrong_count(shape):
    for fn in (dims3, dims2):
        for extra in (0, 0, 1):  # first call, hit, miss (another size of the last axis)
            dims = (*shape[:-1], shape[-1] + extra)
            assert_matches(fn, {"cuvil": JITTED[fn]}, np.ones(dims))


@settings(max_examples=20)
@given(rows=st.integers(0, 4), columns=st.integers(1, 3))
def test_an_array_unpacked_into_two_names(rows, columns):
    for extra in (0, 0, 1):
        assert_matches(rows2, {"cuvil": JITTED[rows2]}, np.arange(float((rows + extra) * columns)).reshape(
            rows + extra, columns))


def test_a_tuple_of_three_into_two():
    assert_matches(pair, {"cuvil": JITTED[pair]}, np.arange(3.0))


@pytest.mark.parametrize(("fn", "args", "line", "words"), [
    (dims3, (np.ones((2, 3)),), "x, y, z = a.shape", "not enough values to unpack (expected 3, got 2)"),
    (rows2, (np.ones((3, 2)),), "first, second = m", "too many values to unpack (expected 2)"),
])
def test_raised_at_the_unpacking_line(fn, args, line, words):
    with pytest.raises(ValueError) as caught:
        JITTED[fn](*args)
    assert str(caught.value) == words
    assert traceback.extract_tb(caught.value.__traceback__)[-1].line == line


def set_row(m, v):
    m[0] = v
    return m


def set_element(a, v, i):
    a[i] = v
    return a


STORES = {f: cuvil.jit(f) for f in (set_row, set_element)}


@settings(max_examples=20)
@given(columns=st.integers(1, 4), value=st.lists(st.integers(1, 4), min_size=1, max_size=2))
def test_a_row_stored_from_an_array_that_does_not_broadcast(columns, value):
    """`m[0] = v`: NumPy's "could not broadcast input array from shape … into shape …" (Numba said "cannot
    assign slice of shape …")."""
    for extra in (0, 0, 1):
        assert_matches(set_row, {"cuvil": STORES[set_row]}, np.zeros((3, columns + extra)),
                       np.ones(tuple(value)))


@settings(max_examples=20)
@given(size=st.integers(1, 3), i=st.integers(-7, 7))
def test_an_element_stored_from_an_array(size, i):
    """`a[i] = v` with v an array: NumPy's ValueError after the index's IndexError (Numba refused to compile
    it: a CuvilTypeError on every call, also where the line never runs)."""
    for extra in (0, 0, 1):
        assert_matches(set_element, {"cuvil": STORES[set_element]}, np.zeros(5 + extra), np.ones(size), i)
