"""What runtime/vmath.py buys a lowered loop: ns per element of a Numba loop calling it, against the same loop
calling `math.<f>` (what Numba makes of `np.exp(x[i])`: a libm call per element) and against NumPy's whole-array
call (its own SIMD loops for exp, log, tanh; SciPy's erf; sigmoid as `1 / (1 + np.exp(-x))` in place). Then
the float32 max reduction in each form a printer could emit, and a fused float32 GELU (tanh form) as a loop.

4M elements (a cache-missing size), one thread unless the row says prange (2 threads, OMP_WAIT_POLICY=passive
unless set); each figure is the median of 5 timed calls after a warm-up, and the whole suite runs `--runs` times
(default 3): the table gives the median over runs and the min-max. The machine is shared (its 2 cores may be
one core's two hyperthreads: the same loop measured 1.0 or 1.9 ns/element minutes apart), so the load average
seen is in the report.

Run: `python bench/vmath.py [--runs N]`. Writes bench/vmath.md and bench/vmath.json.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from pathlib import Path

# libgomp's default spin-then-wait made every parallel region here cost ~12 ms (an empty 16-iteration prange:
# 12 ms; passive: 0.01 ms) on this shared 2-core machine; set before Numba loads it.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

import numba  # noqa: E402
import numpy as np  # noqa: E402
from scipy import special  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.cpu_vs_numba import _machine  # noqa: E402
from bench.timing import median_seconds  # noqa: E402
from cuvil.runtime import vmath  # noqa: E402

N = 1 << 22
CALLS = 5
RANGES = {"exp": (-10, 10), "log": (1e-3, 1e3), "tanh": (-5, 5), "erf": (-4, 4), "sigmoid": (-10, 10)}


def _loop(f):
    @numba.njit(nogil=True)
    def run(x, out):
        for i in range(x.size):
            out[i] = f(x[i])

    return run


@numba.njit(nogil=True)
def _sigmoid_math(v):
    return 1.0 / (1.0 + math.exp(-v))


LIBM = {"exp": math.exp, "log": math.log, "tanh": math.tanh, "erf": math.erf}


def _libm(name, dtype):
    if name == "sigmoid":
        if dtype == np.float32:
            return _loop(numba.njit(lambda v: np.float32(1.0) / (np.float32(1.0) + np.exp(-v))))
        return _loop(_sigmoid_math)
    return _loop(numba.njit(lambda v, f=LIBM[name]: f(v)))


def _numpy(name):
    if name == "sigmoid":
        def sigmoid(x, out):
            np.negative(x, out=out)
            np.exp(out, out=out)
            out += 1
            np.reciprocal(out, out=out)

        return sigmoid
    f = special.erf if name == "erf" else getattr(np, name)
    return lambda x, out: f(x, out=out)


def _median_ns(fn, *args, n=N):
    return median_seconds(fn, args, CALLS, warm_s=0.0) / n * 1e9


def functions() -> list[dict]:
    rows = []
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        suffix = "f32" if dtype == np.float32 else "f64"
        for name, (lo, hi) in RANGES.items():
            x = rng.uniform(lo, hi, N).astype(dtype)
            out = np.empty_like(x)
            row = {"function": name, "dtype": np.dtype(dtype).name,
                   "vmath": _median_ns(_loop(getattr(vmath, f"{name}_{suffix}")), x, out),
                   "libm_loop": _median_ns(_libm(name, dtype), x, out),
                   "numpy": _median_ns(_numpy(name), x, out)}
            rows.append(row)
    return rows


def _reduction(update):
    @numba.njit(nogil=True)
    def run(x):
        m = x[0]
        for i in range(x.size):
            m = update(m, x[i])
        return m

    return run


@numba.njit(nogil=True)
def _if_greater(x):
    m = x[0]
    for i in range(x.size):
        if x[i] > m:
            m = x[i]
    return m


@numba.njit(nogil=True)
def _max_and_nan_count(x):  # NaN as np.max: counted beside a plain max
    m, nan = x[0], 0
    for i in range(x.size):
        v = x[i]
        m = max(m, v)
        nan += v != v
    return np.float32(np.nan) if nan else m


@numba.njit(parallel=True)
def _prange_builtin(x):
    m, nan = x[0], 0
    for i in numba.prange(x.size):
        v = x[i]
        m = max(m, v)
        nan += v != v
    return np.float32(np.nan) if nan else m


@numba.njit(parallel=True)
def _prange_chunks(x):
    size = 65536
    chunks = (x.size + size - 1) // size
    partial = np.empty(chunks, x.dtype)
    for c in numba.prange(chunks):
        xs = x[c * size:(c + 1) * size]  # indices from 0: `range(lo, hi)` keeps a wraparound check, and scalar
        m = xs[0]
        for i in range(xs.size):
            m = vmath.maximum(m, xs[i])
        partial[c] = m
    m = partial[0]
    for c in range(1, chunks):
        m = vmath.maximum(m, partial[c])
    return m


@numba.njit(parallel=True)
def _prange_floor(x):  # the cost of a parallel region itself
    m = x[0]
    for i in numba.prange(16):
        m = max(m, x[i])
    return m


def reductions() -> list[dict]:
    x = np.random.default_rng(1).standard_normal(N).astype(np.float32)
    forms = [("np.max(x)", np.max),
             ("m = max(m, v)", _reduction(numba.njit(lambda m, v: max(m, v)))),
             ("m = v if v > m else m", _reduction(numba.njit(lambda m, v: v if v > m else m))),
             ("if v > m: m = v", _if_greater),
             ("max + NaN count", _max_and_nan_count),
             ("m = vmath.maximum(m, v)", _reduction(vmath.maximum)),
             ("prange: max + NaN count", _prange_builtin),
             ("prange: chunks of vmath.maximum", _prange_chunks)]
    rows = [{"form": name, "ns": _median_ns(fn, x)} for name, fn in forms]
    return rows + [{"form": "floor", "us": _median_ns(_prange_floor, x, n=1) / 1e3}]


def _gelu(tanh):
    @numba.njit(nogil=True)
    def run(x, out):
        for i in range(x.size):
            v = x[i]
            out[i] = np.float32(0.5) * v * (np.float32(1.0) + tanh(
                np.float32(0.7978845608) * (v + np.float32(0.044715) * v * v * v)))

    return run


def _gelu_numpy(x, out):
    t = x * x
    t *= x
    t *= np.float32(0.044715)
    t += x
    t *= np.float32(0.7978845608)
    np.tanh(t, out=t)
    t += 1
    np.multiply(x, t, out=out)
    out *= np.float32(0.5)


def gelu() -> list[dict]:
    x = np.random.default_rng(2).standard_normal(N).astype(np.float32)
    out = np.empty_like(x)
    forms = [("NumPy, in place", _gelu_numpy),
             ("loop, math.tanh", _gelu(numba.njit(lambda v: np.float32(math.tanh(v))))),
             ("loop, vmath.tanh_f32", _gelu(vmath.tanh_f32))]
    return [{"form": name, "ns": _median_ns(fn, x, out)} for name, fn in forms]


def _merge(runs: list[list[dict]]) -> list[dict]:
    merged = []
    for rows in zip(*runs):
        row = dict(rows[0])
        for field, value in rows[0].items():
            if isinstance(value, float):
                values = [r[field] for r in rows]
                row[field] = statistics.median(values)
                row[field + "_range"] = [min(values), max(values)]
        merged.append(row)
    return merged


def _cell(row: dict, field: str) -> str:
    if field not in row:
        return ""
    lo, hi = row[field + "_range"]
    return f"{row[field]:.2f} [{lo:.2f}–{hi:.2f}]"


def report(results: dict) -> str:
    lines = ["# Vectorizable transcendentals (runtime/vmath.py)", "", f"Machine: {results['machine']}; "
             f"load average before each run: {', '.join(f'{v:.2f}' for v in results['load'])}.", "",
             f"`python bench/vmath.py`: {N:,} elements, ns per element, median of {CALLS} calls per run, median "
             f"of {results['runs']} runs [min–max]. One thread unless marked prange (2 threads, OMP_WAIT_POLICY="
             f"{os.environ.get('OMP_WAIT_POLICY')}).", "",
             "| function | dtype | vmath loop | loop calling math.f | NumPy | vmath vs loop | vmath vs NumPy |",
             "|---|---|---|---|---|---|---|"]
    for r in results["functions"]:
        lines.append(f"| {r['function']} | {r['dtype']} | {_cell(r, 'vmath')} | {_cell(r, 'libm_loop')} | "
                     f"{_cell(r, 'numpy')} | {r['libm_loop'] / r['vmath']:.1f}x | {r['numpy'] / r['vmath']:.2f}x |")
    lines += ["", "NumPy: np.exp, np.log, np.tanh with `out=`; scipy.special.erf; sigmoid as np.negative, np.exp, "
              "+= 1, np.reciprocal in place.", "", "## float32 max of 4M values", "", "| form | ns per element |",
              "|---|---|"]
    lines += [f"| `{r['form']}` | {_cell(r, 'ns')} |" for r in results["reductions"] if "ns" in r]
    floor = results["reductions"][-1]
    lines += ["", f"A parallel region of 16 iterations, no work, costs {_cell(floor, 'us')} µs (with libgomp's default "
              "wait policy it was 12 ms under this machine's load)."]
    lines += ["", "## Fused GELU, tanh form, 4M float32 (x ** 3 written as x * x * x)", "",
              "| form | ns per element |", "|---|---|"]
    lines += [f"| {r['form']} | {_cell(r, 'ns')} |" for r in results["gelu"]]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs: dict[str, list] = {"functions": [], "reductions": [], "gelu": []}
    load = []
    for _ in range(args.runs):
        load.append(os.getloadavg()[0])
        runs["functions"].append(functions())
        runs["reductions"].append(reductions())
        runs["gelu"].append(gelu())
    results = {"machine": _machine(), "runs": args.runs, "load": load, "elements": N,
               **{key: _merge(value) for key, value in runs.items()}}
    (HERE / "vmath.json").write_text(json.dumps(results, indent=1) + "\n")
    (HERE / "vmath.md").write_text(report(results))
    print(report(results))


if __name__ == "__main__":
    main()
