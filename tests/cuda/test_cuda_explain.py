"""cuvil.explain of a CUDA variant: a line per kernel with its PTX size and registers per thread (read from
numba-cuda after the first launch, runtime/cuda_runtime.kernel_sizes), placed after the variant's loops; and the
`cache` option reaching the generated module (numba-cuda's own disk cache off with cache=False)."""

from __future__ import annotations

import numpy as np

import cuvil
from cuvil.runtime import cuda_runtime
from tests.helpers import define

AXPY = """
def axpy(a, x, y, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i]
    return out
"""


def test_explain_says_the_simulator_has_no_ptx_after_the_loops():
    fn = cuvil.jit(define(AXPY), target="cuda")
    x = np.ones(8)
    fn(2.0, x, x, np.empty(8))
    lines = str(cuvil.explain(fn)).splitlines()
    assert lines[-1] == "  kernels: no PTX sizes or registers on the CUDA simulator (it compiles nothing)"
    assert lines[-2].startswith("  loop r1 L2-L3: grid kernel axpy_k0")


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


class _Compiled:
    regs_per_thread = 24

    def inspect_asm(self, cc):
        return "//" + "x" * 98  # 100 bytes of PTX


class _Dispatcher:
    def __init__(self):
        self.overloads = {("float64[::1]", "int64"): _Compiled()}


def test_kernel_sizes_lists_the_module_kernels_not_its_device_functions():
    names = {"CUVIL_KERNELS": {"f_k0": ("grid", "r1", 2, 3)}, "f_k0": _Dispatcher(), "helper": _Dispatcher()}
    cc = ".".join(map(str, cuda_runtime.cuda.get_current_device().compute_capability))
    assert cuda_runtime.kernel_sizes(names) == [
        f"kernel f_k0('float64[::1]', 'int64'): PTX 100 bytes for cc {cc}, 24 registers per thread"]
    assert cuda_runtime.kernel_sizes({"helper": _Dispatcher()}) == []


def test_cache_option_reaches_numba_cuda():
    cached = cuvil.jit(define(AXPY), target="cuda").source("kernel")
    uncached = cuvil.jit(define(AXPY), target="cuda", cache=False)
    assert "_CACHE = _rt.disk_cache(__file__)" in cached and "_CACHE = False" not in cached
    assert "\n_CACHE = False  # cache=False: numba-cuda keeps no machine code either\n" in uncached.source("kernel")
    x = np.arange(8.0)
    out = uncached(2.0, x, x, np.empty(8))
    assert out.dtype == np.float64 and np.array_equal(out, 3.0 * x)
