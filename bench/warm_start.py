"""Time to first result in a new process (issue 13, "Must show"): the same function from a file, compiled by
Cuvil and by `numba.njit(cache=True)`, each with an empty cache (cold) and with the cache a previous process
filled (warm). Every run is a fresh `python` process; the time runs from just before the parent starts it to
the moment the child has the function's first result, so it includes the interpreter's start and the imports
— what a user waits for when a script or a restarted kernel first calls the function. Medians of several runs,
the four kinds interleaved in each round (a loaded machine slows all alike). Writes bench/warm_start.md (and
.json with --save).

    python bench/warm_start.py [--runs 5] [--label L] [--save]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from cuvil import demo

HERE = Path(__file__).resolve().parent

# The functions, as a user's file would hold them: loops, a helper-free while, whole-array NumPy code that both
# compilers accept.
KERNELS = "\n\n".join([
    "import math\n\nimport numpy as np\n",
    inspect.getsource(demo.pairwise),  # the demo's loop forms: one copy (bench/kernels imports them too)
    inspect.getsource(demo.escape_time),
    "def standardize(x):\n    return (x - x.mean()) / x.std()\n",
])

ARGUMENTS = {
    "pairwise": "np.random.default_rng(0).random((50, 3)), np.empty((50, 50))",
    "escape_time": "40, 30, 50, np.empty((30, 40), np.int64)",
    "standardize": "np.random.default_rng(0).random(1000)",
}

# The child: `python child.py KIND FUNCTION`; prints one JSON line. time.time() is the one clock both
# processes read.
CHILD = textwrap.dedent('''
    import time
    started = time.time()
    import json, sys
    import numpy as np
    kind, name = sys.argv[1], sys.argv[2]
    if kind == "cuvil":
        import cuvil as compiler
    else:
        import numba as compiler
    imported = time.time()
    import kernels
    py = getattr(kernels, name)
    fn = compiler.jit(py) if kind == "cuvil" else compiler.njit(cache=True)(py)
    fn({args})
    done = time.time()
    event = compiler.explain(fn).compiles[0] if kind == "cuvil" else None
    print(json.dumps({{"started": started, "imported": imported, "done": done, "cache": event.cache if event else "",
                      "stages": event.seconds if event else {{}}}}))
''')


def _child(folder: Path, kind: str, name: str, cache: Path) -> dict[str, float | str]:
    env = {**os.environ, "CUVIL_CACHE_DIR": str(cache / "cuvil"), "NUMBA_CACHE_DIR": str(cache / "numba")}
    env["PYTHONPATH"] = os.pathsep.join([str(folder), *(p for p in sys.path if p)])
    launched = time.time()
    done = subprocess.run([sys.executable, str(folder / f"child_{name}.py"), kind, name], env=env, cwd=folder,
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{kind} {name}: {done.stderr}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return {"total": out["done"] - launched, "start": out["started"] - launched,
            "imports": out["imported"] - out["started"], "first_call": out["done"] - out["imported"],
            "cache": out["cache"], **{f"stage {k}": v for k, v in out["stages"].items()}}


def measure(runs: int) -> dict[str, dict[str, dict[str, float]]]:
    """Per function, per kind (cuvil/numba x cold/warm): the median of each part over `runs` processes."""
    results: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="cuvil-warm-start-") as scratch:
        folder = Path(scratch)
        (folder / "kernels.py").write_text(KERNELS)
        for name, args in ARGUMENTS.items():
            (folder / f"child_{name}.py").write_text(CHILD.format(args=args))
        for name in ARGUMENTS:
            samples: dict[str, list[dict[str, float | str]]] = {}
            warm = {kind: folder / f"warm-{kind}-{name}" for kind in ("cuvil", "numba")}
            for kind in warm:
                _child(folder, kind, name, warm[kind])  # fills the cache the warm runs read
            refills = {"cuvil": 0, "numba": 0}
            for _ in range(runs):
                for kind in ("cuvil", "numba"):
                    cold = folder / f"cold-{kind}-{name}"
                    samples.setdefault(f"{kind} cold", []).append(_child(folder, kind, name, cold))
                    shutil.rmtree(cold)
                    sample = _child(folder, kind, name, warm[kind])
                    if sample["cache"] == "miss":  # Cuvil's files changed (their mtimes are in the key): the
                        refills[kind] += 1  # shared working tree was edited; that run refilled the cache
                        sample = _child(folder, kind, name, warm[kind])
                    samples.setdefault(f"{kind} warm", []).append(sample)
            caches = {k: {str(s["cache"]) for s in v} for k, v in samples.items() if k.startswith("cuvil")}
            if caches != {"cuvil cold": {"miss"}, "cuvil warm": {"disk"}}:
                raise RuntimeError(f"{name}: a cold run must miss and a warm one load from the disk: {caches}")
            results[name] = {kind: {part: statistics.median(float(s[part]) for s in runs_)
                                    for part in runs_[0] if part != "cache"}
                             for kind, runs_ in samples.items()}
            results[name]["cuvil warm"]["refills"] = refills["cuvil"]
    return results


def report(results: dict[str, dict[str, dict[str, float]]], label: str) -> str:
    lines = [f"### {label}", "",
             "| function | Cuvil cold | Cuvil warm | Numba cold | Numba warm | warm: Cuvil / Numba | "
             "Cuvil warm − Numba warm | target: ≤ Numba warm + Cuvil's compile / 10 |",
             "|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        t = {k: v["total"] for k, v in r.items()}
        bound = t["numba warm"] + (t["cuvil cold"] - t["cuvil warm"]) / 10  # compile: cold less a load
        lines.append(f"| {name} | {t['cuvil cold']:.2f} s | {t['cuvil warm']:.2f} s | {t['numba cold']:.2f} s | "
                     f"{t['numba warm']:.2f} s | {t['cuvil warm'] / t['numba warm']:.2f}x | "
                     f"{(t['cuvil warm'] - t['numba warm']) * 1e3:+.0f} ms | "
                     f"{bound:.2f} s ({'met' if t['cuvil warm'] <= bound else 'missed'}) |")
    lines += ["", "Where the time goes (medians, seconds: interpreter start / imports / decorate and first call):",
              "", "| function | Cuvil cold | Cuvil warm | Numba cold | Numba warm |", "|---|---|---|---|---|"]
    for name, r in results.items():
        cells = [f"{v['start']:.2f} / {v['imports']:.2f} / {v['first_call']:.2f}"
                 for v in (r["cuvil cold"], r["cuvil warm"], r["numba cold"], r["numba warm"])]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    stages = [k for k in next(iter(results.values()))["cuvil cold"] if k.startswith("stage ")]
    if stages:  # runs saved before the stages were recorded have none
        lines += ["", "Cuvil's compile by stage (`cuvil.explain`, medians, seconds; warm: the disk load):", "",
                  "| function | " + " | ".join(f"{k[6:]} cold / warm" for k in stages) + " |",
                  "|---|" + "---|" * len(stages)]
        for name, r in results.items():
            lines.append(f"| {name} | " + " | ".join(
                f"{r['cuvil cold'][k]:.2f} / {r['cuvil warm'].get(k, 0.0):.2f}" for k in stages) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--label", default="this run")
    parser.add_argument("--save", action="store_true", help="append to bench/warm_start.json")
    parser.add_argument("--saved", action="store_true", help="print the last saved run's tables, run nothing")
    args = parser.parse_args()
    if args.saved:
        last = json.loads((HERE / "warm_start.json").read_text())[-1]
        print(report(last["results"], last["heading"]))
        return
    import numba

    import cuvil

    results = measure(args.runs)
    heading = (f"{args.label} (cuvil {cuvil.__version__}, numba {numba.__version__}, python "
               f"{platform.python_version()}, medians of {args.runs} processes)")
    print(report(results, heading))
    if args.save:
        path = HERE / "warm_start.json"
        saved = json.loads(path.read_text()) if path.exists() else []
        saved.append({"label": args.label, "heading": heading, "runs": args.runs, "results": results})
        path.write_text(json.dumps(saved, indent=1) + "\n")


if __name__ == "__main__":
    main()
