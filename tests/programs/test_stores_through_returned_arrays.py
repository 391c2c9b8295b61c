"""Stores through an array that reaches the store by another name than the argument's (issue 36, class 1).

`r = row_of(M, i); r[0] = v` must write M. Numba's dead-code elimination did not know that a call's result, a
tuple built from M or unpacked from a callee's result may be M (or view it), and dropped such stores whenever it
ran: after inlining the checked index helper, and always under `parallel=True` (codegen/numba_aliases.py).
Every way an array can reach a store, serial and parallel, on the CPU and in the CUDA simulator, with row counts
on both sides of the static-dim threshold (16) and three calls each: first call, guard hit, guard miss.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def row_of(M, i):
    return M[i]


def same(a):
    return a


def row_and_index(M, i):
    return M[i], i


def pair(M):
    return (M, M.shape[0])


@cuvil.jit
def jitted_row(M, i):
    return M[i]


def through_a_helper(M, v):
    for i in range(M.shape[0]):
        r = row_of(M, i)
        r[0] = v
    return 0


def through_an_identity_helper(M, v):
    for i in range(M.shape[0]):
        r = same(M)
        r[i, M.shape[1] - 1] = v + i
    return 0


def through_asarray(M, v):
    for i in range(M.shape[0]):
        r = np.asarray(M[i])
        r[1 % M.shape[1]] = v * i
    return 0


def through_a_tuple(M, v):
    for i in range(M.shape[0]):
        t = (M, i)
        r = t[0]
        r[i, 0] = v
    return 0


def through_a_returned_tuple(M, v):
    for i in range(M.shape[0]):
        r, k = row_and_index(M, i)
        r[0] = v - k
    return 0


def through_an_unpacked_tuple(M, v):
    for i in range(M.shape[0]):
        a, n = pair(M)
        a[i, 0] = v + n
    return 0


def through_a_view_of_a_view(M, v):
    for i in range(M.shape[0]):
        r = row_of(M, i)[1:]
        r[r.shape[0] - 1] = v
    return 0


def through_a_jitted_callee(M, v):
    for i in range(M.shape[0]):
        r = jitted_row(M, i)
        r[0] = v
    return 0


def whole_rows_through_a_helper(M, v):
    for i in range(M.shape[0]):
        r = row_of(M, i)
        for j in range(M.shape[1]):
            r[j] = v * i + j
    return 0


PROGRAMS = [through_a_helper, through_an_identity_helper, through_asarray, through_a_tuple,
            through_a_returned_tuple, through_an_unpacked_tuple, through_a_view_of_a_view, through_a_jitted_callee,
            whole_rows_through_a_helper]
JITTED = {(p.__name__, parallel): cuvil.jit(p, parallel=parallel) for p in PROGRAMS for parallel in (False, True)}


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@settings(max_examples=6)
@given(rows=st.sampled_from([3, 40]), cols=st.sampled_from([2, 5, 20]), v=st.floats(-1e3, 1e3))
def test_stores_through_a_returned_array_reach_the_argument(program, parallel, rows, cols, v):
    jitted = JITTED[program.__name__, parallel]
    for shape in [(rows, cols), (rows, cols), (rows + 1, cols)]:  # first call, guard hit, guard miss
        M = np.arange(shape[0] * shape[1], dtype=np.float64).reshape(shape)
        assert_matches(program, {"jit": jitted}, M, v)


@pytest.mark.filterwarnings("ignore::cuvil.PerformanceWarning")  # row loops around a call run on one thread
@pytest.mark.parametrize("program", [p for p in PROGRAMS if p is not through_asarray], ids=lambda p: p.__name__)
def test_stores_through_a_returned_array_in_the_cuda_simulator(program):
    jitted = cuvil.jit(program, target="cuda")
    for shape in [(3, 4), (3, 4), (5, 4)]:
        M = np.arange(shape[0] * shape[1], dtype=np.float64).reshape(shape)
        assert_matches(program, {"cuda": jitted}, M, 2.5)


def test_asarray_in_a_cuda_kernel_is_refused_at_its_line():
    with pytest.raises(cuvil.CuvilSyntaxError, match="np.asarray cannot run inside a CUDA kernel") as caught:
        cuvil.jit(through_asarray, target="cuda")(np.zeros((3, 4)), 1.0)
    assert caught.value.lineno == through_asarray.__code__.co_firstlineno + 2
