"""target="cuda" on a real GPU: fused GELU (256M float32) and row softmax (8192×8192 float32) through
`cuvil.jit(target="cuda")` with torch CUDA tensors in (zero-copy), in GB/s (bytes read + written once) and as a
ratio against torch eager (and CuPy when importable) on the same GPU; medians of several runs. Writes
bench/gpu_results.md. Run by bench/gpu_check.sh; needs a GPU, torch with CUDA, numba-cuda."""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
import cuvil  # noqa: E402

RUNS = int(os.environ.get("CUVIL_GPU_RUNS", "7"))
N_GELU = int(os.environ.get("CUVIL_GPU_GELU_N", str(256 * 1024 * 1024)))
ROWS = int(os.environ.get("CUVIL_GPU_SOFTMAX_ROWS", "8192"))


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


def timed(fn, *args) -> float:
    """Median seconds of `RUNS` calls after one warm-up (compiles), each synchronized."""
    fn(*args)
    torch.cuda.synchronize()
    times = []
    for _ in range(RUNS):
        torch.cuda.synchronize()
        t = time.perf_counter()
        fn(*args)
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def row(name: str, nbytes: int, seconds: float, base: float | None) -> str:
    ratio = f"{base / seconds:.2f}x" if base else "-"
    return f"| {name} | {seconds * 1e3:.2f} | {nbytes / seconds / 1e9:.0f} | {ratio} |"


def main() -> None:
    dev = torch.device("cuda")
    lines = [f"# target=\"cuda\" on {torch.cuda.get_device_name(0)}", "",
             f"torch {torch.__version__}, medians of {RUNS} runs after a warm-up; GB/s counts each element read "
             "once and written once; ratio = torch eager time / this time (> 1: faster than torch).", ""]
    failures = 0

    x = torch.randn(N_GELU, device=dev, dtype=torch.float32)
    out = torch.empty_like(x)
    nbytes = 2 * x.numel() * 4
    f = cuvil.jit(gelu, target="cuda")
    check = f(x[:4096], out[:4096])
    expected = torch.nn.functional.gelu(x[:4096], approximate="tanh")
    ok = torch.allclose(check, expected, atol=1e-5)
    t_torch = timed(lambda a: torch.nn.functional.gelu(a, approximate="tanh"), x)
    lines += [f"## Fused GELU (tanh), {x.numel()} float32", "", "| form | ms | GB/s | vs torch |",
              "|---|---|---|---|"]
    lines.append(row("torch eager (F.gelu tanh)", nbytes, t_torch, t_torch))
    try:
        t = timed(f, x, out)
        lines.append(row("cuvil target=cuda" + ("" if ok else " (WRONG RESULT)"), nbytes, t, t_torch))
        print(f"gelu: cuvil {nbytes / t / 1e9:.0f} GB/s, torch {nbytes / t_torch / 1e9:.0f} GB/s, correct={ok}")
    except Exception as exc:  # noqa: BLE001 (reported, the bench goes on)
        failures += 1
        lines.append(f"| cuvil target=cuda | FAILED: {type(exc).__name__}: {str(exc)[:120]} | | |")
        print("gelu FAILED:", type(exc).__name__, str(exc)[:300])
    try:
        import cupy

        cx = cupy.asarray(x)
        kern = cupy.ElementwiseKernel("float32 v", "float32 o",
                                      "o = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)))",
                                      "gelu_cupy")
        co = cupy.empty_like(cx)
        t_cp = timed(lambda: (kern(cx, co), None))
        lines.append(row("CuPy ElementwiseKernel", nbytes, t_cp, t_torch))
    except Exception as exc:  # noqa: BLE001
        lines.append(f"| CuPy | not measured ({type(exc).__name__}) | | |")
    del x, out

    m = torch.randn(ROWS, 8192, device=dev, dtype=torch.float32)
    mo = torch.empty_like(m)
    nbytes = 2 * m.numel() * 4
    s = cuvil.jit(softmax, target="cuda")
    small = m[:64].contiguous()
    ok = torch.allclose(s(small, torch.empty_like(small)), torch.softmax(small, dim=1), atol=1e-6)
    t_torch = timed(lambda a: torch.softmax(a, dim=1), m)
    lines += ["", f"## Row softmax, {ROWS}x8192 float32 (loop form: a thread per row)", "",
              "| form | ms | GB/s | vs torch |", "|---|---|---|---|"]
    lines.append(row("torch eager (torch.softmax)", nbytes, t_torch, t_torch))
    try:
        t = timed(s, m, mo)
        lines.append(row("cuvil target=cuda" + ("" if ok else " (WRONG RESULT)"), nbytes, t, t_torch))
        print(f"softmax: cuvil {nbytes / t / 1e9:.0f} GB/s, torch {nbytes / t_torch / 1e9:.0f} GB/s, correct={ok}")
    except Exception as exc:  # noqa: BLE001
        failures += 1
        lines.append(f"| cuvil target=cuda | FAILED: {type(exc).__name__}: {str(exc)[:120]} | | |")
        print("softmax FAILED:", type(exc).__name__, str(exc)[:300])
    try:
        import cupy

        cm = cupy.asarray(m)

        def cupy_softmax(a):
            e = cupy.exp(a - a.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)

        lines.append(row("CuPy (exp, max, sum)", nbytes, timed(cupy_softmax, cm), t_torch))
    except Exception as exc:  # noqa: BLE001
        lines.append(f"| CuPy | not measured ({type(exc).__name__}) | | |")
    explanation = str(cuvil.explain(s)).splitlines()
    lines += ["", "cuvil.explain(softmax):", "", "```", *explanation[-8:], "```", ""]
    try:  # each variant's kernels: PTX size and registers per thread (runtime/cuda_runtime.kernel_sizes)
        sizes = [line for g in (f, s) for v in g._variants for line in v.impl.kernel_sizes()]
        lines += ["Kernels:", "", *[f"- {line}" for line in sizes], ""]
    except Exception as exc:  # noqa: BLE001
        lines += [f"Kernels: sizes not read ({type(exc).__name__}: {str(exc)[:120]})", ""]
    Path(__file__).with_name("gpu_results.md").write_text("\n".join(lines))
    print("\n".join(lines[-12:]))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
