"""cuvil.explain reports per variant how many of Python's error checks were emitted and how many the plan
removed (issue 10 §4). The counts are hand-derived from the function below, one per index and per Python-int
operation."""

import numpy as np

import cuvil
from tests.helpers import define

GATHER = define("""
def gather(x, idx, n):
    s = 0.0
    c = 0
    for i in range(x.shape[0]):
        s += x[i] * x[idx[i]]
        c += 1
    return s, n * n, c
""")


def test_explain_counts_each_kind_of_check():
    fn = cuvil.jit(GATHER, dynamic=True)
    x, idx = np.arange(6.0), np.array([5, 0, 1, 2, 3, 4])
    assert fn(x, idx, 7) == GATHER(x, idx, 7)
    text = str(cuvil.explain(fn))
    # x[i]: proved (i runs over x.shape[0]); idx[i]: hoisted (its extremes checked once before the loop);
    # x[idx[i]]: checked at each access. n * n: checked; c += 1: a counter, elided.
    assert "checks gather: 1 index checks, 1 hoisted out of loops, 1 proved in bounds and removed; " \
           "1 Python-int checks, 1 proved unneeded and removed" in text
    unchecked = cuvil.jit(GATHER, dynamic=True, boundscheck=False, overflow="wrap")
    unchecked(x, idx, 7)
    assert "checks gather" not in str(cuvil.explain(unchecked))
