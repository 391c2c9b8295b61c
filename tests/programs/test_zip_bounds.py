"""A loop over `zip(a, b)` reads `a[i]` and `b[i]` for i below `min(len(a), len(b))`: lower/checks.py proves
those reads in bounds (their checks cost the bench's dot product 5.7x when they were not: zip's loops stop at
`min(...)`)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


DOT = cuvil.jit(dot)


@settings(max_examples=25)
@given(n=st.integers(0, 6), m=st.integers(0, 6))
def test_zip_reads_are_pythons(n, m):
    a, b = np.arange(n, dtype=np.float64) + 0.5, np.arange(m, dtype=np.int64)
    for args in ((a, b), (a, b), (a.astype(np.float32), b)):  # first call, guard hit, guard miss
        got, expected = DOT(*args), dot(*args)
        # float or np.float64: which one CPython gives depends on whether the loop ran (docs/semantics.md)
        assert got == expected and isinstance(got, float)


def test_zip_reads_are_proved_in_bounds():
    DOT(np.ones(3), np.ones(4))
    kernel = DOT.source(stage="kernel")
    assert "x = a[_i0]" in kernel and "index(" not in kernel

