"""ParallelNest in the Plan's words (`jitted.source("plan")`): its range's extent as the user wrote it, and each
reduction's operator and dtype next to its own name, with a private temporary in the same loop (lower/plan.py
`_Builder.nest` and `_operator`: mutation testing found the extent, the operator of the right name, and a plain
assignment beside a reduction unchecked)."""

from __future__ import annotations

import numpy as np

import cuvil


def sums(x, n):
    s = 0.0
    p = 1.0
    for i in range(1, n):
        t = x[i] * 2.0
        s += t
        p *= x[i]
    return s, p


def test_a_nest_names_its_extent_and_each_reductions_operator_and_dtype():
    jitted = cuvil.jit(sums, parallel=True)
    x = np.arange(1.0, 9.0)
    assert jitted(x, 8) == (70.0, 40320.0)
    nests = [line.strip() for line in str(jitted.source("plan")).splitlines() if "ParallelNest" in line]
    assert len(nests) == 1
    assert nests[0].split(" ", 1)[1].startswith("ParallelNest i in range(1, n); reduce p * float64, s + float64; "
                                                "private t; reads x; writes -")  # after its region id
