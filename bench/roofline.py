"""Roofline of the bench kernels: each one's achieved fraction of this machine's memory or compute roof, Cuvil
(parallel=True) next to Numba (its prange form, parallel=True) and torch.compile (inductor, CPU).

    python bench/roofline.py [--scale 1.0] [--repeat 7] [--kernels gelu,softmax,...] [--no-torch-compile]

How each figure is measured: the FLOPs and bytes of a kernel are Cuvil's cost model of its loop form
(src/cuvil/inspect/cost.py, the counting rules in its docstring; compulsory traffic), the same numbers for
every system: they do the same work. Each system runs once to warm up (and compile), then `--repeat` times,
interleaved round robin, on inputs copied outside the timer; the median is kept. The roofs are the machine's
measured peaks (src/cuvil/inspect/peaks.py, all threads or one with --threads 1, the kernel's float width);
a kernel's roof is
min(peak GFLOP/s, intensity × bandwidth), and its fraction is achieved GFLOP/s over that roof (for a
memory-bound kernel, achieved GB/s over the bandwidth). Other load on the machine is not corrected for.

Writes bench/roofline.json, bench/roofline.md, bench/roofline.png (with matplotlib) and replaces the roofline
section of bench/REPORT.md (between its markers; appended when there is none).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

KERNELS = ("gelu", "gelu_np", "softmax", "softmax_np", "chain3", "total", "dot", "stencil", "pairwise")
SYSTEMS = ("cuvil", "numba", "torch_compile")
START, END = "<!-- roofline:start -->", "<!-- roofline:end -->"
warnings.filterwarnings("ignore", message="(?s).*no transformation for parallel execution")


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def contenders(name: str, module: Any, use_torch: bool) -> dict[str, Any]:
    import numba

    import cuvil

    found: dict[str, Any] = {"cuvil": (cuvil.jit(getattr(module, name), parallel=True), False)}
    if hasattr(module, "prange_form"):
        found["numba"] = (numba.njit(parallel=True, nogil=True)(module.prange_form), False)
    if use_torch and hasattr(module, "torch_form"):
        import torch

        found["torch_compile"] = (torch.compile(module.torch_form), True)
    return found


def torch_args(module: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    import torch

    if hasattr(module, "torch_args"):
        return module.torch_args(*args)
    return tuple(torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args)


def fresh(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def measure(name: str, scale: float, repeat: int, use_torch: bool, peaks: Any, threads: int) -> dict[str, Any]:
    from cuvil.inspect.cost import cost_of
    from cuvil.inspect.symbolic import symbol_values
    from cuvil.inspect.variants import plans_of, variant_for

    module = importlib.import_module(f"bench.kernels.{name}")
    args = module.args(scale)
    systems = contenders(name, module, use_torch)
    cuvil_fn = systems["cuvil"][0]
    runs: dict[str, list[float]] = {s: [] for s in systems}
    failed: dict[str, str] = {}
    for system, (fn, takes_torch) in list(systems.items()):
        try:
            start = time.perf_counter()
            fn(*(torch_args(module, fresh(args)) if takes_torch else fresh(args)))
            progress(f"  {name}/{system}: warm-up {time.perf_counter() - start:.1f} s")
        except Exception as exc:  # noqa: BLE001 (a system that fails is reported, not fatal)
            failed[system] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''}"
            del systems[system], runs[system]
    for _ in range(repeat):
        for system, (fn, takes_torch) in systems.items():
            inputs = torch_args(module, fresh(args)) if takes_torch else fresh(args)
            start = time.perf_counter()
            fn(*inputs)
            runs[system].append(time.perf_counter() - start)
    vp = plans_of(cuvil_fn, variant_for(cuvil_fn, args).number)
    cost = cost_of(vp)
    symbols = set().union(*(r.flops.symbols | r.read.symbols | r.written.symbols for r in cost.regions))
    values = symbol_values(symbols, dict(zip(vp.params, args)))
    flops = cost.flops.evaluate(values)
    moved = cost.bytes.evaluate(values)
    dtypes = {getattr(k, "dtype", "") for k in vp.args}
    dtype = "float32" if "float32" in dtypes and "float64" not in dtypes else "float64"
    peak, bandwidth = peaks.roof(dtype, threads > 1)
    intensity = flops / moved
    roof = min(peak, intensity * bandwidth)
    out: dict[str, Any] = {"flops": flops, "bytes": moved, "intensity": intensity, "dtype": dtype,
                           "bound": "memory" if intensity * bandwidth < peak else "compute", "roof_gflops": roof,
                           "exact": all(r.exact for r in cost.regions), "systems": {}, "failed": failed}
    for system, times in runs.items():
        seconds = statistics.median(times)
        out["systems"][system] = {"ms": seconds * 1e3, "gflops": flops / seconds / 1e9,
                                  "gbytes": moved / seconds / 1e9, "fraction": flops / seconds / 1e9 / roof}
    return out


def markdown(results: dict[str, Any]) -> str:
    peaks = results["peaks"]
    width = "1" if results["threads"] == 1 else "all"
    lines = [START, "## Roofline (issue 17): achieved fraction of this machine's roof", "",
             f"`python bench/roofline.py --scale {results['scale']} --repeat {results['repeat']} --threads "
             f"{results['threads']}` on "
             f"{results['machine']}, {results['threads']} thread(s). Roofs measured by `cuvil.inspect.peaks` "
             f"(STREAM triad; vectorized FMA in cache): {peaks['bandwidth'][width]:.1f} GB/s, "
             f"{peaks['gflops'][f'float32/{width}']:.1f} GFLOP/s float32, "
             f"{peaks['gflops'][f'float64/{width}']:.1f} GFLOP/s "
             f"float64 ({'one thread' if results['threads'] == 1 else 'all threads'}). "
             "FLOPs and bytes are Cuvil's cost model of the loop form, the same for every "
             "system (compulsory traffic); roof = min(peak, intensity × bandwidth); fraction = achieved / roof. "
             "Medians of the runs; other load on the machine is not corrected for.", "",
             "| kernel | dtype | FLOPs | bytes | FLOP/byte | bound | roof GFLOP/s | Cuvil | Numba | torch.compile |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, k in results["kernels"].items():
        cells = []
        for system in SYSTEMS:
            s = k["systems"].get(system)
            cells.append(f"{s['fraction']:.0%} ({s['ms']:.2f} ms)" if s else
                         ("failed" if system in k["failed"] else "—"))
        estimate = "" if k["exact"] else " (estimate)"
        lines.append(f"| {name} | {k['dtype']} | {k['flops']:.3g}{estimate} | {k['bytes']:.3g} | "
                     f"{k['intensity']:.3g} | {k['bound']} | {k['roof_gflops']:.3g} | " + " | ".join(cells) + " |")
    failures = [f"{name}/{s}: {why}" for name, k in results["kernels"].items() for s, why in k["failed"].items()]
    if failures:
        lines += ["", "Failed: " + "; ".join(failures) + "."]
    lines += ["", "Reading it: a math call (tanh, exp, sqrt) counts as one FLOP, so a kernel dominated by "
              "transcendentals (gelu: a tanh per element) sits far below a memory roof it cannot reach — its "
              "fraction measures the math library (libm's scalar tanh for the loop forms, Cuvil's vector tanh_f32 "
              "for gelu_np). A float reduction without fastmath (total, dot, softmax's sums) is bound by the add's "
              "latency, not by memory, in Cuvil and Numba alike; torch's reductions reassociate and vectorize.",
              "", "![roofline](roofline.png)", "", END]
    return "\n".join(lines) + "\n"


def write_report_section(section: str, report: Path) -> None:
    text = report.read_text(encoding="utf-8") if report.exists() else ""
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + section.rstrip("\n") + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    report.write_text(text, encoding="utf-8")


def plot(results: dict[str, Any], path: Path) -> None:
    from cuvil.inspect.roofline import chart

    points, markers = [], []
    marker = {"cuvil": "o", "numba": "s", "torch_compile": "^"}
    for name, k in results["kernels"].items():
        for system, s in k["systems"].items():
            points.append((f"{name} {system}", k["intensity"], s["gflops"]))
            markers.append(marker[system])
    peaks, width = results["peaks"], "1" if results["threads"] == 1 else "all"
    path.write_bytes(chart(points, (peaks["gflops"][f"float64/{width}"], peaks["bandwidth"][width]),
                           f"bench kernels (roof: float64, {results['threads']} thread(s))", markers))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--kernels", default=",".join(KERNELS))
    parser.add_argument("--no-torch-compile", action="store_true")
    parser.add_argument("--threads", type=int, default=0, help="threads for Numba, Cuvil and torch (0: all); "
                        "1 uses the one-thread roofs, steadier on a shared machine")
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--from-json", type=Path, help="render roofline.md/png and the REPORT.md section from a "
                        "roofline.json, measuring nothing")
    opts = parser.parse_args(argv)
    if opts.from_json is not None:
        results = json.loads(opts.from_json.read_text())
        return write_outputs(results, opts.out)
    import numba

    from cuvil.inspect.peaks import peaks as measured_peaks

    if opts.threads:
        numba.set_num_threads(opts.threads)
        if not opts.no_torch_compile:
            import torch

            torch.set_num_threads(opts.threads)

    peaks = measured_peaks()
    results: dict[str, Any] = {"scale": opts.scale, "repeat": opts.repeat, "threads": numba.get_num_threads(),
                               "machine": f"{platform.machine()} {os.cpu_count()} cores", "peaks": {
                                   "bandwidth": peaks.bandwidth, "gflops": peaks.gflops}, "kernels": {}}
    for name in opts.kernels.split(","):
        progress(f"{name} …")
        results["kernels"][name] = measure(name, opts.scale, opts.repeat, not opts.no_torch_compile, peaks,
                                           results["threads"])
    opts.out.mkdir(parents=True, exist_ok=True)
    (opts.out / "roofline.json").write_text(json.dumps(results, indent=1))
    return write_outputs(results, opts.out)


def write_outputs(results: dict[str, Any], out: Path) -> int:
    section = markdown(results)
    (out / "roofline.md").write_text(section)
    try:
        plot(results, out / "roofline.png")
    except ImportError as exc:
        progress(str(exc))
    write_report_section(section, out / "REPORT.md")
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
