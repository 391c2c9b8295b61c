"""A bounds check whose index is itself checked arithmetic (`a[i + k]`, with Python-int overflow checks) records
the index when it fails; in a prange loop the recorded value kept its checked call, whose raise made Numba give up
parallelizing the loop (a NumbaPerformanceWarning reached the user and the loop ran serially). The recorded
values are unchecked like the conditions before them (a check earlier in the chain tested them)."""

from __future__ import annotations

import warnings

import numba
import numpy as np
import pytest

import cuvil
from tests.lower.compare import jitted

SHIFTED = """
def shifted(a, k):
    out = np.empty(a.shape[0] - 2)
    for i in range(a.shape[0] - 2):
        out[i] = a[i + k] * 2
    return out
"""


def test_checked_index_in_a_parallel_loop_stays_parallel():
    f = jitted(SHIFTED, parallel=True)
    a = np.arange(10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", numba.NumbaPerformanceWarning)
        for k in (0, 2, 1):  # first call, guard hit (same types), another k
            np.testing.assert_array_equal(f(a, k), f.py_func(a, k))
        with pytest.raises(IndexError) as got:
            f(a, 3)
    with pytest.raises(IndexError) as want:
        f.py_func(a, 3)
    assert str(got.value) == str(want.value)
    loop = next(line for line in str(cuvil.explain(f)).splitlines() if "loop shifted" in line)
    assert ": parallel" in loop, loop
