"""`cuvil demo`: a few kernels written as plain Python loops, timed against the same loops in CPython and
against the NumPy way of writing them. Medians of several runs; Python runs on a smaller input, scaled up."""

from __future__ import annotations

import functools
import math
import statistics
import time
from collections.abc import Callable

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


def _cases(scale: float) -> list[tuple[str, Callable, Callable, Callable[[float], tuple], float]]:
    """(name, loop form, NumPy form, make args for a fraction of the full size, Python's fraction)."""
    rng = np.random.default_rng(0)
    n = int(2_000_000 * scale)
    m = int(600 * scale)
    w = int(400 * scale)
    u = int(200_000 * scale)
    return [
        ("saxpy 2M f64", saxpy, saxpy_numpy,
         lambda f: (2.0, rng.random(int(n * f)), rng.random(int(n * f)), np.empty(int(n * f))), 0.01),
        ("pairwise 600x3", pairwise, pairwise_numpy,
         lambda f: (rng.random((int(m * f), 3)), np.empty((int(m * f), int(m * f)))), 0.1),
        ("escape time 400x300", escape_time, escape_time_numpy,
         lambda f: (int(w * f), int(w * 0.75 * f), 100, np.empty((int(w * 0.75 * f), int(w * f)), np.int64)), 0.1),
        ("stencil 200k x20", stencil, stencil_numpy,
         lambda f: (rng.random(int(u * f)), 20, np.empty(int(u * f))), 0.01),
    ]


def _median_seconds(fn: Callable, make: Callable[[], tuple], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        args = make()
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(scale: float = 1.0, repeat: int = 5) -> str:
    import cuvil

    rows = [("kernel", "python", "numpy", "cuvil", "vs python", "vs numpy", "compile")]
    for name, loop, vectorized, make, fraction in _cases(scale):
        jitted = cuvil.jit(loop)
        start = time.perf_counter()
        jitted(*make(0.05))
        compile_s = time.perf_counter() - start
        work = fraction ** (2 if name.startswith(("pairwise", "escape")) else 1)
        small, full = functools.partial(make, fraction), functools.partial(make, 1.0)
        py = _median_seconds(loop, small, max(1, repeat // 2)) / work
        npy = _median_seconds(vectorized, full, repeat)
        cv = _median_seconds(jitted, full, repeat)
        rows.append((name, f"{py * 1e3:.1f} ms", f"{npy * 1e3:.1f} ms", f"{cv * 1e3:.2f} ms",
                     f"{py / cv:.0f}x", f"{npy / cv:.1f}x", f"{compile_s:.2f} s"))
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = ["  ".join(v.rjust(w) if k else v.ljust(w) for k, (v, w) in enumerate(zip(r, widths))) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
