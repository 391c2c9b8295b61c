"""The cost model against hand counts of bench/kernels/bf16_axpy (the one bench kernel test_cost.py's table
leaves out), in both forms the bench runs: float32 arrays (plain Python's form) and bfloat16 storage
(`precision="bf16"`, torch bf16 tensors, arithmetic in float32).

Hand count, n elements: `out[i] = a * x[i] + y[i]` is 2 FLOPs per element → 2n; reads x and y, writes out, each
element once: float32 8n / 4n; bfloat16 (2-byte storage) 4n / 2n."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from bench.kernels import bf16_axpy
from cuvil.inspect.cost import cost_of
from cuvil.inspect.variants import plans_for
from tests.inspect.test_cost import _totals

N = 1000


def _counts(args, parallel, precision=None):
    fn = cuvil.jit(bf16_axpy.bf16_axpy, parallel=parallel, precision=precision)
    found = cost_of(plans_for(fn, args))
    assert all(r.exact for r in found.regions)
    return _totals(found, dict(zip(fn._names, args)))


@pytest.mark.parametrize("parallel", [False, True])
def test_float32_form_equals_the_hand_count(parallel):
    args = bf16_axpy.args(N / 10_000_000)
    assert len(args[1]) == N and args[1].dtype == np.float32
    assert _counts(args, parallel) == (2 * N, 8 * N, 4 * N)


def test_bfloat16_storage_form_equals_the_hand_count():
    pytest.importorskip("torch")
    args = bf16_axpy.torch_args(*bf16_axpy.args(N / 10_000_000))
    assert _counts(args, False, "bf16") == (2 * N, 4 * N, 2 * N)
