"""`fn.submit` throughput (issue 17 §5): two calls of a nogil-bound kernel submitted to Cuvil's pool against the
same two calls in a row, and the peer: numba.njit(nogil=True) on a ThreadPoolExecutor of the user's own.

The kernel is a serial loop of about 50 ms per call (a compiled loop that releases the GIL for its whole run).
Throughput ratio = time of 2 sequential calls / time of 2 concurrent ones (2.0 is perfect on 2 cores). Each run
alternates the systems; per run the share of the CPUs other processes used meanwhile (/proc/stat less this
process) is recorded, since on a shared 2-core machine a busy neighbour, not the GIL, caps the ratio. Medians
over the runs, and the median over the quiet runs (others < 0.25 of a core) where there are any.

Run: `python bench/submit.py [--runs 9] [--ms 50]`. Writes bench/submit.md and bench/submit.json.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import cuvil  # noqa: E402
from cuvil.runtime import pool  # noqa: E402

SOURCE = """
def spin(x, reps):
    s = 0.0
    for r in range(reps):
        for i in range(x.shape[0]):
            s += x[i] * 0.5 + 1.0
    return s
"""


def _spin():
    import linecache

    filename = "<bench-submit>"
    linecache.cache[filename] = (len(SOURCE), None, SOURCE.splitlines(keepends=True), filename)
    namespace: dict = {}
    exec(compile(SOURCE, filename, "exec"), namespace)
    return namespace["spin"]


def _busy_seconds() -> float:
    """CPU seconds all processes have used (all but idle and iowait)."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _ratio(one_call, submit, x, reps) -> tuple[float, float]:
    """(sequential time / concurrent time, other processes' cores meanwhile) for two calls."""
    busy, own = _busy_seconds(), time.process_time()
    start = time.perf_counter()
    sequential = [one_call(x, reps) for _ in range(2)]
    one = time.perf_counter() - start
    start = time.perf_counter()
    futures = [submit(x, reps) for _ in range(2)]
    concurrent_ = [f.result() for f in futures]
    two = time.perf_counter() - start
    assert concurrent_ == sequential
    others = (_busy_seconds() - busy - (time.process_time() - own)) / (one + two)
    return one / two, max(others, 0.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--ms", type=float, default=50.0, help="milliseconds per call")
    args = parser.parse_args(argv)
    import numba

    spin = _spin()
    fn = cuvil.jit(spin, parallel=False, dynamic=True)
    peer = numba.njit(nogil=True)(spin)
    x = np.random.default_rng(0).random(2048)
    assert fn(x, 3) == peer(x, 3)
    start = time.perf_counter()
    fn(x, 1000)
    reps = max(1000, int(1000 * args.ms / 1e3 / max(time.perf_counter() - start, 1e-6)))
    pool.resize(2)
    threads = concurrent.futures.ThreadPoolExecutor(2)
    systems = {"cuvil fn.submit": (fn, fn.submit),
               "numba nogil + ThreadPoolExecutor": (peer, lambda *a: threads.submit(peer, *a))}
    found: dict[str, list[tuple[float, float]]] = {name: [] for name in systems}
    for run in range(args.runs):
        order = list(systems) if run % 2 == 0 else list(systems)[::-1]
        for name in order:
            found[name].append(_ratio(*systems[name], x, reps))
    threads.shutdown()
    load = os.getloadavg()
    rows, figures = [], {}
    for name, samples in found.items():
        ratios = [r for r, _ in samples]
        quiet = [r for r, others in samples if others < 0.25]
        figures[name] = {"ratios": ratios, "others": [o for _, o in samples],
                         "median": statistics.median(ratios), "quiet_median": statistics.median(quiet) if quiet
                         else None, "quiet_runs": len(quiet)}
        f = figures[name]
        quiet_text = f"{f['quiet_median']:.2f}x ({len(quiet)} runs)" if quiet else "no quiet run"
        rows.append(f"| {name} | {f['median']:.2f}x | {min(ratios):.2f}-{max(ratios):.2f}x | {quiet_text} |")
    per_call = reps * x.shape[0]
    text = "\n".join([
        "# fn.submit throughput (issue 17: ≥ 1.8× sequential on 2 cores)", "",
        f"`python bench/submit.py --runs {args.runs} --ms {args.ms:g}` on {os.cpu_count()} CPUs, load average "
        f"{load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f} when it ended. A serial float64 loop of {per_call:,} "
        "elements per call (about the milliseconds asked for); throughput ratio = 2 calls in a row / 2 calls "
        "at once on 2 workers (2.0 is perfect); systems alternate within each run. \"Quiet\": runs in which "
        "other processes used under a quarter of a core.", "",
        "| system | median ratio | range | median of quiet runs |", "|---|---|---|---|", *rows, ""])
    (HERE / "submit.md").write_text(text)
    (HERE / "submit.json").write_text(json.dumps({"reps": reps, "elements": int(x.shape[0]), "load": load,
                                                  "systems": figures}, indent=1))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
