"""A name updated in place in a loop (`t += a[i]`) is a reduction only when it never holds an array: an array
so updated is one object every iteration writes, so the loop stays serial, and says why (cfg/dependence.py
`scalars`, through cfg/aliases.py `is_number`; found by mutation testing: nothing checked the refusal)."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from cuvil.testing import assert_matches

from .test_dependence import decisions, reasons

ARRAY_UPDATES = {
    "a fresh array": """
        def f(a):
            t = np.zeros(a.shape[1])
            for i in range(a.shape[0]):
                t OP a[i]
            return t
        """,
    "an array argument": """
        def f(a, t):
            for i in range(a.shape[0]):
                t OP a[i]
            return t
        """,
}


@pytest.mark.parametrize("op", ["+=", "-=", "*="])
@pytest.mark.parametrize("form", sorted(ARRAY_UPDATES))
def test_an_array_updated_in_place_is_no_reduction(form, op):
    source = ARRAY_UPDATES[form].replace("OP", op)
    assert reasons(source, ranks={"a": 2, "t": 1}) == ["'t' is updated in place and may be an array"]


@pytest.mark.parametrize("op", ["+=", "-=", "*="])
def test_a_number_updated_in_place_is_a_reduction(op):
    found = decisions(f"""
        def f(a):
            s = 1.0
            for i in range(a.shape[0]):
                s {op} a[i]
            return s
        """, ranks={"a": 1})
    assert [(d.parallel, d.reductions) for d in found] == [(True, ("s",))]


def accumulate(a, t):
    for i in range(a.shape[0]):
        t += a[i]
    return t


def test_rows_accumulated_into_an_array_match_python_under_parallel():
    jitted = cuvil.jit(accumulate, parallel=True)
    for rows in (5, 5, 7):  # a first call, a guard hit, a miss on a new shape
        a = np.arange(rows * 3.0).reshape(rows, 3)
        assert_matches(accumulate, {"cuvil": jitted}, a, np.ones(3))
    assert "serial" in cuvil.explain(jitted).loops[0][0]  # the lowering's in-place update runs in order
