"""The cost model against hand counts of the bench kernels (bench/kernels/), every dim dynamic.

Hand counts (n: elements, R×C: rows × columns, N points in D dims, S steps), FLOPs as inspect/cost.py counts
them (one per arithmetic operator on data, per math call, per data comparison; casts and index arithmetic
none) and bytes as compulsory streaming traffic (each element of the part of an array the loops index, once
per pass):

  gelu        0.5*v * (1.0 + tanh(0.79*(v + 0.044*v*v*v)))  9 per element: 3 in v*v*v*0.044, +v, *0.79, tanh,
              +1.0, *0.5, *(...) → 9n; reads x 4n, writes out 4n (float32)
  gelu_np     the same expression as arrays (x ** 3 becomes x*x*x) → 9n; 4n / 4n
  chain3      (a + b) * c - a → 3n; reads a, b, c 24n, writes the result 8n
  total       s += x → n; reads 8n
  dot         s += x * y → 2n; reads 16n
  softmax     per row: max over C-1 columns (C-1), exp(x - m) and s += e (3C), out / s (C) → R(5C - 1);
              reads x and out (out / s reads it back) 8RC, writes out 4RC
  softmax_np  per row: max over C (C), exp(x - m) (2C), the sum (C), the division (C) → 5RC; reads x and the
              result 8RC, writes the result 4RC
  stencil     per step 0.25*u[i-1] + 0.5*u[i] + 0.25*u[i+1] over n-2 points (5 each) and a copy →
              5S(n-2); each step reads u and tmp and writes tmp and u over n-2 points: 16S(n-2) / 16S(n-2)
  pairwise    per pair: D × (t = p - q, t*t, d +=) and sqrt → N²(3D + 1); reads points 8ND, writes out 8N²
  small_call  x[0] + y[0] → 1; reads one element of x and of y 16, writes one of out 8
"""

from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest

import cuvil
from cuvil.inspect.cost import cost_of
from cuvil.inspect.symbolic import Poly, symbol_values
from cuvil.inspect.variants import plans_for

# kernel → (args, FLOPs, bytes read, bytes written) for those args
n, R, C, N, D, S = 1000, 6, 50, 40, 3, 7
HAND = {
    "gelu": (lambda: (np.ones(n, np.float32), np.ones(n, np.float32)), 9 * n, 4 * n, 4 * n),
    "gelu_np": (lambda: (np.ones(n, np.float32),), 9 * n, 4 * n, 4 * n),
    "chain3": (lambda: (np.ones(n), np.ones(n), np.ones(n)), 3 * n, 24 * n, 8 * n),
    "total": (lambda: (np.ones(n),), n, 8 * n, 0),
    "dot": (lambda: (np.ones(n), np.ones(n)), 2 * n, 16 * n, 0),
    "softmax": (lambda: (np.ones((R, C), np.float32), np.ones((R, C), np.float32)), R * (5 * C - 1), 8 * R * C,
                4 * R * C),
    "softmax_np": (lambda: (np.ones((R, C), np.float32),), 5 * R * C, 8 * R * C, 4 * R * C),
    "stencil": (lambda: (np.ones(n), S, np.ones(n)), 5 * S * (n - 2), 16 * S * (n - 2), 16 * S * (n - 2)),
    "pairwise": (lambda: (np.ones((N, D)), np.ones((N, N))), N * N * (3 * D + 1), 8 * N * D, 8 * N * N),
    "small_call": (lambda: (np.ones(4), np.ones(4), np.ones(4)), 1, 16, 8),
}
SYMBOLIC = {
    "gelu": ("9*x.shape[0]", "4*x.shape[0]", "4*x.shape[0]"),
    "softmax": ("5*x.shape[0]*x.shape[1] - x.shape[0]", "8*x.shape[0]*x.shape[1]", "4*x.shape[0]*x.shape[1]"),
    "dot": ("2*(min(a.shape[0], b.shape[0]))", "16*(min(a.shape[0], b.shape[0]))", "0"),
    "pairwise": ("3*points.shape[0]**2*points.shape[1] + points.shape[0]**2", "8*points.shape[0]*points.shape[1]",
                 "8*points.shape[0]**2"),
}


def _cost(name, parallel):
    module = importlib.import_module(f"bench.kernels.{name}")
    fn = cuvil.jit(getattr(module, name), parallel=parallel)
    args = HAND[name][0]()
    return cost_of(plans_for(fn, args)), dict(zip(fn._names, args))


def _totals(found, params):
    polys = (found.flops, sum((r.read for r in found.regions), Poly()), sum((r.written for r in found.regions), Poly()))
    values = symbol_values(set().union(*(p.symbols for p in polys)), params)
    return tuple(p.evaluate(values) for p in polys)


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("name", sorted(HAND))
def test_cost_of_bench_kernels_equals_hand_counts(name, parallel):
    found, params = _cost(name, parallel)
    assert _totals(found, params) == HAND[name][1:]
    assert all(r.exact for r in found.regions)


@pytest.mark.parametrize("name", sorted(SYMBOLIC))
def test_cost_is_an_expression_in_the_symbolic_dims(name):
    found, _ = _cost(name, True)
    (region,) = [r for r in found.regions if r.flops.terms]
    assert (str(region.flops), str(region.read), str(region.written)) == SYMBOLIC[name]


def test_escape_time_while_loop_makes_an_estimate():
    from bench.kernels import escape_time

    fn = cuvil.jit(escape_time.escape_time)
    found = cost_of(plans_for(fn, (20, 10, 50, np.zeros((10, 20), np.int64))))
    (region,) = [r for r in found.regions if r.flops.terms]
    lines, first = inspect.getsourcelines(escape_time.escape_time)
    loop = first + next(k for k, text in enumerate(lines) if text.strip().startswith("while "))
    assert not region.exact and f"trips(L{loop})" in region.flops.symbols
    assert str(region.written) == "8*height*width"
    assert "(estimate)" in str(found)


def test_intensity_and_printing():
    found, params = _cost("gelu", True)
    (region,) = [r for r in found.regions if r.flops.terms]
    assert region.intensity(symbol_values(region.flops.symbols, params)) == 9 / 8
    line = "  r2 ParallelNest L17-L19: 9*x.shape[0] FLOPs; 4*x.shape[0] / 4*x.shape[0] bytes"  # r1: the checked copy
    assert str(found).splitlines()[1] == line
