"""Half precision on the CPU (issue 12): bf16 GELU and bf16 axpy on 10M-element torch bfloat16 tensors, fp16
GELU on 10M-element NumPy float16 arrays.

Systems: Cuvil `parallel=True` with the storage policy (`precision="bf16"` / `"fp16"`: loads widen to float32,
compute in float32, stores round once), torch eager and torch.compile on the same tensors (compile time
reported: first call minus a steady call), NumPy (float16 only: NumPy has no bfloat16; it rounds after every
operation), and the memory floor: a numba `prange` loop that reads the inputs' 16-bit words and writes the
output's, one integer operation each — as fast as this machine moves those bytes.

Each figure is the median over ROUNDS rounds, in which the systems take turns, of the median of REPEATS calls,
after a warm-up call whose result is checked against an fp32 reference rounded once (Cuvil) or as computed
(peers); a GiB of memory is touched once before anything is timed
(bench/host_memory.py: on a virtual machine the first touch of memory pays the host, and Cuvil runs first).
Compile times from empty caches (Cuvil's and inductor's in fresh directories). Ratios: peer time / Cuvil
time (≥ 1: Cuvil as fast or faster); "× floor": time / memory-floor time.

Run: `python bench/precision.py [--repeat N] [--size N] [--no-torch-compile]`. Writes bench/precision.md/.json.
"""

from __future__ import annotations

import argparse
import atexit
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
import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
for _variable, _prefix in ("CUVIL_CACHE_DIR", "cuvil-bench-precision-"), ("TORCHINDUCTOR_CACHE_DIR", "cuvil-inductor-"):
    if _variable not in os.environ:
        os.environ[_variable] = tempfile.mkdtemp(prefix=_prefix)
        atexit.register(shutil.rmtree, os.environ[_variable], True)

import cuvil  # noqa: E402
from bench.cpu_vs_numba import _machine  # noqa: E402
from bench.host_memory import prefault  # noqa: E402
from cuvil.runtime.vmath import tanh_f32  # noqa: E402

warnings.filterwarnings("ignore", category=cuvil.PrecisionWarning)


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))


def axpy(a, x, y):
    return a * x + y


