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


def fill_either(out, v, flag):
    if flag:
        for i in range(out.shape[0]):
            out[i] = v
    else:
        for i in range(out.shape[0]):
            out[i] = -v
    return out


def test_both_branches_keep_their_nests_in_the_plan_text():
    """The else branch's regions are shown indented under its `else:` as the if branch's are (`_describe`)."""
    jitted = cuvil.jit(fill_either, parallel=True, dynamic=True)
    for flag in (True, False):
        got, want = jitted(np.zeros(40), 2.0, flag), fill_either(np.zeros(40), 2.0, flag)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    plan = [line.split("#")[0].rstrip() for line in str(jitted.source("plan")).splitlines()]
    nests = [line for line in plan if "ParallelNest" in line]
    assert [line[:len(line) - len(line.lstrip())] for line in nests] == ["      ", "      "]  # as deep
    assert any(line.strip() == "else:" for line in plan)
    assert sum("numba.prange(" in line for line in jitted.source().splitlines()) == 2
