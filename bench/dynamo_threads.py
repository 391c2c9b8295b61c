"""What a second thread gives each backend on this machine (issue 14): eager PyTorch, backend="inductor" and
backend="cuvil" at one and at two threads, in one process, the same cases as bench/dynamo.py.

The ideal here is not 2x: this VM's second vCPU runs a second compute loop at a fraction of the first one's
speed. So the figure to hold Cuvil to is inductor's own 1 -> 2 thread speed-up, measured in the same run. Cuvil
is timed three ways at two threads: as it runs (dynamo/split.py keeps the split only where it was timed faster),
always split, and never split (`whole`), so what its pool's hand-off costs or gains is visible. Steady state
as in bench/dynamo.py: medians over `--runs` runs of the mean of `--calls` calls, the ways interleaved in an
order that rotates from run to run, after 0.5 s of untimed calls of each.

    python bench/dynamo_threads.py [--runs 9 --calls 10]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _forced(compiled_fn, split: bool | None):  # noqa: ANN001, ANN202 - torch objects
    """A call of the cuvil-compiled function with every kernel's choice fixed (None: as it decides itself)."""
    from cuvil.dynamo import compiled as C

    def call(*args):
        saved = {}
        if split is not None:
            for k in C._COMPILED.values():
                saved[k] = k._choice.chosen
                k._choice.chosen = _Always(split)
        try:
            return compiled_fn(*args)
        finally:
            for k, chosen in saved.items():
                k._choice.chosen = chosen
    return call


class _Always(dict):
    def __init__(self, value: bool):
        super().__init__()
        self.value = value

    def get(self, key, default=None):  # noqa: ANN001, ANN201
        return self.value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--calls", type=int, default=10)
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="cuvil-bench-dynamo-threads-")
    os.environ["CUVIL_CACHE_DIR"] = os.path.join(root, "cuvil")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(root, "inductor")
    import sys

    import torch

    sys.path.insert(0, str(HERE))
    from dynamo import _commit, _mean_call, cases

    torch.set_grad_enabled(False)
    load = [os.getloadavg()[0]]
    results = {}
    for name, (fn, fargs) in cases(2048, 1024).items():
        torch._dynamo.reset()
        inductor = torch.compile(fn, backend="inductor", dynamic=False)
        cuvil = torch.compile(fn, backend="cuvil", dynamic=False)
        ways = {"eager": fn, "inductor": inductor, "cuvil": _forced(cuvil, None)}
        times: dict[str, list[float]] = {}
        for threads in (1, 2):
            torch.set_num_threads(threads)
            now = dict(ways)
            if threads == 2:
                now |= {"cuvil split": _forced(cuvil, True), "cuvil whole": _forced(cuvil, False)}
            for call in now.values():
                start = time.perf_counter()
                while time.perf_counter() - start < 0.5:
                    call(*fargs)
            order = list(now)
            for run in range(args.runs):
                for way in order[run % len(order):] + order[:run % len(order)]:
                    times.setdefault(f"{way} @{threads}", []).append(_mean_call(now[way], fargs, args.calls)[0])
        ms = {k: statistics.median(v) * 1e3 for k, v in times.items()}
        results[name] = {"ms": ms, "speedup_1_to_2": {w: ms[f"{w} @1"] / ms[f"{w} @2"] for w in ways},
                         "cuvil_vs_inductor_at_2": ms["inductor @2"] / ms["cuvil @2"]}
    torch.set_num_threads(1)
    load.append(os.getloadavg()[0])
    record = {"load_average_1min": load, "runs": args.runs, "calls": args.calls, "commit": _commit(),
              "results": results}
    path = HERE / "dynamo_threads.json"
    previous = json.loads(path.read_text()) if path.exists() else []
    path.write_text(json.dumps([*previous, record], indent=1) + "\n")
    print("| case | eager 1 -> 2 | inductor 1 -> 2 | cuvil 1 -> 2 | cuvil @2 ms (split / whole) | inductor @2 ms "
          "| cuvil vs inductor @2 |\n|---|---|---|---|---|---|---|")
    for name, r in results.items():
        s, ms = r["speedup_1_to_2"], r["ms"]
        print(f"| {name} | {s['eager']:.2f}x | {s['inductor']:.2f}x | {s['cuvil']:.2f}x | {ms['cuvil @2']:.3f} "
              f"({ms['cuvil split @2']:.3f} / {ms['cuvil whole @2']:.3f}) | {ms['inductor @2']:.3f} | "
              f"{r['cuvil_vs_inductor_at_2']:.2f}x |")
    print(f"load average (1 min) before and after: {load}; commit {record['commit']}")


if __name__ == "__main__":
    main()
