"""Chains of array statements that fusion merges (lower/fuse.py) compute what NumPy computes, statement by
statement: a row softmax, layer-norm-style mean and variance, GELU with `x ** 3`, a 3-op chain, a temporary that
is used again later (it must be kept), a name rebound. Each runs serially and under `parallel=True`, and on one
dispatcher across shapes that change between calls (first call with static dims, guard hit, guard miss with
dims made dynamic)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import cuvil
from tests.lower.compare import WIDE, arrays, assert_like_numpy, jitted, shapes

CHAINS = {
    "softmax": """
def softmax(x):
    m = np.max(x, axis=1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=1, keepdims=True)
""",
    "softmax_methods": """
def softmax_methods(x):
    m = x.max(axis=-1, keepdims=True)
    e = np.exp(x - m)
    s = e.sum(axis=-1, keepdims=True)
    out = e / s
    return out
""",
    "layernorm": """
def layernorm(x):
    mu = np.mean(x, axis=-1, keepdims=True)
    d = x - mu
    var = np.mean(d * d, axis=-1, keepdims=True)
    return d / np.sqrt(var + 1e-5)
""",
    "gelu": """
def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))
""",
    "chain3": """
def chain3(x):
    t = x * 1.5
    u = t + x
    return np.exp(-u) * 2.0
""",
    "center": """
def center(x):
    return x - x.mean()
""",
    "variance": """
def variance(x):
    m = np.mean(x, axis=0, keepdims=True)
    return np.mean((x - m) ** 2, axis=0)
""",
    "kept_temporary": """
def kept_temporary(x):
    t = x * 2.0
    u = t + 1.0
    return u, t
""",
    "rebound": """
def rebound(x):
    t = x * 2.0
    t = t + x
    t = np.sqrt(t * t)
    return t
""",
}
PARALLEL = ["softmax", "gelu"] + (["layernorm", "chain3"] if WIDE else [])


def _x(dtype: str, ndim: int) -> st.SearchStrategy[np.ndarray]:
    """Finite values: NaN and inf in reductions are test_reductions.py's."""
    return shapes(ndim).flatmap(lambda s: arrays(dtype, s, special=False))


@pytest.mark.parametrize("name", list(CHAINS))
@settings(max_examples=20)
@given(data=st.data())
def test_chain_matches_numpy(name, data):
    x = data.draw(_x("float32", 1 if name == "gelu" else 2))
    if name == "layernorm":  # a near-constant row: test_float32_layernorm_of_a_constant_row_is_exact
        assume(x.size == 0 or np.all(np.ptp(x.astype(np.float64), axis=-1) > 1e-3 * np.abs(x).max(initial=1.0)))
    assert_like_numpy(jitted(CHAINS[name], dynamic=True), x, reduced=x)


@pytest.mark.parametrize("value", [5461.921, 0.1, -3.0e7])
def test_float32_layernorm_of_a_constant_row_is_exact(value):
    """Lowering finding 18, kept deliberately: a float32 mean accumulates in float64 and rounds once, so the mean
    of a constant row is the value itself and the normalized row 0, where NumPy's float32 sum rounds and leaves
    (x - mean) / sqrt(var + eps) at noise of either sign (0.15 for three of 5461.921)."""
    x = np.full((2, 3), value, np.float32)
    got = jitted(CHAINS["layernorm"], dynamic=True)(x)
    assert got.dtype == np.float32 and got.shape == (2, 3)
    np.testing.assert_array_equal(got, np.zeros((2, 3), np.float32))


@pytest.mark.parametrize("name", PARALLEL)
@settings(max_examples=20)
@given(data=st.data())
def test_chain_matches_numpy_in_parallel(name, data):
    x = data.draw(_x("float64", 1 if name == "gelu" else 2))
    assert_like_numpy(jitted(CHAINS[name], dynamic=True, parallel=True), x, reduced=x)


@pytest.mark.parametrize("name", ["softmax", "layernorm"])
def test_chain_across_shapes_on_one_dispatcher(name):
    """First call (static dims), guard hit, a miss on dim 0, a miss on dim 1, a hit on the fully dynamic variant;
    size-1 and 0-size dims among them."""
    fn = cuvil.jit(jitted(CHAINS[name]).py_func)
    rng = np.random.default_rng(0)
    calls = [((4, 5), 1), ((4, 5), 1), ((3, 5), 2), ((2, 7), 3), ((6, 1), 3), ((1, 6), 3), ((0, 3), 3)]
    for shape, compiles in calls:
        x = rng.standard_normal(shape).astype(np.float32)
        assert_like_numpy(fn, x, reduced=x)
        assert len(cuvil.explain(fn).compiles) == compiles, shape


def test_gelu_across_lengths():
    fn = cuvil.jit(jitted(CHAINS["gelu"]).py_func)
    for n, compiles in [(7, 1), (7, 1), (1, 2), (0, 2), (33, 2)]:
        x = np.linspace(-4, 4, n, dtype=np.float32)
        assert_like_numpy(fn, x)
        assert len(cuvil.explain(fn).compiles) == compiles, n


# -- the Plan -------------------------------------------------------------------------------------------------


def _regions(fn, kind: str) -> list[str]:
    return [line for line in fn.source("plan").splitlines() if f" {kind} " in line]


def test_row_softmax_is_one_parallel_nest_without_temporaries():
    """Five NumPy statements' worth of passes become one loop over rows; the only array made is the result."""
    fn = jitted(CHAINS["softmax"], dynamic=True, parallel=True)  # the variant the property test compiled
    x = np.random.default_rng(1).standard_normal((8, 16))
    assert_like_numpy(fn, x)
    nests, allocs = _regions(fn, "ParallelNest"), _regions(fn, "Alloc")
    assert len(nests) == 1 and len(allocs) == 1, fn.source("plan")
    output = allocs[0].split(" Alloc ")[1].split(":")[0]
    assert f"writes {output}" in nests[0] and "reads x" in nests[0]
    assert len(re.findall(r"\bempty(?:_like)?\(", fn.source())) == 1  # np.empty or runtime/pages.py's


@pytest.mark.parametrize(("source", "reduces"), [
    ("def scale(a, b):\n    return a * b + 1.0\n", False),
    ("def rows(a, b):\n    return np.sum(a, axis=1)\n", False),
    ("def total(a, b):\n    return np.sum(a * b)\n", True),
])
def test_parallel_code_is_a_parallel_nest(source, reduces):
    fn = jitted(source, parallel=True)
    x = np.ones((3, 4), np.float32)
    assert_like_numpy(fn, x, x)
    nests = _regions(fn, "ParallelNest")
    assert len(nests) == 1, fn.source("plan")
    assert ("reduce " in nests[0]) == reduces


def test_serial_code_has_no_parallel_nest():
    fn = jitted("def scale(a, b):\n    return a * b + 1.0\n")
    x = np.ones((3, 4), np.float32)
    assert_like_numpy(fn, x, x)
    assert not _regions(fn, "ParallelNest") and len(_regions(fn, "Alloc")) == 1


# -- regressions: each a class of bug found here ----------------------------------------------------------


@pytest.mark.parametrize("source", [
    "def spread(x):\n    return np.max(x, axis=1) - np.min(x, axis=1)\n",
    "def unit_rows(x):\n    n = np.sqrt(np.sum(x * x, axis=1, keepdims=True))\n    return x / n\n",
])
def test_two_row_reductions_combined_with_dynamic_dims(source):
    """Finding 13: the variant a guard miss compiles (dynamic dims) read the shape of a scalarized temporary."""
    assert_like_numpy(jitted(source, dynamic=True), np.arange(12.0).reshape(3, 4))
