"""Call overhead of a compiled function against numba.njit on the same function (issue 13 §4): three small
arrays, two scalars, and a keyword argument. Each figure is the median over several runs of the mean time of a
loop of calls; the ratio is Cuvil's over Numba's in the same run. Writes bench/call_overhead.md (and .json).

    python bench/call_overhead.py [--runs 7] [--calls 20000]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

import numba
import numpy as np

import cuvil

HERE = Path(__file__).resolve().parent


def three_arrays(x, y, out):
    out[0] = x[0] + y[0]
    return out


def two_scalars(a, b):
    return a * b + 1.0


def with_keyword(x, scale=1.0):
    return x[0] * scale


def _loop_arrays(fn, args, calls: int) -> None:
    x, y, out = args
    for _ in range(calls):
        fn(x, y, out)


def _loop_scalars(fn, args, calls: int) -> None:
    a, b = args
    for _ in range(calls):
        fn(a, b)


def _loop_keyword(fn, args, calls: int) -> None:
    x, scale = args
    for _ in range(calls):
        fn(x, scale=scale)


def _loop_star_keyword(fn, args, calls: int) -> None:
    x, scale = args
    kwargs = {"scale": scale}
    for _ in range(calls):
        fn(x, **kwargs)


# Each case calls as user code does, with the arguments spelled out; the last passes its keyword through a
# dict (`fn(x, **kwargs)`), as a wrapper forwarding its own keywords does: CPython hands a type with its own
# tp_call (numba.njit's) that dict as it is, and unpacks it for a vectorcall (Cuvil's).
CASES = {
    "3 arrays": (three_arrays, lambda: (np.ones(4), np.ones(4), np.empty(4)), _loop_arrays),
    "2 scalars": (two_scalars, lambda: (2.0, 3.0), _loop_scalars),
    "keyword": (with_keyword, lambda: (np.ones(4), 2.0), _loop_keyword),
    "keyword via **kwargs": (with_keyword, lambda: (np.ones(4), 2.0), _loop_star_keyword),
}


def _per_call(fn, args, loop, calls: int) -> float:
    start = time.process_time()
    loop(fn, args, calls)
    return (time.process_time() - start) / calls


def measure(runs: int, calls: int) -> dict[str, dict[str, float]]:
    """Per case: Cuvil, numba.njit, and numba.njit(nogil=True) — what Cuvil compiles every CPU variant as (the
    GIL released and taken again costs ~60 ns a call, measured): the call path compared at equal code."""
    results = {}
    for name, (py, make, loop) in CASES.items():
        args = make()
        jitted, njitted, nogil = cuvil.jit(py), numba.njit(py), numba.njit(nogil=True)(py)
        for fn in (jitted, njitted, nogil):
            loop(fn, args, 1)  # compile
        times: dict[str, list[float]] = {"cuvil": [], "numba": [], "nogil": []}
        for _ in range(runs):  # interleaved: a loaded machine slows all alike
            for key, fn in (("cuvil", jitted), ("numba", njitted), ("nogil", nogil)):
                times[key].append(_per_call(fn, args, loop, calls))
        c, n, g = (statistics.median(times[k]) for k in ("cuvil", "numba", "nogil"))
        results[name] = {"cuvil_us": c * 1e6, "numba_us": n * 1e6, "ratio": c / n,
                         "numba_nogil_us": g * 1e6, "ratio_nogil": c / g}
    return results


TARGETS = {"3 arrays": 1.5, "2 scalars": 2.0, "keyword": 2.0, "keyword via **kwargs": 2.0}


def report(results: dict[str, dict[str, float]], label: str) -> str:
    lines = [f"### {label}", "", "| case | cuvil µs/call | numba.njit µs/call | ratio | target | "
             "njit(nogil=True) µs/call | ratio to it |", "|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        met = "met" if r["ratio"] <= TARGETS[name] else "missed"
        lines.append(f"| {name} | {r['cuvil_us']:.2f} | {r['numba_us']:.2f} | {r['ratio']:.2f}x | "
                     f"≤ {TARGETS[name]}x ({met}) | {r['numba_nogil_us']:.2f} | {r['ratio_nogil']:.2f}x |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--label", default="this run")
    parser.add_argument("--save", action="store_true", help="append to bench/call_overhead.json")
    args = parser.parse_args()
    results = measure(args.runs, args.calls)
    text = report(results, f"{args.label} (numba {numba.__version__}, python {platform.python_version()}, "
                           f"medians of {args.runs} runs of {args.calls} calls)")
    print(text)
    if args.save:
        path = HERE / "call_overhead.json"
        saved = json.loads(path.read_text()) if path.exists() else []
        saved.append({"label": args.label, "results": results})
        path.write_text(json.dumps(saved, indent=1) + "\n")


if __name__ == "__main__":
    main()
