"""Cuvil against Numba on the very same Python function, in one process (medians of several runs):

- steady state of loop kernels: numba.njit(nogil=True) vs cuvil.jit, ratio numba_time / cuvil_time (≥ 1 means
  Cuvil is at least as fast);
- call overhead of a three-small-array function, per call, both in µs;
- first-call latency in fresh processes: Numba's, and Cuvil's split into decorate (subset check, incl. the
  libcst import), parse, normalize, analyze, codegen and Numba's own compile; plus Cuvil's warm start from the
  disk cache. Cuvil's cold start is a new function's first call with Cuvil's own check helpers already in
  Numba's cache (they are compiled once per installation: runtime/checks.py, messages.py); "first use" is the
  same call with that cache empty too, as on a machine where Cuvil never ran.

Run: `python bench/cpu_vs_numba.py` (or `nox -s bench`). Writes bench/cpu_vs_numba.md and .json.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

LOOP_KERNELS = ("pairwise", "escape_time", "stencil", "dot")


def _kernel(name: str):
    module = importlib.import_module(f"bench.kernels.{name}")
    return getattr(module, name), module.args


def _timed(fn, make_args, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        args = make_args()
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return times


def steady_state(name: str, repeat: int, scale: float) -> dict:
    import cuvil

    fn, make = _kernel(name)
    nb, cv = numba.njit(nogil=True)(fn), cuvil.jit(fn)
    small = make(0.01)
    nb(*small), cv(*small)
    nb_times, cv_times = [], []
    for _ in range(repeat):  # interleaved, so drift hits both alike
        nb_times += _timed(nb, lambda: make(scale), 1)
        cv_times += _timed(cv, lambda: make(scale), 1)
    nb_ms, cv_ms = statistics.median(nb_times) * 1e3, statistics.median(cv_times) * 1e3
    return {"kernel": name, "numba_ms": nb_ms, "cuvil_ms": cv_ms, "ratio": nb_ms / cv_ms,
            "numba_min_max": [min(nb_times) * 1e3, max(nb_times) * 1e3],
            "cuvil_min_max": [min(cv_times) * 1e3, max(cv_times) * 1e3]}


def call_overhead(repeat: int, calls: int = 100_000) -> dict:
    import cuvil

    fn, make = _kernel("small_call")
    nb, cv = numba.njit(nogil=True)(fn), cuvil.jit(fn)
    args = make()
    nb(*args), cv(*args)
    result = {}
    for label, f in (("numba", nb), ("cuvil", cv)):
        per_call = []
        for _ in range(repeat):
            start = time.perf_counter()
            for _ in range(calls):
                f(*args)
            per_call.append((time.perf_counter() - start) / calls * 1e6)
        result[f"{label}_us"] = statistics.median(per_call)
    result["ratio"] = result["cuvil_us"] / result["numba_us"]
    return result


_FIRST_CALL = """
import json, sys, time
sys.path.insert(0, {root!r})
import numpy, numba
from bench.kernels.{name} import {name} as fn, args
a = args(0.01)
start = time.perf_counter()
if {system!r} == "numba":
    f = numba.njit(nogil=True, cache={cache})(fn)
    decorate = time.perf_counter() - start
    f(*a)
    print(json.dumps({{"decorate": decorate, "total": time.perf_counter() - start}}))
else:
    import cuvil
    f = cuvil.jit(fn)
    decorate = time.perf_counter() - start
    f(*a)
    total = time.perf_counter() - start
    event = cuvil.explain(f).compiles[0]
    print(json.dumps({{"decorate": decorate, "total": total, "cache": event.cache, **event.seconds}}))
