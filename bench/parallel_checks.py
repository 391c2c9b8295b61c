"""What sound parallel loops cost: the run-time checks they rely on, and the speed against Numba's prange.

- Overlap checks: a parallel loop that writes an array argument first tests, in compiled code, that it does
  not overlap the other array arguments (and itself, for a non-contiguous one). Timed alone, per check, in a
  compiled loop of a million calls (ns per check).
- Whole kernels: Cuvil `parallel=True` (checks included) against the same loop hand-written with
  `numba.prange` (no checks), and Cuvil serial against `numba.njit`, on a memory-bound kernel (saxpy, 10M
  float64) and a compute-bound one (a polynomial per element, 2M); medians of 7 after a warm-up. The ratio is
  numba time / cuvil time (≥ 1: Cuvil as fast or faster).

Run: `python bench/parallel_checks.py`. Writes bench/parallel_checks.md and bench/parallel_checks.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import cuvil  # noqa: E402
from bench.cpu_vs_numba import _machine  # noqa: E402
from bench.timing import median_seconds  # noqa: E402
from cuvil.runtime.parallel import overlaps, self_overlaps  # noqa: E402

REPEATS = 7


def saxpy(a, x, y, out):
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]
    return out


def poly(x, out):
    for i in range(len(x)):
        v = x[i]
        out[i] = ((((v * 0.3 + 0.2) * v - 0.7) * v + 1.1) * v - 0.5) * v + 0.9
    return out


def saxpy_prange(a, x, y, out):
    for i in numba.prange(len(x)):
        out[i] = a * x[i] + y[i]
    return out


def poly_prange(x, out):
    for i in numba.prange(len(x)):
        v = x[i]
        out[i] = ((((v * 0.3 + 0.2) * v - 0.7) * v + 1.1) * v - 0.5) * v + 0.9
    return out


@numba.njit(nogil=True)
def _time_checks(rows, b, n):
    hits = 0
    for k in range(n):
        a = rows[k & 7]  # a different array each time: LLVM cannot hoist the check out of the loop
        if overlaps(a, b) or self_overlaps(a):
            hits += 1
    return hits


@numba.njit(nogil=True)
def _time_nothing(rows, b, n):
    hits = 0
    for k in range(n):
        a = rows[k & 7]
        if a.shape[0] == k:
            hits += 1
    return hits


def check_cost() -> dict[str, float]:
    n = 1_000_000
    out = {}
    for label, rows in (("contiguous", np.zeros((8, 1000))), ("strided", np.zeros((8, 2000))[:, ::2])):
        b = np.zeros(1000)
        total = median_seconds(_time_checks, (rows, b, n), REPEATS, warm_s=0.0)
        base = median_seconds(_time_nothing, (rows, b, n), REPEATS, warm_s=0.0)
        out[label] = (total - base) / n * 1e9
    return out


def kernels() -> list[dict[str, object]]:
    rows = []
    x, y, out = np.random.rand(10_000_000), np.random.rand(10_000_000), np.empty(10_000_000)
    px, pout = np.random.rand(2_000_000), np.empty(2_000_000)
    cases = [
        ("saxpy 10M f64", saxpy, saxpy_prange, (2.0, x, y, out)),
        ("polynomial 2M f64", poly, poly_prange, (px, pout)),
    ]
    for label, fn, handwritten, args in cases:
        cuvil_par = median_seconds(cuvil.jit(fn, parallel=True), args, REPEATS, warm_s=0.0)
        numba_par = median_seconds(numba.njit(parallel=True, nogil=True)(handwritten), args, REPEATS, warm_s=0.0)
        cuvil_ser = median_seconds(cuvil.jit(fn), args, REPEATS, warm_s=0.0)
        numba_ser = median_seconds(numba.njit(nogil=True)(fn), args, REPEATS, warm_s=0.0)
        rows.append({"kernel": label, "cuvil_parallel_ms": cuvil_par * 1e3, "numba_prange_ms": numba_par * 1e3,
                     "parallel_ratio": numba_par / cuvil_par, "cuvil_serial_ms": cuvil_ser * 1e3,
                     "numba_serial_ms": numba_ser * 1e3, "serial_ratio": numba_ser / cuvil_ser})
    return rows


def main() -> None:
    results = {"machine": _machine(), "check_ns": check_cost(), "kernels": kernels(),
               "threads": numba.get_num_threads()}
    (HERE / "parallel_checks.json").write_text(json.dumps(results, indent=1))
    lines = ["# Parallel loops: run-time checks and speed against Numba", "",
             f"Machine: {results['machine']}; {results['threads']} threads. `python bench/parallel_checks.py`.", "",
             "Overlap check per written array argument (compiled, before the loop): "
             + ", ".join(f"{k} {v:.1f} ns" for k, v in results["check_ns"].items()) + " (target ≤ 30 ns).", "",
             "| kernel | cuvil parallel ms | numba prange ms | ratio | cuvil serial ms | numba njit ms | ratio |",
             "|---|---|---|---|---|---|---|"]
    for r in results["kernels"]:
        lines.append(f"| {r['kernel']} | {r['cuvil_parallel_ms']:.2f} | {r['numba_prange_ms']:.2f} | "
                     f"{r['parallel_ratio']:.2f} | {r['cuvil_serial_ms']:.2f} | {r['numba_serial_ms']:.2f} | "
                     f"{r['serial_ratio']:.2f} |")
    lines += ["", "Ratio: numba time / cuvil time (≥ 0.95 is the target)."]
    (HERE / "parallel_checks.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
