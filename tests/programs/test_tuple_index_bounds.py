"""An index held in a tuple variable is bounds-checked as a written-out one (issue 39): `idx = i, 0; x[idx]`
read past the end without a word and `x[idx] = v` wrote there (Numba's tuple index has no check). Each spelling
against CPython: the value, or NumPy's IndexError with its message, as first call, guard hit and guard miss;
serial and parallel loops; and the CUDA simulator, where the launcher raises what the CPU target raises."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def read_tuple_variable(x, i, j):
    idx = i, j
    return x[idx]


def write_tuple_variable(x, i, j):
    idx = (i, j)
    x[idx] = -1.0
    return x


def tuple_argument(x, t):
    return x[t]


def tuple_with_a_slice(x, i, j):
    idx = (i, slice(0, 2))
    return x[idx].sum() + j


def row_of_a_cube(x, i, j):
    idx = (i, j)
    return x[idx].sum()


def in_a_loop(x, i, j):
    s = 0.0
    for k in range(x.shape[0]):
        t = (k + i, j)
        s += x[t]
    return s


def rows_in_a_loop(x, i, j):
    out = np.zeros(x.shape[0])
    for k in range(x.shape[0]):
        t = (k, j + i)
        out[k] = x[t] * 2.0
    return out


SPELLINGS = [read_tuple_variable, write_tuple_variable, tuple_with_a_slice, in_a_loop, rows_in_a_loop]
JITTED = {(fn, parallel): cuvil.jit(fn, parallel=parallel) for fn in SPELLINGS + [tuple_argument, row_of_a_cube]
          for parallel in (False, True)}
INDEX = st.integers(-6, 6)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("fn", SPELLINGS, ids=lambda f: f.__name__)
@settings(max_examples=15, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(1, 4), i=INDEX, j=INDEX)
def test_a_tuple_index_reads_and_raises_as_python(fn, parallel, rows, cols, i, j):
    for shape in ((rows, cols), (rows, cols), (rows + 1, cols + 2)):  # first call, guard hit, guard miss
        x = np.arange(float(shape[0] * shape[1])).reshape(shape)
        assert_matches(fn, {"cuvil": JITTED[fn, parallel]}, x, i, j)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@settings(max_examples=15, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(1, 4), i=INDEX, j=INDEX)
def test_a_tuple_argument_and_a_partial_tuple(parallel, rows, cols, i, j):
    x = np.arange(float(rows * cols)).reshape(rows, cols)
    cube = np.arange(float(rows * cols * 3)).reshape(rows, cols, 3)
    for _ in range(2):
        assert_matches(tuple_argument, {"cuvil": JITTED[tuple_argument, parallel]}, x, (i, j))
        assert_matches(row_of_a_cube, {"cuvil": JITTED[row_of_a_cube, parallel]}, cube, i, j)


def test_the_message_is_numpys():
    fn = JITTED[write_tuple_variable, False]
    with pytest.raises(IndexError, match=r"^index 3 is out of bounds for axis 1 with size 3$"):
        fn(np.zeros((2, 3)), 1, 3)
    with pytest.raises(IndexError, match=r"^index -3 is out of bounds for axis 0 with size 2$"):
        fn(np.zeros((2, 3)), -3, 0)


@pytest.mark.parametrize(("i", "j"), [(0, 0), (1, -1), (2, 0), (0, 3), (-3, 0)])
def test_on_the_cuda_simulator(i, j):
    x = np.arange(6.0).reshape(2, 3)
    for fn in (read_tuple_variable, in_a_loop):
        assert_matches(fn, {"cuda": cuvil.jit(fn, target="cuda")}, x, i, j)
