"""`cuvil demo`: a few kernels written as plain Python loops, timed against the same loops in CPython and
against the NumPy way of writing them. Python runs on a smaller input, scaled up.

NumPy and Cuvil are shown as the median of several runs with its interquartile range. The figures are meant to
be the same from one run of the demo to the next: each system runs once untimed on its own buffers first (which
touches every page of its inputs and outputs: the demo used to time each run on fresh arrays, whose page faults
on first write landed in the timed call, the likely cause of saxpy's ratio to NumPy reading 1.6x, 1.1x and 0.69x
in three runs in issue 41), the inputs are copied back outside the timer, a kernel of a few ms gets more runs,
and NumPy and Cuvil are timed round robin so that another process slows both alike."""

from __future__ import annotations

import dataclasses
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def saxpy(a, x, y, out):
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]
    return out


def saxpy_numpy(a, x, y, out):
    np.multiply(x, a, out=out)
    out += y
    return out


def pairwise(points, out):
    n = points.shape[0]
    for i in range(n):
        for j in range(n):
            d = 0.0
            for k in range(points.shape[1]):
                t = points[i, k] - points[j, k]
                d += t * t
            out[i, j] = math.sqrt(d)
    return out


def pairwise_numpy(points, out):
    diff = points[:, None, :] - points[None, :, :]
    out[:] = np.sqrt((diff * diff).sum(axis=-1))
    return out


def escape_time(width, height, limit, out):
    for row in range(height):
        for col in range(width):
            c_re = -2.0 + 3.0 * col / width
            c_im = -1.5 + 3.0 * row / height
            z_re, z_im = 0.0, 0.0
            n = 0
            while n < limit and z_re * z_re + z_im * z_im <= 4.0:
                z_re, z_im = z_re * z_re - z_im * z_im + c_re, 2.0 * z_re * z_im + c_im
                n += 1
            out[row, col] = n
    return out


def escape_time_numpy(width, height, limit, out):
    re = np.linspace(-2.0, 1.0, width, endpoint=False)
    im = np.linspace(-1.5, 1.5, height, endpoint=False)
    c = re[None, :] + 1j * im[:, None]
    z = np.zeros_like(c)
    out[:] = 0
    alive = np.ones(c.shape, dtype=bool)
    for _ in range(limit):
        z[alive] = z[alive] * z[alive] + c[alive]
        alive &= np.abs(z) <= 2.0
        out[alive] += 1
    return out


def stencil(u, steps, tmp):
    for _ in range(steps):
        for i in range(1, len(u) - 1):
            tmp[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1]
        for i in range(1, len(u) - 1):
            u[i] = tmp[i]
    return u


def stencil_numpy(u, steps, tmp):
    for _ in range(steps):
        tmp[1:-1] = 0.25 * u[:-2] + 0.5 * u[1:-1] + 0.25 * u[2:]
        u[1:-1] = tmp[1:-1]
    return u


@dataclasses.dataclass(frozen=True)
class Case:
    """A kernel at one size: `make(n)` builds its arguments for size n, `work(n)` is proportional to its cost,
    `label(n)` names that size. Python runs at `python_n` (≤ n, for time) and its time is scaled by work."""

    name: str
    loop: Callable[..., Any]
    vectorized: Callable[..., Any]
    make: Callable[[int], tuple[Any, ...]]
    work: Callable[[int], float]
    label: Callable[[int], str]
    n: int
    python_n: int


def _count(n: int) -> str:
    """2000000 -> '2M', 20000 -> '20k': sizes as run, short."""
    for unit, size in (("M", 1_000_000), ("k", 1_000)):
        if n >= size:
            return f"{n / size:.3g}{unit}"
    return str(n)


