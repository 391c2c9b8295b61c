"""A dask.array map_blocks job on a 2-worker distributed.LocalCluster (issue 15): Cuvil against numba.njit and
NumPy on the same NumPy expression, time to result with cold caches (fresh worker processes, empty Cuvil and
Numba cache directories) and with warm caches (fresh worker processes, the caches the cold run filled), then
again on the warm cluster's processes (hot); and each worker's compile count. Writes bench/distributed.md (and
.json).

The functions are defined in this script, that is in `__main__`: Cuvil sends them by value (as from a notebook),
Numba pickles its dispatcher by value too. Time to result includes what a user waits for on a fresh cluster:
unpickling the function on each worker, importing Numba (and Cuvil) there, loading or compiling. Cluster start
is not included. The array is made on the workers (dask.array.linspace) and reduced there (`.sum()`), so the
client never holds it.

    python bench/distributed.py [--n 100_000_000] [--chunk 10_000_000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == HERE:  # `python bench/distributed.py`: this file would
    sys.path.pop(0)  # shadow the `distributed` package

import dask.array as da  # noqa: E402
import distributed  # noqa: E402
import numba  # noqa: E402
import numpy as np  # noqa: E402

import cuvil  # noqa: E402
import cuvil.distributed as cd  # noqa: E402


def curve(x):
    return np.tanh(x) * np.exp(-x * x) + 0.5 * x


curve_cuvil = cuvil.jit(curve)
curve_numba = numba.njit(cache=True)(curve)
IMPLS = {"cuvil": curve_cuvil, "numba.njit": curve_numba, "numpy": curve}


def numba_compiles(fn):
    """On a worker: (signatures compiled or loaded, Numba cache hits, Numba cache misses)."""
    stats = fn.stats
    return len(fn.signatures), sum(stats.cache_hits.values()), sum(stats.cache_misses.values())


def compiles(client, name):
    """Per worker, in words: how many compiles and where each came from."""
    fn = IMPLS[name]
    if name == "cuvil":
        return {w: [e.cache for e in events] for w, events in cd.explain(client, fn).items()}
    if name == "numba.njit":
        return {w: "{} signature(s), {} cache hit(s), {} miss(es)".format(*v)
                for w, v in client.run(numba_compiles, fn).items()}
    return {}


def job(client, name, n, chunk):
    x = da.linspace(-3.0, 5.0, n, chunks=chunk)
    y = x.map_blocks(IMPLS[name], meta=np.array((), np.float64))  # meta: dask does not call it on the client
    start = time.perf_counter()
    total = client.compute(y.sum()).result()
    return time.perf_counter() - start, float(total)


def cluster(cache):
    env = {"CUVIL_CACHE_DIR": str(cache / "cuvil"), "NUMBA_CACHE_DIR": str(cache / "numba")}
    return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                    silence_logs=logging.ERROR, env=env)


def one_run(name, n, chunk):
    """Cold, warm and hot time to result for one implementation, each on fresh caches."""
    with tempfile.TemporaryDirectory(prefix="cuvil-bench-dist-") as folder:
        cache, out = Path(folder), {}
        with cluster(cache) as c, distributed.Client(c) as client:
            out["cold"], out["total"] = job(client, name, n, chunk)
            out["cold_compiles"] = compiles(client, name)
        with cluster(cache) as c, distributed.Client(c) as client:
            out["warm"], _ = job(client, name, n, chunk)
            out["warm_compiles"] = compiles(client, name)
            out["hot"], _ = job(client, name, n, chunk)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100_000_000)
    parser.add_argument("--chunk", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--report-only", action="store_true", help="rewrite the .md from the last .json")
    args = parser.parse_args()
    if args.report_only:
        (HERE / "distributed.md").write_text(report(json.loads((HERE / "distributed.json").read_text())))
        return
    runs = {name: [] for name in IMPLS}
    for _ in range(args.runs):
        for name in IMPLS:  # interleaved: a load change hits all three alike
            runs[name].append(one_run(name, args.n, args.chunk))
            print(name, {k: v for k, v in runs[name][-1].items() if "compiles" not in k}, flush=True)
    medians = {name: {k: statistics.median(r[k] for r in rs) for k in ("cold", "warm", "hot")}
               for name, rs in runs.items()}
    totals = {name: rs[0]["total"] for name, rs in runs.items()}
    result = {"n": args.n, "chunk": args.chunk, "runs": args.runs, "medians": medians, "totals": totals,
              "compiles": {name: {k: rs[-1][k] for k in ("cold_compiles", "warm_compiles")}
                           for name, rs in runs.items()},
              "all": runs, "machine": machine()}
    (HERE / "distributed.json").write_text(json.dumps(result, indent=1))
    (HERE / "distributed.md").write_text(report(result))
    print(report(result))


def machine():
    return {"python": platform.python_version(), "cpus": os.cpu_count(), "numba": numba.__version__,
            "numpy": np.__version__, "dask": distributed.__version__, "cuvil": cuvil.__version__,
            "load_average_at_end": os.getloadavg()}


def report(r):
    m = r["medians"]
    lines = [
        "# Cuvil on Dask distributed: a map_blocks job (issue 15)",
        "",
        f"`python bench/distributed.py --n {r['n']} --chunk {r['chunk']} --runs {r['runs']}`: "
        f"`curve(x) = tanh(x) * exp(-x*x) + 0.5*x` over {r['n']:,} float64 (`dask.array.linspace(-3, 5)`, chunks of "
        f"{r['chunk']:,}), `map_blocks` then `.sum()`, on a `LocalCluster(n_workers=2, threads_per_worker=1)`. "
        "Seconds from `compute` to result (cluster start excluded), medians of the runs; ratios against NumPy in "
        "the same run. Cold: fresh worker processes, empty Cuvil and Numba cache directories. Warm: fresh worker "
        "processes on the caches the cold run filled. Hot: the same job again on the warm cluster.",
        "",
        "| | cold s | warm s | hot s | cold / NumPy | warm / NumPy | hot / NumPy |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in m:
        lines.append(f"| {name} | {m[name]['cold']:.2f} | {m[name]['warm']:.2f} | {m[name]['hot']:.2f} | "
                     + " | ".join(f"{m[name][k] / m['numpy'][k]:.2f}" for k in ("cold", "warm", "hot")) + " |")
    lines += ["", "Compiles per worker (last run; Cuvil: where each compile's module came from — `miss` compiled, "
              "`disk` read from the cache; Numba: its dispatcher's cache statistics):", ""]
    for name, c in r["compiles"].items():
        if name != "numpy":
            lines.append(f"- {name}: cold {sorted(c['cold_compiles'].values())}, "
                         f"warm {sorted(c['warm_compiles'].values())}")
    t = r["totals"]
    agree = all(np.isclose(t[k], t["numpy"], rtol=1e-9, atol=0) for k in t)
    lines += ["", f"Sums {'agree' if agree else 'DIFFER'}: Cuvil {t['cuvil']!r}, Numba {t['numba.njit']!r}, "
              f"NumPy {t['numpy']!r}.", "",
              "Reading it: cold, Cuvil pays its front end and code generation once per cache (one worker "
              "compiles, the other waits on the entry's lock and reads it: `miss` and `disk`), plus importing "
              "Numba and Cuvil in each worker; warm, both workers read the module from the disk and only Numba's "
              "own cache load remains. Numba's `cache=True` reported no cache hit on the warm cluster: its "
              "dispatcher arrives pickled by value (the function lives in `__main__`) and compiles again in "
              "every worker process. Hot, the figures are the kernels themselves: Cuvil's one fused loop with "
              "its own vectorizable tanh/exp (runtime/vmath.py) against Numba's array expression and NumPy's "
              "passes with temporaries. "
              "The machine is shared (2 cores, other jobs running: see the load average), so single figures "
              "vary by tens of percent between runs; the runs are interleaved and the table gives medians.",
              "",
              f"Machine: {r['machine']}."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
