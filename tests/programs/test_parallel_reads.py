"""`parallel=True` with an output that is a view of an input read through a tuple or a comparison: the run-time
overlap check must see those reads (they were missed, and the loop raced: 3 runs in 5 wrong at 200,000 on 2
threads)."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.helpers import define

BODIES = {
    "tuple": "v, w = a[i + 1], b[i]\n        out[i] = v * w",
    "comparison": "out[i] = 1.0 if b[i] < a[i + 1] else 0.0",  # a raced read sees 1.0, not the old a[i + 1]
}


@pytest.mark.parametrize("name", sorted(BODIES))
def test_an_output_overlapping_an_input_read_in_a_tuple_or_comparison_runs_serially(name):
    fn = define(f"def f(a, b, out):\n    for i in range(len(a) - 1):\n        {BODIES[name]}\n    return out\n")
    jitted = cuvil.jit(fn, parallel=True)
    for n in (200_000, 200_000, 200_000, 200_000, 200_001):  # first call, guard hits, a miss: a race shows in most
        x, y = np.arange(n, dtype=np.float64) - 50.0, np.arange(n, dtype=np.float64) - 50.0
        b = np.full(n, 2.0)
        np.testing.assert_array_equal(jitted(y, b, y), fn(x, b, x))  # out is a itself
