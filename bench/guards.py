"""What guards cost and what static dims buy, measured against Numba in one process (medians).

- Guard-check overhead per call: a function of 1, 3 and 8 small arrays, called 100k times through
  cuvil.jit and through numba.njit (Numba's dispatch is its own type check); both in µs per call.
- Static-dim benefit: pairwise distances of 3-D points, where the inner dim (3) is static under the default
  policy (Cuvil generates `range(3)`, which LLVM unrolls), against the same function with `dynamic=True`.
- Values read: what guarding the values a function reads from outside its arguments costs per call (module
  constants, attributes of a user's module, a builtin that must stay unshadowed, a read-only array, a
  callee's defaults): the variant's guard alone, run with a no-op in place of the compiled code, in ns
  (best of many runs: the guard is a few hundred ns, so the minimum is what a busy machine distorts least).

Run: `python bench/guards.py`. Writes bench/guards.md and bench/guards.json.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.cpu_vs_numba import _machine  # noqa: E402
from bench.kernels.pairwise import pairwise  # noqa: E402

_SOURCES = {
    1: "def f1(a):\n    a[0] = 1.0\n    return a\n",
    3: "def f3(a, b, c):\n    a[0] = b[0] + c[0]\n    return a\n",
    8: "def f8(a, b, c, d, e, f, g, h):\n    a[0] = b[0] + c[0] + d[0] + e[0] + f[0] + g[0] + h[0]\n    return a\n",
}


def _function(n: int):
    import linecache

    filename = f"<bench-guards-{n}>"
    text = _SOURCES[n]
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    namespace: dict = {}
    exec(compile(text, filename, "exec"), namespace)
    return namespace[f"f{n}"]


def per_call_us(fn, args, calls: int, repeat: int) -> tuple[float, float, float]:
    fn(*args)
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples), min(samples), max(samples)


def guard_overhead(repeat: int, calls: int) -> list[dict]:
    import cuvil

    rows = []
    for n in (1, 3, 8):
        fn = _function(n)
        args = tuple(np.ones(4) for _ in range(n))
        nb = per_call_us(numba.njit(nogil=True)(fn), args, calls, repeat)
        cv = per_call_us(cuvil.jit(fn), args, calls, repeat)
        rows.append({"arrays": n, "numba_us": nb[0], "cuvil_us": cv[0], "extra_us": cv[0] - nb[0],
                     "ratio": cv[0] / nb[0], "numba_min_max": nb[1:], "cuvil_min_max": cv[1:]})
    return rows


_VALUES = {
    "none": "def v0(a):\n    a[0] = 1.0\n    return a\n",
    "3 module constants": "def v1(a):\n    a[0] = K1 + K2 + K3\n    return a\n",
    "3 constants + len()": "def v2(a):\n    a[0] = K1 + K2 + K3 + len(a)\n    return a\n",
    "3 attributes of a user module": "def v3(a):\n    a[0] = cfg.A + cfg.B + cfg.C\n    return a\n",
    "a read-only global array": "def v4(a):\n    a[0] = TABLE[1]\n    return a\n",
    "a callee with a default": "def h(x, k=2.0):\n    return x + k\ndef v5(a):\n    a[0] = h(1.0)\n    return a\n",
}


def values_read(repeat: int, calls: int) -> list[dict]:
    import types

    import cuvil

    cfg = types.ModuleType("bench_guards_cfg")
    cfg.A, cfg.B, cfg.C = 1.0, 2.0, 3.0
    sys.modules[cfg.__name__] = cfg
    table = np.arange(3.0)
    table.flags.writeable = False
    rows, args = [], (np.ones(4),)
    for k, (label, text) in enumerate(_VALUES.items()):
        import linecache

        filename = f"<bench-values-{k}>"
        linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
        namespace: dict = {"K1": 1.0, "K2": 2, "K3": 3.0, "cfg": cfg, "TABLE": table}
        exec(compile(text, filename, "exec"), namespace)
        jitted = cuvil.jit(namespace[f"v{k}"])
        jitted(*args)
        guard_only = jitted._variants[0].guard.entry(lambda *a: None)
        best = []
        for _ in range(repeat):
            start = time.perf_counter()
            for _ in range(calls):
                guard_only(args)
            best.append((time.perf_counter() - start) / calls * 1e9)
        rows.append({"reads": label, "guard_ns": min(best), "call_us": per_call_us(jitted, args, calls, repeat)[0]})
    return rows


def static_dim_benefit(repeat: int, n: int) -> dict:
    import cuvil

    points = np.random.default_rng(0).random((n, 3))
    out = np.empty((n, n))
    static, dynamic = cuvil.jit(pairwise), cuvil.jit(pairwise, dynamic=True)
    static(points, out), dynamic(points, out)
    assert "range(3)" in static.source() and "range(points.shape[1])" in dynamic.source()
    times: dict[str, list[float]] = {"static": [], "dynamic": []}
    for _ in range(repeat):
        for label, fn in (("static", static), ("dynamic", dynamic)):
            start = time.perf_counter()
            fn(points, out)
            times[label].append(time.perf_counter() - start)
    s, d = statistics.median(times["static"]) * 1e3, statistics.median(times["dynamic"]) * 1e3
    return {"points": n, "static_ms": s, "dynamic_ms": d, "speedup": d / s}


def main() -> None:
    repeat, calls = 7, 100_000
    results = {"machine": _machine(), "overhead": guard_overhead(repeat, calls),
               "static": static_dim_benefit(repeat, 2000), "values": values_read(5 * repeat, calls // 10)}
    lines = ["# Guards: overhead and static-dim benefit", "", f"Machine: {results['machine']}", "",
             f"Generated by `python bench/guards.py`; medians of {repeat} runs.", "",
             f"## Per-call cost, {calls // 1000}k calls of a function of N arrays of 4 float64", "",
             "| arrays | numba µs | cuvil µs | cuvil − numba µs | cuvil / numba |", "|---|---|---|---|---|"]
    lines += [f"| {r['arrays']} | {r['numba_us']:.3f} | {r['cuvil_us']:.3f} | {r['extra_us']:.3f} "
              f"| {r['ratio']:.2f} |" for r in results["overhead"]]
    s = results["static"]
    lines += ["", f"## Static inner dim: pairwise distances of {s['points']} 3-D points", "",
              "| static (range(3)) ms | dynamic ms | speedup |", "|---|---|---|",
              f"| {s['static_ms']:.2f} | {s['dynamic_ms']:.2f} | {s['speedup']:.2f}× |"]
    lines += ["", "## Values read from outside the arguments: the guard alone, per call", "",
              "| the function reads | guard ns (best) | whole call µs (median) |", "|---|---|---|"]
    lines += [f"| {r['reads']} | {r['guard_ns']:.0f} | {r['call_us']:.3f} |" for r in results["values"]]
    text = "\n".join(lines) + "\n"
    (HERE / "guards.md").write_text(text)
    (HERE / "guards.json").write_text(json.dumps(results, indent=1))
    print(text)


if __name__ == "__main__":
    main()
