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


ARRAY_DRAWS = {
    "shuffle": "def f(n):\n    a = np.arange(n)\n    np.random.shuffle(a)\n    return a\n",
    "permutation": "def f(n):\n    return np.random.permutation(n) + np.random.permutation(np.arange(n) * 2)\n",
    "choice": "def f(n):\n    return np.random.choice(n, 5) + np.random.choice(np.arange(n), 3, replace=False).sum()\n",
    "sized": "def f(n):\n    return np.random.rand(n, 2) + np.random.normal(0.0, 1.0, (n, 1))"
             " + np.random.randint(0, 9, n)[:, None]\n",
    "python_shuffle": "def f(n):\n    a = np.arange(n)\n    random.shuffle(a)\n    return a\n",
}


@pytest.mark.parametrize("name", sorted(ARRAY_DRAWS))
@settings(max_examples=4)
@given(seed=st.integers(0, 2**32 - 1))
def test_seeded_array_draws_are_pythons(name, seed):
    from tests.helpers import define

    fn = define(ARRAY_DRAWS[name], env={"np": np, "random": random})
    jitted = cuvil.jit(fn)
    runs = []
    for f in (jitted, fn):
        np.random.seed(seed)
        random.seed(seed)
        runs.append([f(7), f(7), f(12)])
    for compiled, plain in zip(*runs):
        np.testing.assert_array_equal(compiled, plain)


def gamma_walk(n):
    x = np.zeros(n)
    for i in range(1, n):
        x[i] = x[i - 1] + np.random.gamma(2.0)
    return x


def test_a_draw_numba_makes_its_own_way_warns_at_its_line(monkeypatch, tmp_path):
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(tmp_path))  # it warns when it compiles, not on a warm start
    with pytest.warns(cuvil.CuvilWarning, match="np.random.gamma draws .* by Numba's algorithm") as caught:
        cuvil.jit(gamma_walk)(4)
    found = [w for w in caught if "np.random.gamma" in str(w.message)]
    assert found[0].filename == __file__ and found[0].lineno == gamma_walk.__code__.co_firstlineno + 3


@pytest.mark.parametrize(("source", "words", "line"), [
    ("def f(n):\n    g = np.random.default_rng(1)\n    return g.random(n)\n",
     "np.random.default_rng is not supported in compiled code (Numba does not implement it); seed NumPy's global", 2),
    ("def f(n):\n    a = np.arange(n)\n    return random.choice(a)\n",
     "random.choice is not supported in compiled code (Numba does not implement it); draw an index", 3),
    ("def f(n):\n    return np.random.nromal() * n\n",
     "module 'numpy.random' has no attribute 'nromal'; did you mean 'normal'?", 2),
    ("def f(n):\n    return np.sume(np.arange(n))\n", "module 'numpy' has no attribute 'sume'; did you mean 'sum'?",
     2),
])
def test_refused_generators_and_misspellings_say_what_to_write(source, words, line):
    from tests.helpers import define

    with pytest.raises(cuvil.CuvilTypeError) as raised:
        cuvil.jit(define(source, env={"np": np, "random": random}))(5)
    assert words in str(raised.value)
    assert raised.value.lineno == line
