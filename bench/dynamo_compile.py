"""Where a later graph's Numba compile goes, and what the kernels' decorator flags change in it (issue 14's
compile-time target; bench/dynamo.md).

The LayerNorm partition of bench/dynamo.py (2048 x 1024 float32) is compiled once through the backend, after a
first graph (Numba started, the vector math compiled ahead). Its module text is then compiled again under each
variant in turn, `--repeat` rounds, variants interleaved, each time as a new module (so neither Numba's nor
Cuvil's cache answers): CPU time of `dispatcher.compile(signature)` alone, medians. Numba's own pipeline times
of the last base compile (wall times: shares) are split into its passes before lowering and `native_lowering`
(lowering to LLVM IR, LLVM's optimizer and machine code, the CPython wrapper).

    python bench/dynamo_compile.py [--repeat 7]

`base` is the kernels' decorator (dynamo/modules.py, with its pruned pipeline, pipeline.py) at Numba's default
`-O3`; the backend itself compiles at `-O1` (the `OPT=1` variant). Variants, each one change from base:
`no cache` (cache=False), `no NRT` (_nrt=False), `no CPython wrapper` (no_cpython_wrapper=True: the kernel
could then only be called through its native address), `OPT=2` (numba.config.OPT lowered for this compile
alone), `no function passes` (Numba's per-function LLVM pipeline skipped, the module pipeline kept),
`OPT=1 (the backend's)`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from typing import Any


def _opt(level: int) -> Any:
    @contextmanager
    def context() -> Any:
        import numba

        old = numba.config.OPT
        numba.config.OPT = type(old)(level)
        try:
            yield
        finally:
            numba.config.OPT = old
    return context


@contextmanager
def _no_function_passes() -> Any:
    from numba.core import codegen

    old = codegen.CPUCodeLibrary._optimize_functions
    codegen.CPUCodeLibrary._optimize_functions = lambda self, module: None
    try:
        yield
    finally:
        codegen.CPUCodeLibrary._optimize_functions = old


@contextmanager
def _nothing() -> Any:
    yield


VARIANTS = {  # name: (decorator text replaced, replacement, context)
    "base": ("", "", _nothing),
    "no cache": (", cache=True", "", _nothing),
    "no NRT": ("cache=True", "cache=True, _nrt=False", _nothing),
    "no CPython wrapper": ("cache=True", "cache=True, no_cpython_wrapper=True", _nothing),
    "OPT=2": ("", "", _opt(2)),
    "OPT=1 (the backend's)": ("", "", _opt(1)),
    "no function passes": ("", "", _no_function_passes),
}


def layer_norm_kernel() -> tuple[str, Any]:
    """The LayerNorm partition's module text and Numba signature, compiled through the backend as a later graph."""
    import torch
    import torch.nn.functional as F

    from cuvil.dynamo import compiled, prelude

    torch.set_num_threads(1)
    x, w, b = torch.randn(2048, 1024), torch.randn(1024), torch.randn(1024)
    with torch.no_grad():
        torch.compile(lambda x, b: F.gelu(x + b) + x, backend="cuvil", dynamic=False)(x, b)  # the first graph
        prelude.wait()
        torch.compile(lambda x, w, b: F.layer_norm(x, (1024,), w, b), backend="cuvil", dynamic=False)(x, w, b)
    kernel = list(compiled._COMPILED.values())[-1]
    return kernel.text, kernel.spec.signature()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    os.environ.setdefault("CUVIL_CACHE_DIR", tempfile.mkdtemp(prefix="cuvil-bench-dynamo-compile-"))
    import importlib.util

    from cuvil.dynamo import modules

    text, signature = layer_norm_kernel()
    folder = tempfile.mkdtemp(prefix="cuvil-bench-dynamo-compile-modules-")
    seconds: dict[str, list[float]] = {name: [] for name in VARIANTS}
    last: Any = None
    for round_ in range(args.repeat):
        for k, (name, (old, new, context)) in enumerate(VARIANTS.items()):
            module_name = f"dynamo_compile_{round_}_{k}"
            path = os.path.join(folder, module_name + ".py")
            decorator = modules._DECORATOR.replace(old, new) if old else modules._DECORATOR
            with open(path, "w") as f:
                f.write(text.replace(modules._DECORATOR, decorator))
            spec = importlib.util.spec_from_file_location(module_name, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            spec.loader.exec_module(module)
            with context():
                started = time.process_time()
                module.kernel.compile(signature)
                seconds[name].append(time.process_time() - started)
            if name == "base":
                last = module.kernel.overloads[signature].metadata.get("pipeline_times", {})
    base = statistics.median(seconds["base"])
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}; {args.repeat} rounds")
    print("| variant | compile s (median, CPU) | vs base s |\n|---|---|---|")
    for name, values in seconds.items():
        median = statistics.median(values)
        print(f"| {name} | {median:.3f} | {median - base:+.3f} |")
    passes = {p.split("_", 1)[1]: t.init + t.run + t.finalize for _, ps in last.items() for p, t in ps.items()}
    lowering = passes.pop("native_lowering", 0.0)
    total = sum(passes.values()) + lowering  # wall times: shares, which a loaded machine distorts less
    print(f"\nNumba's pipeline (last base compile, shares of its wall time): passes before lowering "
          f"{sum(passes.values()) / total:.0%} (type inference "
          f"{passes.get('nopython_type_inference', 0.0) / total:.0%}), native_lowering {lowering / total:.0%}")


if __name__ == "__main__":
    main()
