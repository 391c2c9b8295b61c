"""A scalar updated twice in one iteration (`s += a[i]; s += 1.0`): Numba's parallel loop refuses two updates
of a reduction in one basic block, so before cfg/dependence.py knew it `parallel=True` gave Numba's "Use of
reduction variable 's' other than in a supported reduction function" instead of running. Such loops run
serially now; updates in different branches stay a parallel reduction."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import cuvil
from cuvil.testing import assert_matches


def twice(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i]
        s += 1.0
    return s


def product_twice(a):
    p = 1.0
    for i in range(len(a)):
        p *= a[i]
        p *= 0.5
    return p


def counted(a):
    n = 0
    for i in range(len(a)):
        n += 1
        n += int(a[i] > 0)
    return n


def branches(a):
    s = 0.0
    for i in range(len(a)):
        if a[i] > 0:
            s += a[i]
        s += 1.0
    return s


PROGRAMS = (twice, product_twice, counted, branches)
JITTED = {f: cuvil.jit(f, parallel=True) for f in PROGRAMS}


@settings(max_examples=20)
@given(a=arrays(np.float64, st.integers(0, 40), elements=st.floats(-4, 4)))
def test_runs_and_equals_python(a):
    for fn in PROGRAMS:
        for x in (a, a, np.concatenate([a, a])):  # first call, hit, miss (or hit, for a length already seen)
            assert_matches(fn, {"cuvil": JITTED[fn]}, x, rtol=1e-12, atol=1e-12)


def test_which_loops_are_parallel():
    small = np.arange(5.0)
    for fn in PROGRAMS:
        JITTED[fn](small)
    parallel = {fn.__name__: "parallel" in cuvil.explain(JITTED[fn]).loops[0][0] for fn in PROGRAMS}
    assert parallel == {"twice": False, "product_twice": False, "counted": False, "branches": True}
