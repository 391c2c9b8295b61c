"""torch.compile(backend="cuvil") against eager PyTorch and backend="inductor" on CPU tensors (issue 14): a GELU +
bias + residual chain, a LayerNorm and a softmax over the last dim, float32.

Compile time is the first call's wall time after `torch._dynamo.reset()`, with empty caches (both Cuvil's and
inductor's cache folders are fresh temporary directories, set before torch is imported): the cold cost a user
meets once per model and machine. Each case is first compiled once with backend="aot_eager", which warms
Dynamo's and AOTAutograd's own caches for these ops (whichever backend came first paid that alone). `--warm`
runs again with the caches the cold run filled (a new process, as a user's second session). Steady state is
the median over `--runs` runs of the mean time of `--calls` calls, backends interleaved within each run (in an
order that rotates from run to run, two untimed calls before each timed block), so the load of the shared machine
falls on all of them alike, after 0.5 s of untimed calls of each (on this VM the first few hundred MB of fresh
allocations fault in from the host). Each block's CPU time (`time.thread_time`, the calling thread's: a fair
measure only with `--threads 1`, where every backend computes on it) is recorded next to its wall time: on a
loaded machine it is the steadier figure. Ratios are against inductor in the same run. Writes
bench/dynamo.json and prints a markdown table.

    python bench/dynamo.py [--rows 2048 --cols 1024 --runs 7 --calls 20 --threads 1] [--warm CACHE_DIR]
                           [--background]

`--background` compiles Cuvil's partitions on a worker thread (options={"background": True}): its compile
figure is then the time to the first result (the graph's torch ops ran meanwhile), and the time until the
kernels run is printed apart ("fused after"). Steady state is timed after `cuvil.dynamo.wait()`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _caches(folder: str | None) -> str:
    root = folder or tempfile.mkdtemp(prefix="cuvil-bench-dynamo-")
    os.environ["CUVIL_CACHE_DIR"] = os.path.join(root, "cuvil")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(root, "inductor")
    return root


def cases(rows: int, cols: int, dtype: str = "float32"):  # noqa: ANN201 - torch is imported later
    import torch
    import torch.nn.functional as F

    g = torch.Generator().manual_seed(0)

    def gelu_bias_residual(x, b, r):
        return F.gelu(x + b) + r

    def layer_norm(x, w, b):
        return F.layer_norm(x, (x.shape[-1],), w, b)

    def softmax(x):
        return torch.softmax(x, -1)

    t = getattr(torch, dtype)
    x, r = torch.randn(rows, cols, generator=g).to(t), torch.randn(rows, cols, generator=g).to(t)
    w, b = torch.randn(cols, generator=g).to(t), torch.randn(cols, generator=g).to(t)
    return {"gelu+bias+residual": (gelu_bias_residual, (x, b, r)), "layer_norm": (layer_norm, (x, w, b)),
            "softmax": (softmax, (x,))}


def _mean_call(fn, args, calls: int) -> tuple[float, float]:
    """Mean wall and CPU time of `calls` calls, after two untimed ones: the backend run before this one left the
    heap in its own state (eager's temporaries are freed and trimmed), and whichever backend came next paid
    the page faults of getting its output buffer back (measured: 205-287 faults a call for the backend right
    after eager, 0 for the one after it), so the order of the backends decided a LayerNorm's ratio."""
    fn(*args)
    fn(*args)
    start, cpu = time.perf_counter(), time.thread_time()
    for _ in range(calls):
        fn(*args)
    return (time.perf_counter() - start) / calls, (time.thread_time() - cpu) / calls


def measure(rows: int, cols: int, runs: int, calls: int, background: bool = False,
            dtype: str = "float32") -> dict:
    import torch

    import cuvil.dynamo

    torch.set_grad_enabled(False)
    results: dict = {}
    tolerance = {"float32": (1e-5, 1e-4)}.get(dtype, (0.05, 0.02))  # halves: a few of their ulps
    for name, (fn, args) in cases(rows, cols, dtype).items():
        compiled = {"eager": fn}
        compile_s = {}
        fused_s = None
        # Dynamo's and AOTAutograd's first trace of these ops warms caches of theirs (fake tensor dispatch,
        # decompositions) that whichever backend compiles first would pay alone: aot_eager pays it for both
        torch._dynamo.reset()
        torch.compile(fn, backend="aot_eager", dynamic=False)(*args)
        for backend in ("cuvil", "inductor"):
            torch._dynamo.reset()
            options = {"background": True} if backend == "cuvil" and background else None
            c = torch.compile(fn, backend=backend, dynamic=False, options=options)
            start = time.perf_counter()
            out = c(*args)
            compile_s[backend] = time.perf_counter() - start
            if options:
                cuvil.dynamo.wait()
                fused_s = time.perf_counter() - start
            if backend == "cuvil":
                graph = cuvil.dynamo.explain().graphs[-1]
                stages = {"dynamo and the rest": compile_s["cuvil"] - graph.seconds, **graph.stages}
            torch.testing.assert_close(out, fn(*args), atol=tolerance[0], rtol=tolerance[1])
            compiled[backend] = c
        for c in compiled.values():  # warm up every path before timing
            start = time.perf_counter()
            while time.perf_counter() - start < 0.5:
                c(*args)
        times: dict[str, list[float]] = {k: [] for k in compiled}
        cpu: dict[str, list[float]] = {k: [] for k in compiled}
        order = list(compiled)
        for run in range(runs):  # the order rotates: each backend follows each other one as often
            for backend in order[run % len(order):] + order[:run % len(order)]:
                wall, thread = _mean_call(compiled[backend], args, calls)
                times[backend].append(wall)
                cpu[backend].append(thread)
        steady = {k: statistics.median(v) for k, v in times.items()}
        steady_cpu = {k: statistics.median(v) for k, v in cpu.items()}
        results[name] = {"steady_ms": {k: v * 1e3 for k, v in steady.items()},
                         "steady_cpu_ms": {k: v * 1e3 for k, v in steady_cpu.items()},
                         "cpu_speedup_vs_inductor": steady_cpu["inductor"] / steady_cpu["cuvil"],
                         "compile_s": compile_s, "cuvil_fused_after_s": fused_s, "cuvil_compile_stages_s": stages,
                         "speedup_vs_inductor": steady["inductor"] / steady["cuvil"],
                         "speedup_vs_eager": steady["eager"] / steady["cuvil"],
                         "compile_fraction_of_inductor": compile_s["cuvil"] / compile_s["inductor"]}
    return results


def table(results: dict) -> str:
    lines = ["| case | eager ms | inductor ms | cuvil ms | cuvil vs inductor | cuvil vs eager | CPU time: cuvil vs "
             "inductor | compile cuvil s | compile inductor s | cuvil / inductor compile |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        s, c = r["steady_ms"], r["compile_s"]
        lines.append(f"| {name} | {s['eager']:.3f} | {s['inductor']:.3f} | {s['cuvil']:.3f} | "
                     f"{r['speedup_vs_inductor']:.2f}x | {r['speedup_vs_eager']:.2f}x | "
                     f"{r['cpu_speedup_vs_inductor']:.2f}x | {c['cuvil']:.2f} | "
                     f"{c['inductor']:.2f} | {r['compile_fraction_of_inductor']:.2f} |")
    return "\n".join(lines)


def stage_table(results: dict) -> str:
    """Where Cuvil's compile time went: Dynamo (with what runs outside the backend), AOTAutograd's trace,
    partitioning, building and printing Plans, Numba (explain's stages)."""
    names = list(next(iter(results.values()))["cuvil_compile_stages_s"])
    lines = ["| case | " + " | ".join(f"{n} s" for n in names) + " |", "|---" * (len(names) + 1) + "|"]
    for name, r in results.items():
        lines.append(f"| {name} | " + " | ".join(f"{r['cuvil_compile_stages_s'].get(n, 0.0):.3f}" for n in names)
                     + " |")
    return "\n".join(lines)


def _commit() -> str | None:
    """The checkout's commit (with "+" when it has uncommitted changes), so a figure names the code it measured."""
    import subprocess

    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=HERE,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+" if dirty else "")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=2048)
    parser.add_argument("--cols", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--warm", default=None, help="a cache folder a previous run filled (printed at its end)")
    parser.add_argument("--label", default="cold")
    parser.add_argument("--dtype", default="float32", choices=["float32", "bfloat16", "float16"])
    parser.add_argument("--background", action="store_true",
                        help="cuvil with options={'background': True}: compile is the time to the first result")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch's and Numba's threads (1 on a shared machine: a descheduled worker stalls both)")
    args = parser.parse_args()
    root = _caches(args.warm)
    import numba
    import torch

    torch.set_num_threads(args.threads)
    numba.set_num_threads(args.threads)

    load_before = os.getloadavg()
    results = measure(args.rows, args.cols, args.runs, args.calls, args.background, args.dtype)
    label = ("warm" if args.warm else args.label) + (" background" if args.background else "")
    record = {"label": label, "rows": args.rows, "cols": args.cols, "dtype": args.dtype,
              "load_average_1min": [load_before[0], os.getloadavg()[0]], "runs": args.runs, "calls": args.calls,
              "threads": torch.get_num_threads(),
              "torch": torch.__version__, "python": sys.version.split()[0], "machine": platform.machine(),
              "commit": _commit(),
              "results": results}
    path = HERE / "dynamo.json"
    previous = json.loads(path.read_text()) if path.exists() else []
    path.write_text(json.dumps([*previous, record], indent=1) + "\n")
    print(table(results))
    print()
    print(stage_table(results))
    if args.background:
        print("cuvil fused after (s): " + ", ".join(f"{k} {r['cuvil_fused_after_s']:.2f}" for k, r in results.items()))
    print(f"load average (1 min) before and after: {record['load_average_1min']}; commit {record['commit']}")
    print(f"caches: {root}")


if __name__ == "__main__":
    main()
