"""Compiled code draws from the caller's random streams (issue 36, class 8): after `np.random.seed(s)` /
`random.seed(s)` a jitted function draws the numbers the plain function draws, and the caller's next draws
continue the same stream (runtime/random_state.py). Numba's generators were its own: seeding did nothing."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil

# The draws whose stream is NumPy's (or CPython's) own; the others Numba draws by other algorithms
# (docs/semantics.md names them).
DRAWS = ["np.random.random()", "np.random.rand()", "np.random.randn()", "np.random.normal(1.0, 2.0)",
         "np.random.standard_normal()", "np.random.uniform(-1.0, 3.0)", "np.random.randint(0, 1000)",
         "np.random.exponential(2.0)", "np.random.poisson(3.0)", "np.random.binomial(10, 0.3)",
         "random.random()", "random.uniform(1.0, 2.0)", "random.randint(0, 100)", "random.expovariate(1.5)"]


def walk_source(draw: str) -> str:
    return f"def walk(n, scale):\n    x = np.zeros(n)\n    for i in range(1, n):\n" \
           f"        x[i] = x[i - 1] + {draw} * scale\n    return x\n"


@pytest.fixture(scope="module")
def walks():
    from tests.helpers import define

    return {d: cuvil.jit(define(walk_source(d), env={"np": np, "random": random})) for d in DRAWS}


@pytest.mark.parametrize("draw", DRAWS)
@settings(max_examples=5)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([4, 40]))
def test_a_seeded_call_draws_what_python_draws(walks, draw, seed, n):
    jitted = walks[draw]
    runs = []
    for fn in (jitted, jitted.py_func):
        np.random.seed(seed)
        random.seed(seed)
        results = [fn(n, 0.5), fn(n, 0.5), fn(n + 1, 0.5)]  # first call, guard hit, guard miss
        results.append(np.array([np.random.random(), random.random()]))  # the caller's streams go on alike
        runs.append(results)
    for compiled, plain in zip(*runs):
        np.testing.assert_array_equal(compiled, plain)


def draws_normals(n):
    out = np.empty(n)
    for i in range(n):
        out[i] = np.random.normal()
    return out


def test_the_cached_second_normal_is_shared_both_ways():
    """The polar method makes normals in pairs: an odd number drawn inside leaves one for the caller's next."""
    jitted = cuvil.jit(draws_normals)
    runs = []
    for fn in (jitted, draws_normals):
        np.random.seed(7)
        first = np.random.normal()  # leaves the pair's second in NumPy's cache, for the call to use
        runs.append([first, *fn(3), np.random.normal(), *fn(1), np.random.normal()])
    assert runs[0] == runs[1]
