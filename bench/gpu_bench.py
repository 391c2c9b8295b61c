"""target="cuda" on a real GPU: fused GELU (256M float32) and row softmax (8192×8192 float32) through
`cuvil.jit(target="cuda")`, with torch CUDA tensors in (zero-copy), against torch eager and CuPy on the same GPU,
and each Cuvil kernel timed by CUDA events (`cuvil.profile`) against the device's measured copy bandwidth: the
better of inspect/peaks.device_peaks's probe and torch's own copy of the same bytes. Softmax in both forms: the
loops (`out` given) and the whole-array expression (a new result each call). GB/s count each element read once
and written once; medians of several runs. Writes bench/gpu_results.md (or --out). Run by bench/gpu_check.sh.

Targets (issue 11): GELU ≥ 80% of the measured bandwidth; softmax ≥ torch eager. A missed target is reported,
not an error; a wrong result or a failure is (exit status 1).

`--simulate` runs the same steps on the CUDA simulator with tiny sizes and numba device arrays (no torch, no
CuPy): it checks this script, not the GPU, and its figures mean nothing.
"""

from __future__ import annotations

import argparse
import datetime
import os
import signal
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402


def gelu(x, out):
    # np.tanh of a float32 stays float32, as in NumPy; math.tanh would compute in double, as CPython does
    for i in range(len(x)):
        v = x[i]
        out[i] = 0.5 * v * (1.0 + np.tanh(0.7978845608 * (v + 0.044715 * v * v * v)))
    return out


def softmax(x, out):
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(1, x.shape[1]):
            m = max(m, x[i, j])
        s = 0.0
        for j in range(x.shape[1]):
            e = np.exp(x[i, j] - m)  # float32, as NumPy
            out[i, j] = e
            s += e
        for j in range(x.shape[1]):
            out[i, j] = out[i, j] / s
    return out


