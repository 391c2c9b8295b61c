"""This machine's roofs, measured: memory bandwidth (a STREAM triad) and FLOP rate (FMA chains in cache), each on
one thread and on all of Numba's threads, float32 and float64. Measured once per machine (about 2 s, most of it
compiling the probes) and kept in the cache root as `peaks-<machine>.json`; `measure(force=True)` measures again.

The probes are what a compiled loop can reach, not the datasheet's numbers: the triad streams arrays 8× larger
than a typical last-level cache, and the FLOP probe runs independent multiply-adds that LLVM vectorizes (with
fastmath, as a peak needs). A kernel above its roof means the probe was disturbed; the profile says so.

A GPU's roofs (`device_peaks`) are measured the same way on the device, timed by CUDA events: a streaming copy
(read once, write once) for the bandwidth and independent multiply-add chains for float32 and float64, kept as
`peaks-cuda-<device>.json`. On the simulator they are measured too (on a few hundred threads run as Python)
so that the code path is the one a GPU takes; its figures mean nothing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

import numpy as np

TRIAD_ELEMENTS = 1 << 23  # 8M float64: 64 MB per array, 192 MB per pass
FLOP_CHUNK = 512  # elements per thread's chunk: in L1
FLOP_ITERATIONS = 4000
MIN_SECONDS = 0.03  # each FLOP probe runs at least this long


@dataclasses.dataclass(frozen=True)
class Peaks:
    machine: str
    threads: int  # Numba's threads when measured
    bandwidth: dict[str, float]  # GB/s, "1" (one thread) and "all"
    gflops: dict[str, float]  # "float32/1", "float32/all", "float64/1", "float64/all"

    def roof(self, dtype: str, parallel: bool) -> tuple[float, float]:
        """(GFLOP/s, GB/s) for a kernel computing in `dtype`, on all threads if `parallel`."""
        width = "all" if parallel else "1"
        kind = "float32" if dtype in ("float32", "float16", "bfloat16") else "float64"
        return self.gflops[f"{kind}/{width}"], self.bandwidth[width]


def machine_id() -> str:
    """The CPU model, core count and host: a cached measurement is reused only on the same machine."""
    model = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    text = f"{platform.node()}|{model}|{os.cpu_count()}|{platform.machine()}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def peaks(force: bool = False) -> Peaks:
    """The cached peaks of this machine, measured first if there are none (or `force`)."""
    return _cached(f"peaks-{machine_id()}.json", machine_id(), measure, force)


def device_peaks(force: bool = False) -> Peaks:
    """The cached roofs of the current CUDA device (or the simulator), measured first if there are none (or
    `force`). `threads` is the number of multiprocessors; both widths ("1", "all") hold the whole device's
    figures, since a kernel always runs on all of it."""
    from . import device_probe

    device = device_probe.device_id()
    return _cached(f"peaks-cuda-{device}.json", device, device_probe.measure, force)


def _cached(name: str, machine: str, measured_by: Any, force: bool) -> Peaks:
    from ..runtime import cache_root

    path = cache_root.root().path / name
    if not force:
        found = _read(path, machine)
        if found is not None:
            return found
    measured = measured_by()
    try:
        out = cache_root.write_root() / name
        out.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = out.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(dataclasses.asdict(measured), indent=1))
        os.replace(tmp, out)
    except OSError:  # a read-only cache: measured again next process
        pass
    return measured


def _read(path: Path, machine: str) -> Peaks | None:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        found = Peaks(str(raw["machine"]), int(raw["threads"]), {k: float(v) for k, v in raw["bandwidth"].items()},
                      {k: float(v) for k, v in raw["gflops"].items()})
        return found if found.machine == machine and set(found.bandwidth) == {"1", "all"} else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def measure() -> Peaks:
    import numba

    triad, fma = _probes()
    threads = numba.get_num_threads()
    bandwidth, gflops = {}, {}
    a = np.zeros(TRIAD_ELEMENTS)
    b, c = np.ones(TRIAD_ELEMENTS), np.full(TRIAD_ELEMENTS, 0.5)
    for width, count in (("1", 1), ("all", threads)):
        numba.set_num_threads(count)
        try:
            bandwidth[width] = 24 * TRIAD_ELEMENTS / _best(lambda: triad(a, b, c, 3.0)) / 1e9
            for dtype in (np.float32, np.float64):
                y = np.ones((count, FLOP_CHUNK), dtype)
                one, small = dtype(0.999), dtype(0.001)
                iterations = FLOP_ITERATIONS
                while _best(lambda y=y, n=iterations, a=one, b=small: fma(y, n, a, b), tries=1) < MIN_SECONDS:
                    iterations *= 4  # long enough that a thread waiting for a busy core is not all we time
                flops = 8 * count * FLOP_CHUNK * iterations  # four multiply-adds per element and iteration
                seconds = _best(lambda y=y, n=iterations, a=one, b=small: fma(y, n, a, b))
                gflops[f"{np.dtype(dtype).name}/{width}"] = flops / seconds / 1e9
        finally:
            numba.set_num_threads(threads)
    return Peaks(machine_id(), threads, bandwidth, gflops)


def _best(run: Any, tries: int = 5) -> float:
    run()  # compiles, and brings the pages in
    best = float("inf")
    for _ in range(tries):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _probes() -> tuple[Any, Any]:
    import numba

    @numba.njit(parallel=True, nogil=True, fastmath=True)
    def triad(a, b, c, s):  # pragma: no cover (compiled)
        for i in numba.prange(a.shape[0]):
            a[i] = b[i] + s * c[i]

    @numba.njit(parallel=True, nogil=True, fastmath=True)
    def fma(y, iterations, one, small):  # pragma: no cover (compiled)
        for t in numba.prange(y.shape[0]):
            row = y[t]
            for _ in range(iterations):
                for j in range(row.shape[0]):  # four dependent multiply-adds per load: compute, not L1, bound
                    v = row[j]
                    v = v * one + small
                    v = v * one + small
                    v = v * one + small
                    row[j] = v * one + small

    return triad, fma
