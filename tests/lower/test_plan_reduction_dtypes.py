"""A parallel nest's reductions carry their dtype in the Plan (`reduce s + float32`): the one the types analysis
gave the variable, which is the dtype of the value Python computes, or "?" where the function was left to Numba's
typing (a helper whose result no name keeps is not typed). "?" is what the CUDA launcher reads as "no device
atomic" and keeps serial (codegen/launch.py), so the unknown dtype must keep that spelling.

Mutation testing found neither checked: lower/plan.py `_Builder.dtype` 9 (`None` for the "?" default) printed
"reduce c + None" and survived every plan test."""

from __future__ import annotations

import numpy as np
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import cuvil

from ..helpers import define

_TOTAL = define("""
    def total(x):
        s = 0.0
        for i in range(len(x)):
            s += x[i]
        return s
    """)

# `count` is called only for a value no name keeps, so the types analysis never types it: Numba's typing does.
_COUNTS = define("""
    def count(n):
        c = 0
        for i in range(n):
            c += 2
        return c

    def counts(a):
        return count(a.shape[0]) + count(3)
    """)


def _reductions(jitted) -> list[str]:
    return [line.split("; ")[1] for line in str(jitted.source("plan")).splitlines() if "ParallelNest" in line]


@settings(max_examples=8, deadline=None, phases=(Phase.generate,))  # no shrinking: each try compiles
@given(dtype=st.sampled_from(["float32", "float64", "int32", "int64", "uint8"]),
       values=st.lists(st.integers(0, 100), min_size=1, max_size=8))
def test_a_reduction_carries_the_dtype_of_what_python_computes(dtype, values):
    x = np.array(values, dtype=dtype)
    expected = _TOTAL(x)
    jitted = cuvil.jit(_TOTAL, parallel=True)
    got = jitted(x)
    assert got == expected and np.asarray(got).dtype == np.asarray(expected).dtype  # (a float64 comes back a float)
    assert _reductions(jitted) == [f"reduce s + {np.asarray(expected).dtype.name}"]


def test_a_reduction_in_a_helper_left_to_numbas_typing_has_an_unknown_dtype():
    a = np.arange(7.0)
    jitted = cuvil.jit(_COUNTS, parallel=True)
    assert jitted(a) == _COUNTS(a) == 20
    assert _reductions(jitted) == ["reduce c + ?"]
    assert jitted(np.arange(5.0)) == _COUNTS(np.arange(5.0)) == 16  # a guard miss (the static dim) plans it again
    assert _reductions(jitted) == ["reduce c + ?"]
