"""The ranks cfg/aliases.py gives names bound in the function (`_rank`): only a name of rank 0 is a number,
and only a number updated in place is a reduction. A rank too low makes a row a number (a race under `prange`),
a rank lost makes a number an array (a loop left serial). Written against surviving mutants of cfg/aliases.py
(tests/MUTATION.md)."""

from __future__ import annotations

import numpy as np

import cuvil

from .test_dependence import decisions, reasons


def test_a_negated_number_is_still_a_number():
    found = decisions("""
        def f(a, k):
            s = -k
            for i in range(a.shape[0]):
                s += a[i]
            return s
        """, ranks={"a": 1, "k": 0})
    assert [(d.parallel, d.reductions) for d in found] == [(True, ("s",))]


def test_an_allocation_of_unknown_rank_is_no_vector():
    """`np.zeros(shape)` with `shape` a tuple: a row of it is an array, which every iteration updates in place
    (by a number: the row's rank alone tells it from a reduction)."""
    assert reasons("""
        def f(a, shape):
            t = np.zeros(shape)
            s = t[0]
            for i in range(a.shape[0]):
                s += a[i]
            return s
        """, ranks={"a": 1}) == ["'s' is updated in place and may be an array"]


def rows_into_first_row(a, shape):
    t = np.zeros(shape)
    s = t[0]
    for i in range(a.shape[0]):
        s += a[i]
    return t


def test_rows_summed_into_a_row_of_a_fresh_array_match_python_under_parallel():
    jitted = cuvil.jit(rows_into_first_row, parallel=True)
    for rows in (40, 40, 41):  # a first call, a guard hit, a miss on a new shape
        a = np.arange(rows * 1.0)
        got, want = jitted(a, (2, 3)), rows_into_first_row(a, (2, 3))
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
