"""An allocation in the plan's words (lower/plan.py `Alloc`): its dtype and its shape as written, a tuple kept as
it is and a single extent made a tuple — `float64(n, 3)`, `int8(n,)` — as NumPy spells a shape (a mutant that
wrapped every shape in a tuple again, `((n, 3),)`, failed no test; so did two that lost every region's lines;
tests/MUTATION.md)."""

from __future__ import annotations

import numpy as np

import cuvil


def make(n):
    out = np.zeros((n, 3))
    flags = np.zeros(n, np.int8)
    for i in range(n):
        out[i, 0] = i
        flags[i] = 1
    return out, flags


def test_the_plan_spells_each_allocation_as_numpy_spells_its_shape():
    jitted = cuvil.jit(make, parallel=True, dynamic=True)
    for n in (20, 21):  # a first call and a guard hit
        for got, want in zip(jitted(n), make(n), strict=True):
            assert (got.dtype, got.shape) == (want.dtype, want.shape)
            np.testing.assert_array_equal(got, want)
    allocs = [line.split(" Alloc ")[1].split("#")[0].strip() for line in str(jitted.source("plan")).splitlines()
              if " Alloc " in line]
    assert allocs == ["out: float64(n, 3)", "flags: int8(n,)"]
    first = make.__code__.co_firstlineno  # and each region names the user's lines it covers
    where = [line.split("#")[1].strip() for line in str(jitted.source("plan")).splitlines()[1:] if "#" in line]
    # each allocation follows the check of its dims (n may be negative: lower/library_raises.py), at its line;
    # the loop is the test of its indices (lower/checks.py), its checked copy and the parallel nest
    assert where == [f"L{first + 1}", f"L{first + 1}", f"L{first + 2}", f"L{first + 2}", f"L{first + 3}-L{first + 5}",
                     f"L{first + 3}-L{first + 5}", f"L{first + 3}-L{first + 5}", f"L{first + 6}"]
