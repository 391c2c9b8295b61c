"""Both ends of a declared range belong to it (cuvil/dims.py, runtime/policy.py `ranges` and `_fits`): a first
call at either end makes the variant that serves the whole range, and the sizes just outside are misses. Written
against surviving mutants of runtime/policy.py (`<` for `<=` at either end; tests/MUTATION.md)."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil


def total(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def _reasons(fn):
    return [e.reason for e in cuvil.explain(fn).compiles]


def _call(fn, n):
    x = np.arange(n, dtype=np.float64)
    got, want = fn(x), total(x)
    assert got == want  # (the type of a float loop sum is a known difference: np.float64 in Python)


@pytest.mark.parametrize("first", [2, 5], ids=["low-end-first", "high-end-first"])
def test_a_declared_range_includes_both_ends(first):
    jitted = cuvil.jit(total, dims={"x.shape[0]": (2, 5)})
    for n in (first, 7 - first, 3):  # a first call at one end, guard hits at the other end and inside
        _call(jitted, n)
    assert _reasons(jitted) == ["first call"]
    assert "2 <= x.shape[0] <= 5 (declared)" in cuvil.explain(jitted).guards[0]
    _call(jitted, 6)  # just past the high end: a miss
    assert _reasons(jitted)[1:] == ["x.shape[0]: 6 outside the declared range 2..5 (guard of variant #1)"]
    _call(jitted, 1)  # just below the low end: another
    assert len(_reasons(jitted)) == 3