def _cases(scale: float) -> list[Case]:
    """The kernels at `scale` times their full size; each at least a size its loops do real work on."""
    rng = np.random.default_rng(0)

    def sized(full: int, least: int, python_fraction: float, python_least: int) -> tuple[int, int]:
        n = max(least, int(full * scale))
        return n, min(n, max(python_least, int(n * python_fraction)))

    saxpy_n, stencil_n = sized(2_000_000, 1000, 0.01, 1000), sized(200_000, 1000, 0.01, 1000)
    points, width = sized(600, 20, 0.1, 20), sized(400, 20, 0.1, 20)
    return [
        Case("saxpy", saxpy, saxpy_numpy, lambda n: (2.0, rng.random(n), rng.random(n), np.empty(n)),
             float, lambda n: f"{_count(n)} f64", *saxpy_n),
        Case("pairwise", pairwise, pairwise_numpy, lambda n: (rng.random((n, 3)), np.empty((n, n))),
             lambda n: float(n * n), lambda n: f"{n}x3", *points),
        Case("escape time", escape_time, escape_time_numpy,
             lambda n: (n, n * 3 // 4, 100, np.empty((n * 3 // 4, n), np.int64)),
             lambda n: float(n * (n * 3 // 4)), lambda n: f"{n}x{n * 3 // 4}", *width),
        Case("stencil", stencil, stencil_numpy, lambda n: (rng.random(n), 20, np.empty(n)),
             float, lambda n: f"{_count(n)} x20", *stencil_n),
    ]


def _buffers(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """A working copy of `args`: the arrays copied, every page of them written once (a fresh `np.empty` of
    16 MB is unmapped memory, and its page faults would land in the first timed call that writes it)."""
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def _refill(work: tuple[Any, ...], pristine: tuple[Any, ...]) -> None:
    """The inputs as they were before the last run (stencil updates its input in place), into the same pages."""
    for w, p in zip(work, pristine):
        if isinstance(w, np.ndarray):
            np.copyto(w, p)


@dataclasses.dataclass(frozen=True)
class Runs:
    """The seconds of each timed run of one system on one input."""

    seconds: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def quartiles(self) -> tuple[float, float]:
        """(first, third) quartile; the spread shown beside the median, robust to one run disturbed by another
        process, which min-max is not."""
        if len(self.seconds) < 2:
            return self.seconds[0], self.seconds[0]
        q1, _, q3 = statistics.quantiles(self.seconds, n=4, method="inclusive")
        return q1, q3


STEADY_S = 0.25  # s: a kernel of a few ms runs until each system has run about this long, not just `repeat` times
MAX_RUNS = 101


def _timed(systems: dict[str, Callable[..., Any]], pristine: tuple[Any, ...], repeat: int,
           steady_s: float = 0.0) -> dict[str, Runs]:
    """At least `repeat` timed runs of each system on the same inputs (more, up to MAX_RUNS, until the slowest
    system has run about `steady_s`), round robin so that drift (another process, the clock) hits them alike.
    Each system has its own buffers, touched by one untimed warm-up run, and refilled from `pristine` outside
    the timer before every run."""
    work = {name: _buffers(pristine) for name in systems}
    slowest = 0.0
    for name, fn in systems.items():
        start = time.perf_counter()
        fn(*work[name])  # warm-up: first touch of inputs and outputs, caches and branch predictors warm
        slowest = max(slowest, time.perf_counter() - start)
    runs = max(repeat, min(MAX_RUNS, math.ceil(steady_s / slowest))) if slowest > 0 else repeat
    times: dict[str, list[float]] = {name: [] for name in systems}
    for _ in range(runs):
        for name, fn in systems.items():
            _refill(work[name], pristine)
            start = time.perf_counter()
            fn(*work[name])
            times[name].append(time.perf_counter() - start)
    return {name: Runs(tuple(t)) for name, t in times.items()}


@dataclasses.dataclass(frozen=True)
class Measured:
    label: str  # the kernel and the size it ran at
    python: Runs  # scaled from python_n to the label's size
    numpy: Runs
    cuvil: Runs
    first_call_s: float  # compile (or cache load) and one run
    compiles: int  # all of the kernel's compiles, the first call's included
    compiles_while_timed: int  # 0 unless a guard missed during timing (then the kernel was timed again)

    @property
    def python_s(self) -> float:
        return self.python.median

    @property
    def numpy_s(self) -> float:
        return self.numpy.median

    @property
    def cuvil_s(self) -> float:
        return self.cuvil.median


def measure(case: Case, repeat: int) -> Measured:
    """One row. The compiled kernel's first call is on arguments of the timed size (a first call on a smaller
    input may choose a variant the timed size misses: its compile would land in the timed calls). NumPy and
    Cuvil run on the same inputs, interleaved."""
    import cuvil

    jitted = cuvil.jit(case.loop)
    full = case.make(case.n)
    start = time.perf_counter()
    jitted(*_buffers(full))
    first_s = time.perf_counter() - start
    warm = len(jitted.compile_events)
    scale = case.work(case.n) / case.work(case.python_n)
    py = _timed({"python": case.loop}, case.make(case.python_n), max(1, repeat // 2))["python"]
    py = Runs(tuple(t * scale for t in py.seconds))
    runs = _timed({"numpy": case.vectorized, "cuvil": jitted}, full, repeat, STEADY_S)
    timed = len(jitted.compile_events) - warm
    if timed:  # the variants are warm now: figures without the compile
        runs = _timed({"numpy": case.vectorized, "cuvil": jitted}, full, repeat, STEADY_S)
    return Measured(f"{case.name} {case.label(case.n)}", py, runs["numpy"], runs["cuvil"], first_s,
                    len(jitted.compile_events), timed)


_UNITS = (("s", 1.0), ("ms", 1e-3), ("us", 1e-6))


def _unit(seconds: float) -> tuple[str, float]:
    """The unit that keeps three significant digits of `seconds` out of an exponent."""
    return next(((unit, size) for unit, size in _UNITS if seconds >= size), _UNITS[-1])


def _digits(value: float) -> str:
    return f"{value:.3g}" if value < 1000 else f"{value:.0f}"


def _time(seconds: float) -> str:
    """Three significant digits in the unit that keeps them out of an exponent: 2.81 s, 928 us."""
    unit, size = _unit(seconds)
    return f"{_digits(seconds / size)} {unit}"


def _spread(runs: Runs) -> str:
    """The median and, in its unit and to its decimals, the interquartile range: '2.15 ms (2.10-2.31)'."""
    unit, size = _unit(runs.median)
    median, (q1, q3) = runs.median / size, (q / size for q in runs.quartiles)
    decimals = max(0, 2 - math.floor(math.log10(median))) if median > 0 else 0
    return f"{median:.{decimals}f} {unit} ({q1:.{decimals}f}-{q3:.{decimals}f})"


def _ratio(x: float) -> str:
    return f"{x:.0f}x" if x >= 10 else f"{x:.2g}x"


def run(scale: float = 1.0, repeat: int = 5, only: tuple[str, ...] = ()) -> str:
    """The table `cuvil demo` prints; `only`: the kernels whose names start with one of these."""
    rows = [("kernel", "python", "numpy", "cuvil", "vs python", "vs numpy", "first call")]
    for case in _cases(scale):
        if only and not case.name.startswith(only):
            continue
        m = measure(case, repeat)
        rows.append((m.label, _time(m.python_s), _spread(m.numpy), _spread(m.cuvil), _ratio(m.python_s / m.cuvil_s),
                     _ratio(m.numpy_s / m.cuvil_s), f"{m.first_call_s:.2f} s"))
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = ["  ".join(v.rjust(w) if k else v.ljust(w) for k, (v, w) in enumerate(zip(r, widths))) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
