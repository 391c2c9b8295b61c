"""Numba's threading layers under Cuvil's `parallel=True` code: speed, launch overhead, fork and thread safety.

Each layer runs in processes of its own (the layer is chosen once per process): two 10M-element kernels
(a reduction and an elementwise exp), the per-call cost of a 1,000-element parallel loop (launch overhead),
then a `multiprocessing` child made with fork after a parallel call, and four threads calling a parallel
function at once — each in a further process, whose exit code is what is reported (-15: killed by SIGTERM,
as GNU OpenMP's fork handler does; -6: aborted, as the workqueue layer does on concurrent use).

Run: `python bench/threads.py`. Writes bench/threads.md and bench/threads.json.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LAYERS = ("omp", "workqueue", "tbb")
ROUNDS = 3

KERNELS = '''
import numpy as np, cuvil

@cuvil.jit(parallel=True)
def reduce_sin(x):
    s = 0.0
    for i in range(len(x)):
        s += np.sqrt(x[i]) * np.sin(x[i])
    return s

@cuvil.jit(parallel=True)
def exp_half(x, out):
    for i in range(len(x)):
        out[i] = np.exp(x[i]) * 0.5
    return out
'''

FORK = KERNELS + '''
import multiprocessing as mp
def child(q):
    q.put(float(exp_half(np.ones(1000), np.empty(1000)).sum()))
if __name__ == "__main__":
    exp_half(np.ones(1000), np.empty(1000))
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=child, args=(q,))
    p.start(); p.join(60)
    print(p.exitcode)
'''

THREADS = KERNELS + '''
import threading
x, out = np.random.rand(2_000_000), np.empty((4, 2_000_000))
exp_half(x, out[0])
assert "numba.prange" in exp_half.source()
threads = [threading.Thread(target=lambda k=k: [exp_half(x, out[k]) for _ in range(20)]) for k in range(4)]
for t in threads: t.start()
for t in threads: t.join()
print(0)
'''


def _median_ms(fn, *args, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3


def measure() -> dict:
    """In the child process: timings under the layer NUMBA_THREADING_LAYER names."""
    import numba
    import numpy as np

    namespace: dict = {}
    exec(compile(KERNELS, str(HERE / "threads_kernels.py"), "exec"), namespace)
    reduce_sin, exp_half = namespace["reduce_sin"], namespace["exp_half"]
    x, out = np.random.default_rng(0).random(10_000_000), np.empty(10_000_000)
    small, small_out = x[:1000].copy(), np.empty(1000)
    reduce_sin(x), exp_half(x, out), exp_half(small, small_out)
    return {"layer": numba.threading_layer(), "threads": numba.get_num_threads(),
            "reduce_ms": _median_ms(reduce_sin, x, repeat=9), "exp_ms": _median_ms(exp_half, x, out, repeat=9),
            "launch_us": _median_ms(exp_half, small, small_out, repeat=2001) * 1e3}


def _exit_code(source: str, layer: str) -> int:
    path = HERE / "threads_probe.py"
    path.write_text(source)
    try:
        env = {**os.environ, "NUMBA_THREADING_LAYER": layer}
        done = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=300)
        printed = done.stdout.split()
        return int(printed[-1]) if done.returncode == 0 and printed else done.returncode  # the child's, or ours
    finally:
        path.unlink()


def main() -> None:
    os.environ.setdefault("CUVIL_CACHE_DIR", tempfile.mkdtemp(prefix="cuvil-bench-threads-"))
    if len(sys.argv) > 1 and sys.argv[1] == "--measure":
        (kernels := HERE / "threads_kernels.py").write_text(KERNELS)
        try:
            print(json.dumps(measure()))
        finally:
            kernels.unlink()
        return
    best: dict[str, dict] = {}
    for _ in range(ROUNDS):  # layers in turn, the best of each: the machine's other load moves between runs
        for layer in LAYERS:
            env = {**os.environ, "NUMBA_THREADING_LAYER": layer}
            done = subprocess.run([sys.executable, __file__, "--measure"], env=env, capture_output=True,
                                  text=True, timeout=600)
            if done.returncode != 0:
                raise SystemExit(f"measuring {layer} failed:\n{done.stderr}")
            row = json.loads(done.stdout.strip().splitlines()[-1])
            seen = best.setdefault(layer, row)
            for metric in ("reduce_ms", "exp_ms", "launch_us"):
                seen[metric] = min(seen[metric], row[metric])
    rows = []
    for layer in LAYERS:
        row = best[layer]
        row["fork_exit"], row["threads_exit"] = _exit_code(FORK, layer), _exit_code(THREADS, layer)
        rows.append(row)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = ["# Threading layers under `parallel=True`", "", f"Machine: {os.cpu_count()} CPUs, load average "
             f"{load} when it ended (other processes share the CPUs: compare layers within one run). "
             "Generated by `python bench/threads.py`; per layer the best of 3 rounds (layers in turn) of "
             "medians of 9 calls (2,001 for the launch).", "",
             "| layer | threads | reduce 10M ms | exp 10M ms | launch µs (1,000 elements) | fork child exit | "
             "4 threads exit |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {r['layer']} | {r['threads']} | {r['reduce_ms']:.1f} | {r['exp_ms']:.1f} | {r['launch_us']:.1f} "
              f"| {r['fork_exit']} | {r['threads_exit']} |" for r in rows]
    lines += ["", "Exit 0: fine; -15: the fork child was killed (GNU OpenMP); -6: the process aborted "
              "(concurrent use of the workqueue layer)."]
    text = "\n".join(lines) + "\n"
    (HERE / "threads.md").write_text(text)
    (HERE / "threads.json").write_text(json.dumps(rows, indent=1))
    print(text)


if __name__ == "__main__":
    main()
