"""The probes behind a GPU's roofs (inspect/peaks.device_peaks): what a numba.cuda kernel reaches on this device,
timed by CUDA events, not the datasheet's figures.

Bandwidth: a grid-stride copy of 2 × 2**27 float32 (1 GiB moved per pass, far beyond any L2), four loads in
flight per thread, best of a few passes. FLOPs: each thread runs four independent multiply-add chains (eight
FLOPs per iteration) on registers, float32 and float64, enough threads to fill every multiprocessor several
times over, the iteration count grown until a pass takes 20 ms. About a second on a data-centre GPU, most of it
compiling the two kernels.

On the simulator every thread runs as Python: the same kernels run on a few hundred elements, timed by the host
clock (the simulator's events record no time), so that the code path is the GPU's; the figures mean nothing.
Importing this module imports numba.cuda (the simulator swaps the module-level name `cuda` in its kernels).
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda

COPY_ELEMENTS = 1 << 27  # float32: 512 MiB read and 512 MiB written per pass
SIM_ELEMENTS = 256
FMA_ITERATIONS = 1024
MIN_SECONDS = 0.02
BLOCK = 256

# ruff: noqa: ANN001 (kernels are typed by Numba at each launch)


def device_id() -> str:
    """The device's name, compute capability and UUID (or "simulator"): cached roofs are reused only on the same
    device."""
    from ..runtime import cuda_runtime

    cuda_runtime.require()
    if cuda_runtime.simulator() or cuda_runtime._is_sim():
        return "simulator"
    device = cuda.get_current_device()
    name = device.name.decode() if isinstance(device.name, bytes) else str(device.name)
    text = f"{name}|{device.compute_capability}|{getattr(device, 'uuid', '')}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def measure() -> Any:
    from ..runtime import cuda_runtime
    from .peaks import Peaks

    simulated = cuda_runtime.simulator() or cuda_runtime._is_sim()
    sms = 1 if simulated else cuda.get_current_device().MULTIPROCESSOR_COUNT
    copy, fma = _kernels()
    n = SIM_ELEMENTS if simulated else COPY_ELEMENTS
    src = cuda.to_device(np.ones(n, np.float32))
    dst = cuda.device_array(n, np.float32)
    blocks = min((n + BLOCK - 1) // BLOCK, 32 * sms)
    seconds = _best(lambda: copy[blocks, BLOCK](dst, src), simulated)
    bandwidth = 2 * 4 * n / seconds / 1e9
    gflops = {}
    threads = SIM_ELEMENTS if simulated else 8 * 2048 * sms  # eight times what the device holds resident
    grid = (threads + BLOCK - 1) // BLOCK
    for dtype in (np.float32, np.float64):
        out = cuda.to_device(np.ones(threads, dtype))
        one, small = dtype(0.999), dtype(0.001)
        iterations = 4 if simulated else FMA_ITERATIONS

        def run(k: int, out: Any = out, one: Any = one, small: Any = small) -> Callable[[], None]:
            return lambda: fma[grid, BLOCK](out, k, one, small)

        while not simulated and _best(run(iterations), False, tries=1) < MIN_SECONDS:
            iterations *= 4
        seconds = _best(run(iterations), simulated)
        gflops[np.dtype(dtype).name] = 8 * threads * iterations / seconds / 1e9
    return Peaks(device_id(), sms, {"1": bandwidth, "all": bandwidth},
                 {f"{d}/{w}": v for d, v in gflops.items() for w in ("1", "all")})


def elapsed(run: Callable[[], None], simulated: bool) -> float:
    """Seconds `run`'s launches take on the device: CUDA events around them (the host clock on the simulator,
    where launches are synchronous and events record nothing)."""
    if simulated:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start
    begin, end = cuda.event(), cuda.event()  # timing on by default
    begin.record()
    run()
    end.record()
    end.synchronize()
    return begin.elapsed_time(end) / 1e3


def _best(run: Callable[[], None], simulated: bool, tries: int = 5) -> float:
    run()  # compiles
    return min(elapsed(run, simulated) for _ in range(1 if simulated else tries))


@functools.cache
def _kernels() -> tuple[Any, Any]:
    @cuda.jit(fastmath=True)
    def copy(dst, src):  # pragma: no cover (runs on the device)
        # Four loads in flight before the first store (codegen/cuda_jam.py's form): one load per thread at a
        # time leaves an H200 at about a third of its bandwidth, and the roof would flatter every kernel.
        n, s = src.shape[0], cuda.gridsize(1)
        i = cuda.grid(1)
        while i + 3 * s < n:
            a, b, c, d = src[i], src[i + s], src[i + 2 * s], src[i + 3 * s]
            dst[i], dst[i + s], dst[i + 2 * s], dst[i + 3 * s] = a, b, c, d
            i += 4 * s
        while i < n:
            dst[i] = src[i]
            i += s

    @cuda.jit(fastmath=True)
    def fma(out, iterations, one, small):  # pragma: no cover
        i = cuda.grid(1)
        if i < out.shape[0]:
            a = out[i]
            b, c, d = a + small, a - small, a * one
            for _ in range(iterations):  # four independent chains: the multiply-add units, not latency, bound
                a = a * one + small
                b = b * one + small
                c = c * one + small
                d = d * one + small
            out[i] = a + b + c + d

    return copy, fma
