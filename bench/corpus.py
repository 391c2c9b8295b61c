"""Cuvil against code nobody here wrote: each program of a corpus run as plain Python and with its entry function
under cuvil.jit (its helpers left plain, as a user would), classified as the issues count them:

    match     the same result (NumPy's allclose for floats, exact otherwise; the same exception where Python raises)
    wrong     a different result, or no exception where Python raises one: the worst outcome
    refused   a Cuvil error naming the user's line (CuvilSyntaxError, CuvilTypeError, …): clear, but not compiled
    crash     anything else (an internal error, Numba's own words)

The corpus is numpy-benchmarks' layout (serge-sans-paille/numpy-benchmarks): one .py per program, with
`#setup: <statements>` and `#run: <call>` lines. Usage (a checkout's `numpy_benchmarks/benchmarks`):

    python bench/corpus.py PATH/numpy_benchmarks/benchmarks [--json out.json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import warnings
from pathlib import Path

import numpy as np


def _lines(path: Path) -> tuple[str, str] | None:
    setup = run = None
    for line in path.read_text().splitlines():
        if line.startswith("#setup:"):
            setup = line.split(":", 1)[1].strip()
        elif line.startswith("#run:"):
            run = line.split(":", 1)[1].strip()
    return (setup, run) if setup is not None and run is not None else None


def _same(a, b) -> bool:
    if isinstance(a, tuple | list):
        return isinstance(b, tuple | list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        return bool(np.allclose(a, b, rtol=1e-7, atol=1e-9, equal_nan=True))
    return bool(np.array_equal(a, b))


def _outcome(call, namespace):
    try:
        return "value", eval(call, namespace)  # noqa: S307 (the corpus's own #run line)
    except Exception as exc:  # noqa: BLE001
        return "raised", exc


def classify(path: Path) -> tuple[str, str]:
    import cuvil

    found = _lines(path)
    if found is None:
        return "skipped", "no #setup/#run"
    setup, run = found
    spec = importlib.util.spec_from_file_location(f"corpus_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    name = run.split("(", 1)[0].strip()
    namespace = dict(vars(module))
    exec(setup, namespace)  # noqa: S102 (the corpus's own #setup line)
    expected = _outcome(run, dict(namespace))
    jitted = dict(namespace)
    exec(setup, jitted)  # the same inputs again (a program may write into them)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            jitted[name] = cuvil.jit(getattr(module, name))
            actual = _outcome(run, jitted)
        except cuvil.CuvilError as exc:  # refused when decorated
            actual = "raised", exc
    if actual[0] == "raised":
        exc = actual[1]
        if expected[0] == "raised" and isinstance(exc, type(expected[1])):
            return "match", f"both raise {type(exc).__name__}"
        if isinstance(exc, cuvil.CuvilError) and not isinstance(exc, cuvil.CuvilInternalError):
            return "refused", f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
        return "crash", f"{type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}"
    if expected[0] == "raised":
        return "wrong", f"Python raises {type(expected[1]).__name__}, Cuvil returns"
    return ("match", "") if _same(expected[1], actual[1]) else ("wrong", "a different result")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = {}
    for path in sorted(args.corpus.glob("*.py")):
        if path.name.startswith("_"):
            continue
        try:
            results[path.stem] = classify(path)
        except Exception as exc:  # noqa: BLE001 (the program's own module or setup failed)
            results[path.stem] = ("skipped", f"{type(exc).__name__}: {exc}")
        print(f"{path.stem:28} {results[path.stem][0]:8} {results[path.stem][1]}", flush=True)
    kinds = ("match", "wrong", "refused", "crash", "skipped")
    counts = {k: sum(1 for v in results.values() if v[0] == k) for k in kinds}
    print(" / ".join(f"{k} {v}" for k, v in counts.items()))
    if args.json:
        args.json.write_text(json.dumps({"counts": counts, "programs": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
