"""The Plan in words (`jitted.source("plan")`): its first line names the function and its parameters, and each
parallel nest says what it reads and writes, "-" for nothing (lower/plan.py `Plan.text` and `_describe`:
mutation testing found that neither the parameters nor the "-" was checked by any test)."""

from __future__ import annotations

import numpy as np

import cuvil


def fill(out, v):
    for i in range(out.shape[0]):
        out[i] = v
    return out


def axpy(a, x, y):
    return a * x + y


def _plan(fn, *args):
    jitted = cuvil.jit(fn, parallel=True)
    jitted(*args)
    return str(jitted.source("plan")).splitlines()


def test_the_plan_names_the_function_and_its_parameters():
    assert _plan(fill, np.zeros(4), 2.0)[0] == "plan fill(out, v)"
    assert _plan(axpy, 2.0, np.ones(3), np.ones(3))[0] == "plan axpy(a, x, y)"


def test_a_nest_that_reads_nothing_says_so():
    nests = [line for line in _plan(fill, np.zeros(4), 2.0) if "ParallelNest" in line]
    assert len(nests) == 1 and "; reads -; writes out;" in nests[0]
    nests = [line for line in _plan(axpy, 2.0, np.ones(3), np.ones(3)) if "ParallelNest" in line]
    assert len(nests) == 1 and "; reads x, y; writes " in nests[0]
