"""cuvil.explain of a CUDA variant: a line per kernel with its PTX size and registers per thread (read from
numba-cuda after the first launch, runtime/cuda_runtime.kernel_sizes), placed after the variant's loops; and the
`cache` option reaching the generated module (numba-cuda's own disk cache off with cache=False)."""

from __future__ import annotations

import re

import numpy as np

import cuvil
from tests.cuda.backing import GPU
from tests.helpers import define
from tests.inspect.test_profile import AXPY


def test_explain_prints_the_kernel_ptx_after_the_loops():
    """On a GPU (bench/gpu_check.sh) numba-cuda's figures; the simulator compiles nothing, and says so."""
    fn = cuvil.jit(define(AXPY), target="cuda")
    x = np.ones(8)
    fn(2.0, x, x, np.empty(8))
    lines = str(cuvil.explain(fn)).splitlines()
    assert re.match(r"  loop r\d+ L2-L3: grid kernel axpy_k0", lines[-2]), lines[-2]
    if GPU:
        assert re.fullmatch(r"  kernel axpy_k0\(.*\): PTX \d+ bytes for cc \d+\.\d+, \d+ registers per thread",
                            lines[-1]), lines[-1]
    else:
        assert lines[-1] == "  kernels: no PTX sizes or registers on the CUDA simulator (it compiles nothing)"


def test_explain_prints_each_kernel_size_under_its_variant():
    fn = cuvil.jit(define(AXPY), target="cuda", dynamic=False)
    x, y = np.ones(8), np.ones(16)
    fn(2.0, x, x, np.empty(8))
    fn(2.0, y, y, np.empty(16))  # a guard miss: variant #2, printed first
    newest, first = fn._variants
    newest.impl.kernel_sizes = lambda: ["kernel axpy_k0(sig 2): PTX 2000 bytes for cc 9.0, 16 registers per thread"]
    first.impl.kernel_sizes = lambda: ["kernel axpy_k0(sig 1): PTX 1000 bytes for cc 9.0, 12 registers per thread"]
    text = str(cuvil.explain(fn))
    two, one = text.index("\nvariant #2"), text.index("\nvariant #1")
    assert two < text.index("  kernel axpy_k0(sig 2): PTX 2000 bytes") < one < text.index("  kernel axpy_k0(sig 1)")
    first.impl.kernel_sizes = lambda: 1 / 0  # a driver failing to answer: said, the explanation still prints
    assert "  kernels: PTX sizes unavailable (ZeroDivisionError: division by zero)" in str(cuvil.explain(fn))


def test_cache_option_reaches_numba_cuda():
    cached = cuvil.jit(define(AXPY), target="cuda").source("kernel")
    uncached = cuvil.jit(define(AXPY), target="cuda", cache=False)
    assert "_CACHE = _rt.disk_cache(__file__)" in cached and "_CACHE = False" not in cached
    assert "\n_CACHE = False  # cache=False: numba-cuda keeps no machine code either\n" in uncached.source("kernel")
    x = np.arange(8.0)
    out = uncached(2.0, x, x, np.empty(8))
    assert out.dtype == np.float64 and np.array_equal(out, 3.0 * x)