"""


def first_call(name: str, system: str, cache_dir: str, repeat: int, warm: bool, helpers: str | None = None) -> dict:
    """Medians over fresh processes. `warm`: both caches filled by a run before each; else a new Cuvil cache
    each time, and a new Numba cache too unless `helpers` names one holding the helpers (helper_cache)."""
    samples = []
    for _ in range(repeat):
        code = _FIRST_CALL.format(root=str(ROOT), name=name, system=system, cache=warm)
        env = {**os.environ, "CUVIL_CACHE_DIR": cache_dir, "NUMBA_CACHE_DIR": cache_dir + "-numba"}
        if warm:  # fill the caches first
            subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
        else:
            env["CUVIL_CACHE_DIR"] = tempfile.mkdtemp(dir=cache_dir)
            # A generated module's own Numba cache lies under a folder named for its entry's path: a new
            # Cuvil cache never finds one in `helpers`.
            env["NUMBA_CACHE_DIR"] = helpers or env["CUVIL_CACHE_DIR"] + "-numba"
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
        samples.append(json.loads(out.stdout))
    return {key: statistics.median(s[key] for s in samples) for key in samples[0] if key != "cache"} | (
        {"cache": samples[0]["cache"]} if "cache" in samples[0] else {})


def helper_cache(cache_dir: str) -> str:
    """A Numba cache holding Cuvil's check helpers, as any machine has after Cuvil's first use: filled by one
    first call of each loop kernel (their own entries are never found again, see first_call)."""
    helpers = tempfile.mkdtemp(dir=cache_dir)
    for name in LOOP_KERNELS:
        code = _FIRST_CALL.format(root=str(ROOT), name=name, system="cuvil", cache=False)
        env = {**os.environ, "CUVIL_CACHE_DIR": tempfile.mkdtemp(dir=cache_dir), "NUMBA_CACHE_DIR": helpers}
        subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    return helpers


def _machine() -> str:
    import cuvil

    return (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"numba {numba.__version__}, numpy {np.__version__}, cuvil {cuvil.__version__}, "
            f"{time.strftime('%Y-%m-%d')}")


def report(results: dict) -> str:
    lines = ["# Cuvil vs Numba (CPU)", "", f"Machine: {results['machine']}", "",
             "Generated by `python bench/cpu_vs_numba.py`; medians of "
             f"{results['repeat']} runs, min–max in brackets.", "",
             "## Steady state (same function; ratio = numba time / cuvil time, ≥ 0.95 is the target)", "",
             "| kernel | numba ms | cuvil ms | ratio |", "|---|---|---|---|"]
    for r in results["steady"]:
        lines.append(f"| {r['kernel']} | {r['numba_ms']:.2f} [{r['numba_min_max'][0]:.2f}–{r['numba_min_max'][1]:.2f}]"
                     f" | {r['cuvil_ms']:.2f} [{r['cuvil_min_max'][0]:.2f}–{r['cuvil_min_max'][1]:.2f}]"
                     f" | {r['ratio']:.3f} |")
    o = results["overhead"]
    lines += ["", "## Call overhead (3 arrays of 4 float64, 100k calls)", "",
              "| numba µs/call | cuvil µs/call | cuvil / numba |", "|---|---|---|",
              f"| {o['numba_us']:.3f} | {o['cuvil_us']:.3f} | {o['ratio']:.2f} |", "",
              "## First call (fresh process, numpy and numba already imported; ms)", "",
              "| kernel | numba | cuvil cold | decorate | parse | normalize | analyze | codegen | numba part |"
              " cuvil first use | cuvil warm (disk) | numba warm (cache=True) |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results["first_call"]:
        c, w = r["cuvil_cold"], r["cuvil_warm"]
        lines.append(f"| {r['kernel']} | {r['numba_cold']['total'] * 1e3:.0f} | {c['total'] * 1e3:.0f} "
                     f"| {c['decorate'] * 1e3:.0f} | {c['parse'] * 1e3:.1f} | {c['normalize'] * 1e3:.1f} "
                     f"| {c['analyze'] * 1e3:.1f} | {c['codegen'] * 1e3:.1f} | {c['backend'] * 1e3:.0f} "
                     f"| {r['cuvil_first_use']['total'] * 1e3:.0f} "
                     f"| {w['total'] * 1e3:.0f} | {r['numba_warm']['total'] * 1e3:.0f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--scale", type=float, default=1.0, help="problem size factor for steady state")
    parser.add_argument("--first-call-repeat", type=int, default=5)
    parser.add_argument("--out", type=Path, default=HERE / "cpu_vs_numba")
    args = parser.parse_args()
    results = {"machine": _machine(), "repeat": args.repeat, "steady": [], "first_call": []}
    for name in LOOP_KERNELS:
        print(f"steady state: {name}", file=sys.stderr, flush=True)
        results["steady"].append(steady_state(name, args.repeat, args.scale))
    print("call overhead", file=sys.stderr, flush=True)
    results["overhead"] = call_overhead(args.repeat)
    with tempfile.TemporaryDirectory() as scratch:
        helpers = helper_cache(scratch)
        for name in LOOP_KERNELS:
            print(f"first call: {name}", file=sys.stderr, flush=True)
            n = args.first_call_repeat
            results["first_call"].append({
                "kernel": name,
                "numba_cold": first_call(name, "numba", scratch, n, warm=False),
                "cuvil_cold": first_call(name, "cuvil", scratch, n, warm=False, helpers=helpers),
                "cuvil_first_use": first_call(name, "cuvil", scratch, n, warm=False),
                "cuvil_warm": first_call(name, "cuvil", scratch, n, warm=True),
                "numba_warm": first_call(name, "numba", scratch, n, warm=True),
            })
    text = report(results)
    args.out.with_suffix(".json").write_text(json.dumps(results, indent=1))
    args.out.with_suffix(".md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
