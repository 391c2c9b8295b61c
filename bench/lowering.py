"""Whole-array NumPy code, lowered: Cuvil against the peers on the same machine, in one process.

Kernels (bench/kernels/): GELU on 10M float32 written as a NumPy user writes it (`x ** 3` included), a row
softmax of 4096×1024 float32 with `keepdims` reductions, and a three-operation float64 chain over 10M values.
Systems: Cuvil serial and `parallel=True` (compiling the NumPy code as written), NumPy in its fastest spelling
(in-place steps, `x * x * x`), numba.njit of the same NumPy code (serial and parallel=True), torch eager and
torch.compile (on CPU tensors sharing the arrays' memory), and the memory floor: a `prange` loop that reads
the kernel's inputs and writes its output with one multiply per element — as fast as this machine moves those
bytes, into a preallocated output ("floor") and into a new one each call ("floor_new": what a function that
returns a new array pays, the first touch of its output's pages included; NumPy's `x * 2` pays the same).

Each figure is the median over ROUNDS rounds, in which the systems take turns, of the median of REPEATS timed
calls after WARM_S seconds of untimed calls (each system's result checked against NumPy's first); compile
times are first call minus a steady call, from empty caches (Cuvil's and inductor's in fresh directories).
A GiB of memory is touched once before anything is timed (bench/host_memory.py: on a virtual machine the
first touch of memory pays the host).
Ratios: peer time / Cuvil time (≥ 1: Cuvil as fast or faster); "× floor": time / memory-floor time.

Run: `python bench/lowering.py [--repeat N] [--no-torch-compile]`. Writes bench/lowering.md and .json.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
# Compile times from empty caches, Cuvil's and torch.compile's (inductor keeps compiled graphs on disk across
# processes); the directories made here are removed at exit.
for _variable, _prefix in ("CUVIL_CACHE_DIR", "cuvil-bench-lowering-"), ("TORCHINDUCTOR_CACHE_DIR", "cuvil-inductor-"):
    if _variable not in os.environ:
        os.environ[_variable] = tempfile.mkdtemp(prefix=_prefix)
        atexit.register(shutil.rmtree, os.environ[_variable], True)

import cuvil  # noqa: E402
from bench.cpu_vs_numba import _machine  # noqa: E402
from bench.host_memory import prefault  # noqa: E402
from bench.timing import median_seconds  # noqa: E402
from cuvil.runtime.pages import advise  # noqa: E402

KERNELS = ("gelu_np", "softmax_np", "chain3")
WARM_S = 0.5
ROUNDS = 3
warnings.filterwarnings("ignore", message="(?s).*no transformation for parallel execution")


@numba.njit(nogil=True, parallel=True)
def _floor_1(x, out):
    flat, dst = x.reshape(-1), out.reshape(-1)
    for i in numba.prange(flat.size):
        dst[i] = flat[i] * 2
    return out


@numba.njit(nogil=True, parallel=True)
def _floor_new_1(x):  # the floor of a function that returns a new array: its output's pages are new each call
    out = advise(np.empty_like(x))  # allocated as Cuvil's and NumPy's own large arrays are (huge pages)
    flat, dst = x.reshape(-1), out.reshape(-1)
    for i in numba.prange(flat.size):
        dst[i] = flat[i] * 2
    return out


@numba.njit(nogil=True, parallel=True)
def _floor_new_3(a, b, c):
    out = advise(np.empty_like(a))
    for i in numba.prange(a.size):
        out[i] = (a[i] + b[i] + c[i]) * 2
    return out


@numba.njit(nogil=True, parallel=True)
def _floor_3(a, b, c, out):
    for i in numba.prange(a.size):
        out[i] = (a[i] + b[i] + c[i]) * 2
    return out


def _first_call(fn: Callable[..., Any], args: tuple[Any, ...]) -> float:
    start = time.perf_counter()
    fn(*args)
    first = time.perf_counter() - start
    start = time.perf_counter()
    fn(*args)
    return first - (time.perf_counter() - start)


def _check(name: str, got: Any, expected: np.ndarray) -> str | None:
    got = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
    if got.dtype != expected.dtype or got.shape != expected.shape:
        return f"{name}: {got.dtype}{got.shape} != {expected.dtype}{expected.shape}"
    tolerance = 1e-5 if expected.dtype == np.float32 else 1e-12
    if not np.allclose(got, expected, rtol=tolerance, atol=tolerance):
        return f"{name}: values differ (max abs {np.max(np.abs(got - expected)):.3g})"
    return None


def measure(kernel: str, repeat: int, with_compile: bool) -> dict[str, Any]:
    module = importlib.import_module(f"bench.kernels.{kernel}")
    fn = getattr(module, kernel)
    args = module.args()
    expected = module.numpy_form(*args)
    row: dict[str, Any] = {"kernel": kernel, "ms": {}, "compile_s": {}, "notes": []}
    systems: dict[str, tuple[Callable[..., Any], tuple[Any, ...]]] = {
        "numpy": (module.numpy_form, args),
        "cuvil": (cuvil.jit(fn), args),
        "cuvil_parallel": (cuvil.jit(fn, parallel=True), args),
        "numba": (numba.njit(nogil=True)(fn), args),
        "numba_parallel": (numba.njit(nogil=True, parallel=True)(fn), args),
    }
    try:
        import torch

        tensors = tuple(torch.from_numpy(a) for a in args)
        systems["torch"] = (module.torch_form, tensors)
        if with_compile:
            systems["torch_compile"] = (torch.compile(module.torch_form), tensors)
    except ImportError:
        row["notes"].append("torch not installed")
    out = np.empty_like(expected)
    systems["floor"] = (_floor_1, (args[0], out)) if len(args) == 1 else (_floor_3, (*args, out))
    systems["floor_new"] = (_floor_new_1 if len(args) == 1 else _floor_new_3, args)
    timed = {}
    for name, (call, call_args) in systems.items():
        try:
            if name in ("cuvil", "cuvil_parallel", "numba", "numba_parallel", "torch_compile"):
                row["compile_s"][name] = _first_call(call, call_args)
            result = call(*call_args)
        except Exception as exc:  # noqa: BLE001 (a peer that cannot compile this code is a finding)
            row["notes"].append(f"{name}: {type(exc).__name__}: {str(exc).splitlines()[0][:100]}")
            continue
        if not name.startswith("floor"):
            wrong = _check(name, result, expected)
            if wrong:
                row["notes"].append(f"mismatch {wrong}")
                continue
        timed[name] = (call, call_args)
    rounds: dict[str, list[float]] = {name: [] for name in timed}
    for _ in range(ROUNDS):  # the systems take turns: a machine that slows for a while slows them alike
        for name, (call, call_args) in timed.items():
            rounds[name].append(median_seconds(call, call_args, repeat, WARM_S))
    for name, medians in rounds.items():
        row["ms"][name] = statistics.median(medians) * 1e3
        print(f"{kernel:10s} {name:15s} {row['ms'][name]:9.2f} ms", file=sys.stderr)
    return row


def report(results: dict[str, Any]) -> str:
    lines = ["# Lowered NumPy code: Cuvil against the peers", "",
             f"Machine: {results['machine']}; {results['threads']} threads; "
             f"medians of {ROUNDS} rounds of {results['repeat']} calls; "
             "`python bench/lowering.py`.", "",
             "| kernel | system | ms | peer / cuvil (serial) | peer / cuvil (parallel) | × floor | "
             "× floor with a new output | compile s |",
             "|---|---|---|---|---|---|---|---|"]
    for row in results["rows"]:
        ms = row["ms"]
        for name, value in ms.items():
            serial = f"{value / ms['cuvil']:.2f}" if "cuvil" in ms else "-"
            parallel = f"{value / ms['cuvil_parallel']:.2f}" if "cuvil_parallel" in ms else "-"
            floor = f"{value / ms['floor']:.2f}" if "floor" in ms else "-"
            floor_new = f"{value / ms['floor_new']:.2f}" if "floor_new" in ms else "-"
            compile_s = f"{row['compile_s'][name]:.2f}" if name in row["compile_s"] else ""
            lines.append(f"| {row['kernel']} | {name} | {value:.2f} | {serial} | {parallel} | {floor} | "
                         f"{floor_new} | {compile_s} |")
        for note in row["notes"]:
            lines.append(f"| {row['kernel']} | note | {note} | | | | | |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--no-torch-compile", action="store_true")
    options = parser.parse_args()
    prefault()
    rows = [measure(k, options.repeat, not options.no_torch_compile) for k in KERNELS]
    results = {"machine": _machine(), "threads": numba.get_num_threads(), "repeat": options.repeat, "rows": rows}
    (HERE / "lowering.json").write_text(json.dumps(results, indent=1))
    text = report(results)
    (HERE / "lowering.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