def softmax_arrays(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def gelu_reference(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


def softmax_reference(x: np.ndarray) -> np.ndarray:
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class Device:
    """Arrays and synchronization: torch on a GPU, numba device arrays on the simulator."""

    def __init__(self, simulate: bool):
        from numba import cuda

        self.cuda, self.simulate = cuda, simulate
        self.torch: Any = None
        if not simulate:
            import torch

            self.torch = torch

    def array(self, host: np.ndarray) -> Any:
        if self.torch is not None:
            return self.torch.from_numpy(host).cuda()
        return self.cuda.to_device(host)

    def empty_like(self, a: Any) -> Any:
        if self.torch is not None:
            return self.torch.empty_like(a)
        return self.cuda.device_array(a.shape, a.dtype)

    def host(self, a: Any) -> np.ndarray:
        return a.cpu().numpy() if self.torch is not None else a.copy_to_host()

    def sync(self) -> None:
        if self.torch is not None:
            self.torch.cuda.synchronize()
        self.cuda.synchronize()

    def timed(self, fn: Callable[[], Any], runs: int) -> float:
        """Median seconds of `runs` calls after one warm-up (which compiles), each synchronized."""
        fn()
        self.sync()
        times = []
        for _ in range(runs):
            self.sync()
            start = time.perf_counter()
            fn()
            self.sync()
            times.append(time.perf_counter() - start)
        return statistics.median(times)


def row(name: str, nbytes: float, seconds: float, base: float | None, roof: float) -> str:
    ratio = f"{base / seconds:.2f}x" if base else "-"
    rate = nbytes / seconds / 1e9
    return f"| {name} | {seconds * 1e3:.3f} | {rate:.0f} | {rate / roof:.0%} | {ratio} |"


HEAD = ["| form | ms | GB/s | of measured bandwidth | vs torch eager |", "|---|---|---|---|---|"]


def bench_gelu(dev: Device, n: int, runs: int, roof: float, lines: list[str]) -> tuple[bool, str]:
    import cuvil

    rng = np.random.default_rng(0)
    host = rng.standard_normal(n, dtype=np.float32)
    x = dev.array(host)
    out = dev.empty_like(x)
    nbytes = 2 * n * 4
    f = cuvil.jit(gelu, target="cuda")
    f(x, out)
    got = dev.host(out)[: 1 << 16]
    ok = bool(np.allclose(got, gelu_reference(host[: 1 << 16]), rtol=1e-5, atol=1e-6))
    lines += [f"## Fused GELU (tanh), {n} float32{'' if ok else ' — WRONG RESULT'}", "", *HEAD]
    t_torch = None
    if dev.torch is not None:
        spare = dev.torch.empty_like(x)
        t_copy = dev.timed(lambda: spare.copy_(x), runs)  # the same bytes as GELU: the practical roof
        roof = max(roof, nbytes / t_copy / 1e9)
        gelu_torch = dev.torch.nn.functional.gelu
        t_torch = dev.timed(lambda: gelu_torch(x, approximate="tanh"), runs)
        lines.append(row("torch eager (F.gelu tanh)", nbytes, t_torch, t_torch, roof))
        lines.append(row("torch copy_ (a read and a write)", nbytes, t_copy, t_torch, roof))
    t_call = dev.timed(lambda: f(x, out), runs)
    lines.append(row("cuvil target=cuda, whole call", nbytes, t_call, t_torch, roof))
    found = cuvil.profile(f, x, out, repeat=runs)
    kernel = max(found.kernels, key=lambda k: k.seconds)
    lines.append(row(f"cuvil kernel {kernel.name} (CUDA events)", nbytes, kernel.seconds, t_torch, roof))
    lines += _cupy_gelu(dev, host, nbytes, runs, t_torch, roof)
    fraction = nbytes / kernel.seconds / 1e9 / roof
    verdict = (f"GELU kernel at {fraction:.0%} of the measured bandwidth ({roof:.0f} GB/s, the best of the probe's "
               f"and torch's copy; target ≥ 80%: {'met' if fraction >= 0.8 else 'missed'}); "
               f"{len(found.kernels)} launch(es) a call")
    lines += ["", verdict, "", "```", str(found), "```", ""]
    return ok, verdict


def _cupy_gelu(dev: Device, host: np.ndarray, nbytes: int, runs: int, base: float | None, roof: float) -> list[str]:
    if dev.simulate:
        return []
    try:
        import cupy

        cx = cupy.asarray(host)
        co = cupy.empty_like(cx)
        kern = cupy.ElementwiseKernel("float32 v", "float32 o",
                                      "o = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)))",
                                      "gelu_cupy")
        return [row("CuPy ElementwiseKernel", nbytes, dev.timed(lambda: kern(cx, co), runs), base, roof)]
    except Exception as exc:  # noqa: BLE001 (a peer missing is said, the bench goes on)
        return [f"| CuPy | not measured ({type(exc).__name__}: {str(exc)[:80]}) | | | |"]


def bench_softmax(dev: Device, rows: int, cols: int, runs: int, roof: float, lines: list[str],
                  arrays: bool = False) -> tuple[bool, str]:
    """The loop form (`out` given) or the whole-array form (`arrays`: a new result each call)."""
    import cuvil

    rng = np.random.default_rng(1)
    host = rng.standard_normal((rows, cols), dtype=np.float32)
    m = dev.array(host)
    mo = dev.empty_like(m)
    nbytes = 2 * rows * cols * 4
    s = cuvil.jit(softmax_arrays if arrays else softmax, target="cuda")
    args = (m,) if arrays else (m, mo)
    got = s(*args)
    check = min(rows, 64)
    ok = bool(np.allclose(dev.host(got)[:check], softmax_reference(host[:check]), rtol=1e-5, atol=1e-7))
    form = "whole-array form: np.max, np.exp, np.sum" if arrays else "loop form"
    lines += [f"## Row softmax, {rows}x{cols} float32 ({form}){'' if ok else ' — WRONG RESULT'}", "", *HEAD]
    t_torch = None
    if dev.torch is not None:
        t_torch = dev.timed(lambda: dev.torch.softmax(m, dim=1), runs)
        lines.append(row("torch eager (torch.softmax)", nbytes, t_torch, t_torch, roof))
    t_call = dev.timed(lambda: s(*args), runs)
    lines.append(row("cuvil target=cuda, whole call", nbytes, t_call, t_torch, roof))
    found = cuvil.profile(s, *args, repeat=runs)
    kernel_seconds = sum(k.seconds for k in found.kernels)
    lines.append(row(f"cuvil kernels ({len(found.kernels)}, CUDA events)", nbytes, kernel_seconds, t_torch, roof))
    if not dev.simulate:
        try:
            import cupy

            cm = cupy.asarray(host)

            def cupy_softmax() -> Any:
                e = cupy.exp(cm - cm.max(axis=1, keepdims=True))
                return e / e.sum(axis=1, keepdims=True)

            lines.append(row("CuPy (exp, max, sum)", nbytes, dev.timed(cupy_softmax, runs), t_torch, roof))
        except Exception as exc:  # noqa: BLE001
            lines.append(f"| CuPy | not measured ({type(exc).__name__}: {str(exc)[:80]}) | | | |")
    name = "softmax (arrays)" if arrays else "softmax (loops)"
    verdict = f"{name}: no torch to compare with (simulated)" if t_torch is None else (
        f"{name} whole call at {t_torch / t_call:.2f}x torch eager, kernels alone {t_torch / kernel_seconds:.2f}x "
        f"(target ≥ 1: {'met' if t_call <= t_torch else 'missed'}); {len(found.kernels)} launch(es) a call")
    explanation = [line for line in str(cuvil.explain(s)).splitlines() if line.startswith("  ")]
    lines += ["", verdict, "", "```", str(found), "```", "", f"cuvil.explain({s.py_func.__name__}), per variant:",
              "", "```", *explanation, "```", ""]
    return ok, verdict


def _version(distribution: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "?"


def _stopped(signum: int, frame: Any) -> None:
    raise SystemExit(124)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulate", action="store_true", help="tiny sizes on the CUDA simulator (checks the script)")
    parser.add_argument("--runs", type=int, default=int(os.environ.get("CUVIL_GPU_RUNS", "7")))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "gpu_results.md")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _stopped)  # gpu_check.sh's time cap: what was measured is still written
    if args.simulate:
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    n = 1024 if args.simulate else int(os.environ.get("CUVIL_GPU_GELU_N", str(256 * 1024 * 1024)))
    rows, cols = (8, 64) if args.simulate else (int(os.environ.get("CUVIL_GPU_SOFTMAX_ROWS", "8192")), 8192)
    runs = 2 if args.simulate else args.runs

    import numba

    import cuvil
    from cuvil.inspect.peaks import device_peaks

    dev = Device(args.simulate)
    device = "the CUDA simulator (figures mean nothing)" if args.simulate else \
        dev.cuda.get_current_device().name.decode()
    versions = f"numba {numba.__version__}, numba-cuda {_version('numba-cuda')}, numpy {np.__version__}"
    if dev.torch is not None:
        versions += f", torch {dev.torch.__version__}"
    roofs = device_peaks(force=True)
    roof = roofs.bandwidth["all"]
    lines = [f'# target="cuda" on {device}', "",
             f"{datetime.date.today().isoformat()}, cuvil {cuvil.__version__}, {versions}; medians of {runs} runs "
             "after a warm-up. GB/s count each element read once and written once; the bandwidth is the "
             "device's measured copy rate (the better of inspect/peaks.device_peaks's probe and, for GELU, torch's "
             "copy_ of the same bytes); ratios are torch eager's time over this time (> 1: faster than torch).",
             "",
             f"Measured roofs: copy {roof:.0f} GB/s, FP32 {roofs.gflops['float32/all']:.0f} GFLOP/s, "
             f"FP64 {roofs.gflops['float64/all']:.0f} GFLOP/s.", ""]
    failures, verdicts = 0, []
    try:
        steps: list[tuple[str, Callable[[list[str]], tuple[bool, str]]]] = [
            ("gelu", lambda out: bench_gelu(dev, n, runs, roof, out)),
            ("softmax", lambda out: bench_softmax(dev, rows, cols, runs, roof, out)),
            ("softmax (arrays)", lambda out: bench_softmax(dev, rows, cols, runs, roof, out, arrays=True))]
        for name, step in steps:
            try:
                ok, verdict = step(lines)
                verdicts.append(verdict)
                if not ok:
                    failures += 1
                    verdicts.append(f"{name}: WRONG RESULT")
            except Exception as exc:  # noqa: BLE001 (reported; the next benchmark still runs)
                failures += 1
                verdicts.append(f"{name} FAILED: {type(exc).__name__}: {str(exc)[:300]}")
                lines += [f"## {name}: FAILED", "", "```", traceback.format_exc()[-2000:], "```", ""]
            args.out.write_text("\n".join(lines))
    except SystemExit:
        lines.append("Stopped at the time limit (SIGTERM): the figures above are all that were measured.")
        raise
    finally:
        args.out.write_text("\n".join(lines))
    print("\n".join(verdicts))
    print(f"written: {args.out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
