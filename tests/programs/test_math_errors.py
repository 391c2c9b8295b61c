"""`math` on numbers raises as CPython does (issue 10 §3, runtime/pymath.py): domain errors are
ValueError("math domain error"), overflow OverflowError("math range error"), NaN and infinities pass through as
CPython passes them; the same in a parallel loop, where the first failing iteration's error is raised."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.library.numpy import DOMAINS
from cuvil.testing import assert_matches
from tests.helpers import define

EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 709.782712893384, 709.7827128933841, 710.4758600739439,
         710.475860073944, -710.475860073944, 1000.0, -1000.0, math.inf, -math.inf, math.nan, -1e-300, 1e300]
VALUES = st.sampled_from(EDGES) | st.floats(allow_nan=True, allow_infinity=True)


@pytest.fixture(scope="module", params=sorted(DOMAINS))
def name(request):
    return request.param


def _scalar(name: str):
    return cuvil.jit(define(f"def f(x):\n    return math.{name}(x)\n", env={"math": math}))


def _loop(name: str):
    source = f"def g(a, out):\n    for i in range(len(a)):\n        out[i] = math.{name}(a[i])\n    return out\n"
    return cuvil.jit(define(source, env={"math": math}), parallel=True)


_SCALAR = {n: _scalar(n) for n in DOMAINS}
_LOOP = {n: _loop(n) for n in DOMAINS}


@settings(max_examples=25)
@given(x=VALUES)
def test_math_on_a_float_is_cpythons(name, x):
    assert_matches(_SCALAR[name].py_func, {"cuvil": _SCALAR[name]}, x)


@pytest.mark.parametrize("x", [-3, 0, 1, 2])
def test_math_on_an_int_is_cpythons(name, x):
    assert_matches(_SCALAR[name].py_func, {"cuvil": _SCALAR[name]}, x)


@pytest.mark.filterwarnings("error::numba.core.errors.NumbaPerformanceWarning")  # Numba runs it in parallel
@settings(max_examples=15)
@given(values=st.lists(VALUES, min_size=0, max_size=40))
def test_parallel_loop_raises_the_first_failing_iterations_error(name, values):
    a = np.array(values, dtype=np.float64)
    jitted = _LOOP[name]
    assert_matches(jitted.py_func, {"cuvil": jitted}, a, np.zeros(len(a)))
    assert "parallel" in cuvil.explain(jitted).loops[0][0]
