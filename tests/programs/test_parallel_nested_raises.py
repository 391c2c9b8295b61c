"""A statement that may raise inside a tuple's element or a comparison's operand keeps its loop parallel and
raises what Python raises: cfg/raising.py read only direct subexpressions, so `t = (k, j + i)` or
`if x[k] > 10 // d` left a raise in the prange body and Numba ran the loop serially (its warning), the first
failing iteration unknown."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba.core.errors import NumbaPerformanceWarning

import cuvil
from cuvil.testing import assert_matches


def division_in_a_comparison(x, d):
    c = 0
    for k in range(x.shape[0]):
        if x[k] > 10 // d:
            c += 1
    return c


def division_in_a_tuple(x, d):
    out = np.zeros(x.shape[0])
    for k in range(x.shape[0]):
        t = (x[k], 10 // d)
        out[k] = t[0] + t[1]
    return out


def modulo_in_a_ternary_test(x, d):
    out = np.zeros(x.shape[0])
    for k in range(x.shape[0]):
        out[k] = 1.0 if x[k] > 10 % d else 2.0
    return out


def overflow_in_a_tuple(x, d):
    out = np.zeros(x.shape[0])
    for k in range(x.shape[0]):
        t = (k, d * 4611686018427387904)
        out[k] = x[k] + t[1]
    return out


PROGRAMS = [division_in_a_comparison, division_in_a_tuple, modulo_in_a_ternary_test, overflow_in_a_tuple]
JITTED = {fn: cuvil.jit(fn, parallel=True) for fn in PROGRAMS}


@pytest.mark.filterwarnings("error", category=NumbaPerformanceWarning)
@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
@settings(max_examples=10, deadline=None)
@given(n=st.integers(0, 40), d=st.integers(-3, 3))
def test_parallel_and_raises_as_python(fn, n, d):
    for size in (n, n, n + 3):  # first call, guard hit, guard miss
        assert_matches(fn, {"cuvil": JITTED[fn]}, np.arange(size), d)
