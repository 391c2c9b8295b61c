"""A parallel loop inside an `if` (lower/plan.py `Control`): the Plan keeps the branch as a control region
around its own nest, so the loop still runs as `prange` (mutation testing found no test of a parallel loop
under a branch: with the branch left a serial region, the loop silently ran serially)."""

from __future__ import annotations

import numpy as np

import cuvil


def cond_fill(out, v, flag):
    if flag:
        for i in range(out.shape[0]):
            out[i] = v
    return out


def test_a_parallel_loop_under_an_if_is_a_nest_inside_a_control_region():
    jitted = cuvil.jit(cond_fill, parallel=True, dynamic=True)
    for n, flag in ((40, True), (40, False), (41, True)):  # a first call, a guard hit, a miss on a new size
        got, want = jitted(np.zeros(n), 2.0, flag), cond_fill(np.zeros(n), 2.0, flag)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    plan = str(jitted.source("plan")).splitlines()
    assert plan[1].split("#")[0].strip() == "r0 Control if flag:"
    nests = [line.strip() for line in plan if "ParallelNest" in line]
    assert len(nests) == 1 and nests[0].startswith("r1 ParallelNest i in range(out.shape[0]); reads -; writes out;")
    assert sum("numba.prange(" in line for line in jitted.source().splitlines()) == 1
