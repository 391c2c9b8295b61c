"""What Python's errors cost (issue 10): loop kernels compiled by Cuvil with its default checks (bounds, today;
integer overflow and math domain once they land), by Cuvil with `boundscheck=False`, and by numba.njit (no
checks) on the very same source, in one process; medians of REPEATS after a warm-up call whose result is
compared with Numba's.

Kernels: the bench's loop kernels (bench/kernels: pairwise, escape_time, stencil, dot) and five that index in
the ways checks cost most: a gather `out[i] = a[idx[i]]`, an int64 dot product, an int64 prefix sum, a
histogram, a Collatz search. Ratio = numba time / cuvil time (≥ 1: as fast); targets: geometric mean ≥ 0.9,
worst ≥ 0.75 with checks; ≥ 0.95 without.

Run: `python bench/checks.py`. Writes bench/checks.md and bench/checks.json.
"""

from __future__ import annotations

import importlib
import json
import math
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import cuvil  # noqa: E402
from bench.cpu_vs_numba import _machine  # noqa: E402
from bench.kernels.collatz import collatz  # noqa: E402

REPEATS = 7
CLOCK = time.perf_counter  # --clock thread: time.thread_time, this thread's CPU time (every kernel is serial),
# which other processes' load on a shared machine inflates far less than the wall clock
N = 4_000_000


def gather(a, idx, out):
    for i in range(len(idx)):
        out[i] = a[idx[i]]
    return out


def int_dot(a, b):
    s = 0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


def prefix_sum(a, out):
    s = 0
    for i in range(len(a)):
        s += a[i]
        out[i] = s
    return out


def histogram(values, bins):
    counts = np.zeros(bins, np.int64)
    for i in range(len(values)):
        counts[values[i] % bins] += 1
    return counts


def _extra() -> list[tuple[str, object, tuple]]:
    rng = np.random.default_rng(0)
    ints = rng.integers(0, 1000, N)
    return [
        ("gather", gather, (rng.random(N), rng.integers(0, N, N), np.empty(N))),
        ("int64 dot", int_dot, (ints, ints[::-1].copy())),
        ("int64 prefix sum", prefix_sum, (ints, np.empty(N, np.int64))),
        ("histogram", histogram, (ints, 64)),
        ("collatz", collatz, (300_000,)),
    ]


def _bench_kernels() -> list[tuple[str, object, tuple]]:
    out = []
    for name in ("pairwise", "escape_time", "stencil", "dot"):
        module = importlib.import_module(f"bench.kernels.{name}")
        out.append((name, getattr(module, name), module.args(0.25)))
    return out


def _median_ms(systems: dict[str, object], args) -> dict[str, float]:
    """Each system's median time, the systems interleaved call by call: on a shared machine a burst of other
    load then slows all three alike instead of one system's whole series."""
    times: dict[str, list[float]] = {name: [] for name in systems}
    for _ in range(REPEATS):
        for name, fn in systems.items():
            fresh = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
            start = CLOCK()
            fn(*fresh)  # type: ignore[operator]
            times[name].append(CLOCK() - start)
    return {name: statistics.median(t) * 1e3 for name, t in times.items()}


def measure() -> list[dict[str, object]]:
    rows = []
    for label, fn, args in _bench_kernels() + _extra():
        systems = {"numba": numba.njit(nogil=True)(fn), "cuvil": cuvil.jit(fn),
                   "cuvil_unchecked": cuvil.jit(fn, boundscheck=False)}
        expected = systems["numba"](*(a.copy() if isinstance(a, np.ndarray) else a for a in args))
        for name, system in systems.items():
            got = system(*(a.copy() if isinstance(a, np.ndarray) else a for a in args))
            assert np.allclose(got, expected), f"{label}: {name} differs from Numba"
        ms = _median_ms(systems, args)
        rows.append({"kernel": label, **{f"{k}_ms": v for k, v in ms.items()},
                     "ratio": ms["numba"] / ms["cuvil"], "ratio_unchecked": ms["numba"] / ms["cuvil_unchecked"]})
    return rows


def main() -> None:
    global REPEATS, CLOCK
    if "--repeats" in sys.argv:
        REPEATS = int(sys.argv[sys.argv.index("--repeats") + 1])
    thread = "--clock" in sys.argv and sys.argv[sys.argv.index("--clock") + 1] == "thread"
    CLOCK = time.thread_time if thread else time.perf_counter
    rows = measure()
    geo = math.exp(statistics.mean(math.log(r["ratio"]) for r in rows))  # type: ignore[arg-type]
    geo_off = math.exp(statistics.mean(math.log(r["ratio_unchecked"]) for r in rows))  # type: ignore[arg-type]
    results = {"machine": _machine(), "repeats": REPEATS, "clock": "thread" if thread else "wall", "rows": rows,
               "geomean": geo, "geomean_unchecked": geo_off}
    (HERE / "checks.json").write_text(json.dumps(results, indent=1))
    lines = ["# Python's errors: what the checks cost against Numba", "", f"Machine: {results['machine']}; medians "
             f"of {REPEATS}, the three systems interleaved call by call; "
             f"{'thread CPU time' if thread else 'wall time'}; `python bench/checks.py --repeats {REPEATS}"
             f"{' --clock thread' if thread else ''}`.", "",
             "| kernel | numba ms | cuvil ms (checks) | ratio | cuvil ms (boundscheck=False) | ratio |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['kernel']} | {r['numba_ms']:.2f} | {r['cuvil_ms']:.2f} | {r['ratio']:.2f} | "
                     f"{r['cuvil_unchecked_ms']:.2f} | {r['ratio_unchecked']:.2f} |")
    worst = min(r["ratio"] for r in rows)  # type: ignore[type-var]
    lines += ["", f"Geometric mean {geo:.2f} with checks (worst {worst:.2f}), {geo_off:.2f} without. "
              "Ratio = numba time / cuvil time."]
    (HERE / "checks.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
