"""Arrays made per iteration inside a `parallel=True` loop (cfg/raising.py): an allocation whose dims may be
negative, and a row stored into `out[i]` whose length may not fit, are tested before the statement, so the loop
stays parallel and raises NumPy's error of the first failing iteration after it. A loop over `range(n)` (not
the rows of an array, so not lower/row_loops.py's) of per-row softmax is the user's case."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.helpers import define


def _loops(fn) -> list[str]:
    return [w for w in fn.loops()[0] if not w.startswith("checks")]


def test_a_negative_dim_in_a_parallel_loop_raises_after_it():
    py = define("""
    def lengths(x, n):
        out = np.zeros(x.shape[0])
        for i in range(x.shape[0]):
            t = np.empty((n - i, 2))
            out[i] = t.shape[0]
        return out
    """, env={"np": np})
    fn = cuvil.jit(py, parallel=True)
    x = np.ones(30)
    for n in (40, 50):  # a first call, a guard hit
        np.testing.assert_array_equal(fn(x, n), py(x, n))
    assert _loops(fn)[0].startswith("lengths L3: parallel (raises after the loop")
    with pytest.raises(ValueError) as caught:
        fn(x, 10)
    assert str(caught.value) == "negative dimensions are not allowed"


def test_per_row_softmax_over_range_n_is_parallel_and_raises_numpys_errors():
    py = define("""
    def softmax(X, out, n):
        for i in range(n):
            row = X[i]
            e = np.exp(row - row.max())
            out[i] = e / e.sum()
        return out
    """, env={"np": np})
    fn = cuvil.jit(py, parallel=True)
    X = np.random.default_rng(0).standard_normal((40, 24))
    for n in (40, 17):  # a first call, a guard hit
        got, want = fn(X, np.zeros_like(X), n), py(X, np.zeros_like(X), n)
        np.testing.assert_allclose(got, want, rtol=1e-12)
    assert _loops(fn)[0].startswith("softmax L2: parallel")
    with pytest.raises(ValueError) as caught:  # rows of 24 into rows of 23
        fn(X, np.zeros((40, 23)), 5)
    with pytest.raises(ValueError) as expected:
        py(X, np.zeros((40, 23)), 5)
    assert str(caught.value) == str(expected.value)
    with pytest.raises(IndexError) as caught:  # past the end of out, after the rows it has
        fn(X, np.zeros((3, 24)), 5)
    with pytest.raises(IndexError) as expected:
        py(X, np.zeros((3, 24)), 5)
    assert str(caught.value) == str(expected.value)
