"""A copy of a parallel loop's index that the body assigns again (issue 36, class 7): `m = i`, then `m = j` in
an inner loop. Numba's parfor pass refused the loop ("Overwrite of parallel loop index", leaked to the user as a
CuvilTypeError); codegen/parfor_index.py writes the copy `m = i + 0`, and the loop runs in parallel."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cuvil
from cuvil.testing import assert_matches


def nearest_later_minimum(a, out):
    for i in range(len(a)):
        m = i
        for j in range(i + 1, len(a)):
            if a[j] < a[m]:
                m = j
        out[i] = m
    return out


def copy_of_a_copy(a, out):
    for i in range(len(a)):
        m = i
        best = m
        k = 0
        while k < len(a):
            if a[k] > a[best]:
                best = k
            k += 1
        out[i] = best - m
    return out


def copy_rebound_by_a_loop(a, out):
    for i in range(1, len(a)):
        j = i
        for j in range(i):
            out[i] += a[j]
        out[i] += j
    return out


PROGRAMS = [nearest_later_minimum, copy_of_a_copy, copy_rebound_by_a_loop]
JITTED = {p.__name__: cuvil.jit(p, parallel=True) for p in PROGRAMS}


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
@settings(max_examples=8)
@given(data=st.data(), n=st.sampled_from([5, 40]))
def test_a_rebound_copy_of_the_index_stays_parallel_and_right(program, data, n):
    jitted = JITTED[program.__name__]
    for size in (n, n, n + 3):  # first call, guard hit, guard miss
        a = data.draw(hnp.arrays(np.float64, size, elements=st.floats(-100, 100)))
        assert_matches(program, {"parallel": jitted}, a, np.zeros(size))
    assert "numba.prange" in jitted.source("kernel")
