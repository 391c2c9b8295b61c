"""`cuvil.profile(fn, *args)`: run a call, time it, and set what it achieved against this machine's roofs.

A CPU variant is one compiled Numba function: its regions run inside it and cannot be timed one by one without
changing the code that is timed. So the whole call is timed (the median of `repeat` runs after one warm-up),
and each region's share is its FLOPs and bytes from the cost model (inspect/cost.py); the profile says so in
`timing`. The roofs are this machine's measured peaks (inspect/peaks.py) for the variant's dtype, on all
threads when the variant has a parallel loop and on one when it has none. A CUDA variant's kernels are timed
one by one with CUDA events, against the device's roofs (inspect/cuda_profile.py).
"""

from __future__ import annotations

import base64
import dataclasses
import html
import inspect
import statistics
import time
from typing import Any

from ..lower.plan import ParallelNest
from .cost import Cost, cost_of
from .peaks import Peaks, peaks
from .symbolic import symbol_values
from .variants import plans_of, variant_for

TIMING = "whole call (a CPU variant is one compiled function: its regions are not timed separately)"


@dataclasses.dataclass(frozen=True)
class RegionFigures:
    id: str
    kind: str
    lines: tuple[int, int] | None
    flops: float  # nan where the cost model cannot evaluate it (a while loop's trips)
    read: float  # bytes
    written: float
    exact: bool

    @property
    def intensity(self) -> float:
        moved = self.read + self.written
        return self.flops / moved if moved else float("inf")


@dataclasses.dataclass(frozen=True)
class Profile:
    function: str
    variant: int
    seconds: float  # median of the timed runs
    runs: list[float]
    timing: str  # what was timed
    regions: list[RegionFigures]
    cost: Cost
    peaks: Peaks
    parallel: bool
    dtype: str

    @property
    def flops(self) -> float:
        return sum(r.flops for r in self.regions)

    @property
    def moved(self) -> float:
        """Bytes read and written."""
        return sum(r.read + r.written for r in self.regions)

    @property
    def gflops(self) -> float:
        return self.flops / self.seconds / 1e9

    @property
    def gbytes(self) -> float:
        return self.moved / self.seconds / 1e9

    @property
    def intensity(self) -> float:
        return self.flops / self.moved if self.moved else float("inf")

    @property
    def roof(self) -> tuple[float, float]:
        return self.peaks.roof(self.dtype, self.parallel)

    @property
    def bound(self) -> str:
        """Which roof limits a kernel of this intensity: "memory" or "compute"."""
        peak_flops, bandwidth = self.roof
        return "memory" if self.intensity * bandwidth < peak_flops else "compute"

    @property
    def fraction(self) -> float:
        """Achieved over attainable (min of the compute roof and intensity × bandwidth): 1.0 is on the roof."""
        peak_flops, bandwidth = self.roof
        if self.bound == "memory":
            return self.gbytes / bandwidth
        return self.gflops / peak_flops

    def __str__(self) -> str:
        peak_flops, bandwidth = self.roof
        threads = f"{self.peaks.threads} threads" if self.parallel else "1 thread"
        lines = [f"profile of {self.function} (variant #{self.variant}): {self.seconds * 1e3:.3f} ms, median of "
                 f"{len(self.runs)}; timed: {self.timing}",
                 f"  {self.flops:.4g} FLOPs, {self.moved:.4g} bytes, intensity {self.intensity:.3g} FLOP/byte",
                 f"  achieved {self.gflops:.3g} GFLOP/s, {self.gbytes:.3g} GB/s; roofs ({self.dtype}, {threads}): "
                 f"{peak_flops:.3g} GFLOP/s, {bandwidth:.3g} GB/s",
                 f"  {self.bound}-bound: {self.fraction:.0%} of the attainable"]
        for r in self.regions:
            if r.flops or r.read or r.written:
                approx = "" if r.exact else " (estimate)"
                lines.append(f"  {r.id} {r.kind}: {r.flops:.4g} FLOPs{approx}, {r.read:.4g} B read, "
                             f"{r.written:.4g} B written, intensity {r.intensity:.3g}")
        return "\n".join(lines)

    def plot(self, path: Any = None) -> bytes:
        """The roofline chart as PNG bytes (and written to `path` if given); needs matplotlib (`cuvil[plot]`)."""
        from .roofline import chart

        png = chart([(self.function, self.intensity, self.gflops)], self.roof, f"{self.function} on this machine")
        if path is not None:
            with open(path, "wb") as f:
                f.write(png)
        return png

    def _repr_png_(self) -> bytes | None:
        try:
            return self.plot()
        except ImportError:
            return None

    def _repr_html_(self) -> str:
        text = f"<pre>{html.escape(str(self))}</pre>"
        png = self._repr_png_()
        if png is None:
            return text
        return text + f'<img src="data:image/png;base64,{base64.b64encode(png).decode()}"/>'


def profile(fn: Any, *args: Any, repeat: int = 5, **kwargs: Any) -> Profile:
    """Run `fn(*args, **kwargs)` once to warm up, then `repeat` times, timed; the figures of the variant that
    ran. The arguments are passed as given each time: a kernel that updates its inputs runs on updated data. A
    CUDA variant's kernels are timed one by one (inspect/cuda_profile.py)."""
    if not getattr(fn, "__cuvil_jit__", False):
        raise TypeError(f"cuvil.profile takes a function made by cuvil.jit, not {type(fn).__name__}")
    fn(*args, **kwargs)
    given = args
    if kwargs:
        bound = inspect.signature(fn.py_func).bind(*args, **kwargs)
        bound.apply_defaults()
        given = tuple(bound.arguments.values())
    number = variant_for(fn, tuple(given)).number
    vp = plans_of(fn, number)
    found = cost_of(vp)
    params = dict(zip(vp.params, given))
    symbols = set().union(*(r.flops.symbols | r.read.symbols | r.written.symbols for r in found.regions))
    values = symbol_values(symbols, params)
    regions = [RegionFigures(r.id, r.kind, r.lines, r.flops.evaluate(values), r.read.evaluate(values),
                             r.written.evaluate(values), r.exact) for r in found.regions]
    # The roof of the widest float the variant computes in; a Python float (weak, NEP 50) gives way to arrays'.
    dtypes = [getattr(kind, "dtype", "") for kind in vp.args if not getattr(kind, "weak", False)]
    dtype = "float32" if "float32" in dtypes and "float64" not in dtypes else "float64"
    if vp.target == "cuda":
        from .cuda_profile import profile_cuda

        return profile_cuda(fn, args, kwargs, max(1, repeat), number, found, regions, dtype)
    runs = []
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        fn(*args, **kwargs)
        runs.append(time.perf_counter() - start)
    parallel = any(isinstance(r, ParallelNest) for plan in vp.plans.values() for r in plan.walk())
    return Profile(fn.py_func.__qualname__, number, statistics.median(runs), runs, TIMING, regions, found,
                   peaks(), parallel, dtype)