def gelu_torch(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


ROUNDS = 3


@numba.njit(nogil=True, parallel=True)
def _floor_1(x, out):
    for i in numba.prange(x.size):
        out[i] = x[i] ^ 1
    return out


@numba.njit(nogil=True, parallel=True)
def _floor_new(x):  # the floor of a function that returns a new array: its output's pages are new each call
    out = np.empty(x.size, np.uint16)
    for i in numba.prange(x.size):
        out[i] = x[i] ^ 1
    return out


@numba.njit(nogil=True, parallel=True)
def _floor_2(x, y, out):
    for i in numba.prange(x.size):
        out[i] = x[i] ^ y[i]
    return out


@numba.njit(nogil=True, parallel=True)
def _one_tanh(x, out):
    """The least work of any GELU on these words: one float32 tanh per element (widened as bf16 is, cut back
    without rounding); Cuvil's vectorized tanh_f32, as the compiled GELUs use."""
    for i in numba.prange(x.size):
        wide = np.uint32(np.uint32(x[i]) << np.uint32(16)).view(np.float32)
        out[i] = np.uint16(np.float32(tanh_f32(wide)).view(np.uint32) >> np.uint32(16))
    return out


def _time(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _first(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _bits(t: Any) -> np.ndarray:
    return t.view(torch.int16).numpy().view(np.uint16) if isinstance(t, torch.Tensor) else t.view(np.uint16)


def _close(got: Any, want: np.ndarray, ulps: int) -> float:
    """The largest difference in units of the half's last place (got and want as float32)."""
    g = got.float().numpy() if isinstance(got, torch.Tensor) else got.astype(np.float32)
    spacing = np.abs(np.spacing(want.astype(np.float16 if g.dtype == np.float16 else np.float32)))
    worst = float(np.max(np.abs(g - want)))
    assert worst <= ulps * max(float(np.max(np.abs(want))) * 2**-7, float(np.max(spacing))), worst
    return worst


def run(size: int, repeat: int, compile_torch: bool) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    f32 = rng.standard_normal(size).astype(np.float32) * 3
    xb = torch.from_numpy(f32).to(torch.bfloat16)
    yb = torch.from_numpy(rng.standard_normal(size).astype(np.float32)).to(torch.bfloat16)
    x16 = f32.astype(np.float16)
    cases = {
        "bf16 GELU": dict(cuvil=cuvil.jit(gelu, parallel=True, precision="bf16"), args=(xb,), torch=gelu_torch,
                          numpy=None, floor=lambda out: _floor_1(_bits(xb), out),
                          ref=lambda: gelu(xb.float().numpy())),
        "bf16 axpy": dict(cuvil=cuvil.jit(axpy, parallel=True, precision="bf16"), args=(2.5, xb, yb), torch=axpy,
                          numpy=None, floor=lambda out: _floor_2(_bits(xb), _bits(yb), out),
                          ref=lambda: axpy(np.float32(2.5), xb.float().numpy(), yb.float().numpy())),
        "fp16 GELU": dict(cuvil=cuvil.jit(gelu, parallel=True, precision="fp16"), args=(x16,), torch=gelu_torch,
                          numpy=gelu, floor=lambda out: _floor_1(_bits(x16), out),
                          ref=lambda: gelu(x16.astype(np.float32))),
    }
    out16 = np.empty(size, np.uint16)
    return {name: _measure(case, repeat, compile_torch, out16) for name, case in cases.items()}


def _measure(case: dict[str, Any], repeat: int, compile_torch: bool, out16: np.ndarray) -> dict[str, Any]:
    args, fn = case["args"], case["cuvil"]
    row: dict[str, Any] = {"cuvil_compile_s": _first(lambda: fn(*args))}
    row["cuvil_max_error"] = _close(fn(*args), case["ref"](), 2)
    targs = tuple(torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args)
    bits = _bits(next(a for a in args if not isinstance(a, float)))
    timed: dict[str, Callable[[], Any]] = {"cuvil_s": lambda: fn(*args), "torch_s": lambda: case["torch"](*targs)}
    if compile_torch:
        torch._dynamo.reset()
        compiled = torch.compile(case["torch"])
        first = _first(lambda: compiled(*targs))
        row["torch_compile_compile_s"] = max(0.0, first - _first(lambda: compiled(*targs)))
        timed["torch_compile_s"] = lambda: compiled(*targs)
    if case["numpy"] is not None:
        timed["numpy_s"] = lambda: case["numpy"](*args)
    timed["floor_s"] = lambda: case["floor"](out16)
    if case["numpy"] is not None or len(args) == 1:  # the GELUs
        timed["one_tanh_s"] = lambda: _one_tanh(bits, out16)
    timed["floor_new_s"] = lambda: _floor_new(bits)
    rounds: dict[str, list[float]] = {key: [] for key in timed}
    with np.errstate(all="ignore"):
        for call in timed.values():
            call()
        for _ in range(ROUNDS):  # the systems take turns: a machine that slows for a while slows them alike
            for key, call in timed.items():
                rounds[key].append(_time(call, repeat))
    row.update({key: statistics.median(values) for key, values in rounds.items()})
    row["floor_new_s"] *= 1.5 if len(args) > 1 else 1.0
    return row


def report(results: dict[str, Any], size: int, repeat: int) -> str:
    lines = [
        "# Half precision on the CPU (issue 12)", "",
        f"`python bench/precision.py --size {size} --repeat {repeat}` — {size / 1e6:g}M elements, medians of "
        f"{ROUNDS} rounds (the systems in turn) of {repeat} calls, {_machine()}, numba {numba.__version__}, "
        f"torch {torch.__version__}.", "",
        "Cuvil: `parallel=True` with the storage policy (`precision=\"bf16\"`/`\"fp16\"`: fp32 compute, one rounding "
        "per store). Ratios are peer time / Cuvil time (≥ 1: Cuvil faster); × floor is Cuvil's time over the "
        "memory floor (a prange loop moving the same 16-bit words into a preallocated output; \"with a new output\": "
        "into a fresh np.empty each call, as a function returning a new array must — the page faults included; "
        "for axpy scaled by 1.5 for its second input). \"One tanh\": a prange loop that only widens each "
        "word, takes Cuvil's vectorized float32 tanh and cuts it back — the least compute any GELU does here, in "
        "× the floor.", "",
        "| kernel | Cuvil ms | × floor | × floor with a new output | torch eager ms (ratio) "
        "| torch.compile ms (ratio) | torch.compile compile s "
        "| Cuvil compile s | NumPy ms (ratio) | one tanh ms (× floor) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        c = r["cuvil_s"]
        tc = f"{r['torch_compile_s'] * 1e3:.2f} ({r['torch_compile_s'] / c:.2f}×)" if "torch_compile_s" in r else "—"
        tcc = f"{r['torch_compile_compile_s']:.2f}" if "torch_compile_compile_s" in r else "—"
        npy = f"{r['numpy_s'] * 1e3:.1f} ({r['numpy_s'] / c:.1f}×)" if "numpy_s" in r else "— (no bfloat16)"
        tanh = f"{r['one_tanh_s'] * 1e3:.2f} ({r['one_tanh_s'] / r['floor_s']:.2f}×)" if "one_tanh_s" in r else "—"
        lines.append(f"| {name} | {c * 1e3:.2f} | {c / r['floor_s']:.2f} | {c / r['floor_new_s']:.2f} | "
                     f"{r['torch_s'] * 1e3:.2f} "
                     f"({r['torch_s'] / c:.2f}×) | {tc} | {tcc} | {r['cuvil_compile_s']:.2f} | {npy} | {tanh} |")
    lines += ["", "Targets (issue 12): ≥ 1.0× torch.compile steady state and ≤ 2× the memory floor.", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--no-torch-compile", action="store_true")
    opts = parser.parse_args()
    prefault()
    results = run(opts.size, opts.repeat, not opts.no_torch_compile)
    text = report(results, opts.size, opts.repeat)
    print(text)
    (HERE / "precision.md").write_text(text)
    (HERE / "precision.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
