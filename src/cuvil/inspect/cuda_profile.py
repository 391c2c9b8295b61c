"""`cuvil.profile` of a CUDA variant: each kernel timed by CUDA events, set against its Plan region's cost and
the device's measured roofs (inspect/peaks.device_peaks).

A CUDA variant's launcher is plain Python whose every launch goes through `_rt.launch(kernel, config)`
(codegen/launch.py, runtime/cuda_runtime.launch), and the module says which Plan region each kernel prints
(`CUVIL_KERNELS`, codegen/cuda_module.py). So the timed calls run under a launch hook that records an event
before and after each launch of this variant's kernels, and the figures are read after the call: the kernels
themselves, their launch configurations and the data are the ones a plain call runs. The hook is a context
variable of the profiling call: a call of the same function on another thread meanwhile is neither timed nor
changed (the module's names were once swapped for timed stand-ins, which timed the other thread's launches).

A kernel launched several times in one call (inside a host loop) gets the sum of its launches, as its region's
cost counts every trip. Kernels of Cuvil's runtime (filling an allocation, copying a strided view) and the
copies of NumPy arguments to and from the device are in the whole call's time only.
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Callable
from typing import Any

from ..errors import CuvilError
from .cost import Cost
from .peaks import device_peaks
from .profile import Profile, RegionFigures

TIMING = "whole call, with any copies of NumPy arguments; each kernel by CUDA events"
SIM_TIMING = "whole call; each kernel by the host clock (the simulator's events record no time)"


@dataclasses.dataclass(frozen=True)
class KernelFigures:
    name: str  # in the generated module (fn.source("kernel"))
    kind: str  # "grid" or "serial" (one thread)
    region: str  # the Plan region it prints
    lines: tuple[int, int]  # the user's lines of that region
    launches: int  # per call
    seconds: float  # per call, all its launches: the median over the timed calls
    flops: float
    read: float  # bytes
    written: float
    exact: bool

    @property
    def moved(self) -> float:
        return self.read + self.written

    @property
    def gflops(self) -> float:
        return self.flops / self.seconds / 1e9 if self.seconds > 0 else float("nan")

    @property
    def gbytes(self) -> float:
        return self.moved / self.seconds / 1e9 if self.seconds > 0 else float("nan")

    @property
    def intensity(self) -> float:
        return self.flops / self.moved if self.moved else float("inf")

    def bound(self, roof: tuple[float, float]) -> str:
        return "memory" if self.intensity * roof[1] < roof[0] else "compute"

    def fraction(self, roof: tuple[float, float]) -> float:
        """Achieved over attainable on `roof` (GFLOP/s, GB/s): 1.0 is on the roof."""
        return self.gbytes / roof[1] if self.bound(roof) == "memory" else self.gflops / roof[0]


@dataclasses.dataclass(frozen=True)
class CudaProfile(Profile):
    kernels: list[KernelFigures] = dataclasses.field(default_factory=list)  # in order of first launch
    device: str = ""

    def __str__(self) -> str:
        peak_flops, bandwidth = self.roof
        lines = [f"profile of {self.function} (variant #{self.variant}) on {self.device}: "
                 f"{self.seconds * 1e3:.3f} ms per call, median of {len(self.runs)}; timed: {self.timing}",
                 f"  roofs ({self.dtype}): {peak_flops:.4g} GFLOP/s, {bandwidth:.4g} GB/s"]
        for k in self.kernels:
            where = f"L{k.lines[0]}" if k.lines[0] == k.lines[1] else f"L{k.lines[0]}-L{k.lines[1]}"
            approx = "" if k.exact else " (estimate)"
            lines.append(f"  kernel {k.name} ({k.kind}, {k.region} {where}): {k.launches} launch(es), "
                         f"{k.seconds * 1e3:.4g} ms; {k.flops:.4g} FLOPs{approx}, {k.moved:.4g} bytes; "
                         f"{k.gflops:.4g} GFLOP/s, {k.gbytes:.4g} GB/s; {k.bound(self.roof)}-bound: "
                         f"{k.fraction(self.roof):.0%} of the attainable")
        kernels = sum(k.seconds for k in self.kernels)
        lines.append(f"  kernels {kernels * 1e3:.4g} ms of the call's {self.seconds * 1e3:.4g} ms (the rest: "
                     "copies, allocations, the launcher)")
        return "\n".join(lines)


def profile_cuda(fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any], repeat: int, number: int, cost: Cost,
                 regions: list[RegionFigures], dtype: str) -> CudaProfile:
    from numba import cuda

    from ..runtime import cuda_runtime
    from .variants import variant

    launcher = getattr(variant(fn, number).impl, "launcher", None)
    if launcher is None:  # a variant compiled before the launcher was reachable: not a case a user meets
        raise CuvilError(f"variant #{number} of {fn.py_func.__qualname__} has no CUDA launcher to time")
    names = launcher.__globals__
    table: dict[str, tuple[str, str, int, int]] = names.get("CUVIL_KERNELS", {})
    simulated = cuda_runtime.simulator() or cuda_runtime._is_sim()
    sink: list[tuple[str, Callable[[], float]]] = []
    timed = _Timer({id(names[name]): name for name in table}, sink, simulated)
    runs: list[float] = []
    per_call: list[dict[str, tuple[int, float]]] = []
    with cuda_runtime.launch_hook(timed):
        for _ in range(repeat):
            sink.clear()
            start = time.perf_counter()
            fn(*args, **kwargs)
            cuda.synchronize()
            runs.append(time.perf_counter() - start)
            found: dict[str, tuple[int, float]] = {}
            for name, read in sink:
                count, total = found.get(name, (0, 0.0))
                found[name] = (count + 1, total + read())
            per_call.append(found)
    costs = {r.id: r for r in regions}
    kernels = []
    for name in dict.fromkeys(n for found in per_call for n in found):  # in order of first launch
        kind, region, first, last = table[name]
        r = costs.get(region)
        launches = max(found.get(name, (0, 0.0))[0] for found in per_call)
        seconds = statistics.median(found.get(name, (0, 0.0))[1] for found in per_call)
        kernels.append(KernelFigures(name, kind, region, (first, last), launches, seconds,
                                     r.flops if r else 0.0, r.read if r else 0.0, r.written if r else 0.0,
                                     r.exact if r else False))
    return CudaProfile(fn.py_func.__qualname__, number, statistics.median(runs), runs,
                       SIM_TIMING if simulated else TIMING, regions, cost, device_peaks(), True, dtype, kernels,
                       "the CUDA simulator" if simulated else _device_name())


class _Timer:
    """The launch hook of one profile: a launch of one of the variant's kernels (known by identity) between two
    CUDA events, its reading in `sink`; any other kernel launched plainly."""

    def __init__(self, kernels: dict[int, str], sink: list[tuple[str, Callable[[], float]]], simulated: bool):
        self.kernels, self.sink, self.simulated = kernels, sink, simulated

    def __call__(self, kernel: Any, config: Any) -> Callable[..., None]:
        from numba import cuda

        launch = kernel[config]
        name = self.kernels.get(id(kernel))
        if name is None:
            return launch

        def run(*args: Any) -> None:
            if self.simulated:  # launches are synchronous: the host clock times the kernel
                start = time.perf_counter()
                launch(*args)
                seconds = time.perf_counter() - start
                self.sink.append((name, lambda: seconds))
                return
            begin, end = cuda.event(), cuda.event()  # timing on by default
            begin.record()
            launch(*args)
            end.record()
            self.sink.append((name, lambda: _elapsed(begin, end)))  # read after the call synchronized

        return run


def _elapsed(begin: Any, end: Any) -> float:
    end.synchronize()
    return float(begin.elapsed_time(end)) / 1e3


def _device_name() -> str:
    from numba import cuda

    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


__all__ = ["CudaProfile", "KernelFigures", "profile_cuda"]
