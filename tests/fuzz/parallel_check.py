"""Run a parallel-fuzz program under CPython and under `cuvil.jit(parallel=True)`, call after call, and list
every difference, exactly:

- the result: the same structure, the exact dtype and shape of each array (a torch tensor where the arguments
  were tensors), the same scalar type (Python's int is int64, its float float64), equal values — NaN equal to
  NaN — with a tolerance only for a float reduction, whose order a parallel loop may change;
- the writes: every base buffer the arguments view is compared after the call, so a write through any alias
  counts;
- exceptions: where CPython raises, Cuvil raises the same type (what the outputs hold then is unspecified, so
  nothing else is compared); where CPython returns, Cuvil returns.

Both sides get fresh arguments cut from fresh memory the same way, and see the same module globals.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import cuvil

from ..helpers import define
from .parallel_programs import ParallelProgram, Run, arguments

RTOL, ATOL = 1e-9, 1e-12  # for float64 reductions only


@dataclasses.dataclass(frozen=True)
class Problem:
    kind: str  # "value", "write", "missing <Exc>", "<Exc> instead of <Exc>", "raised <Exc>"
    text: str


@dataclasses.dataclass
class Outcome:
    value: Any
    error: BaseException | None
    bases: list[np.ndarray]


def call(fn: Callable[..., Any], program: ParallelProgram, run: Run, kind: str) -> Outcome:
    args, bases = arguments(program, run, kind)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return Outcome(fn(*[args[p] for p in program.params]), None, bases)
    except Exception as exc:  # compared with the other side's
        return Outcome(None, exc, bases)


def check_program(program: ParallelProgram, parallel: bool = True) -> list[Problem]:
    """Every difference over the program's calls; an empty list when Cuvil agrees with CPython."""
    fn = define(program.source, program.name)
    jitted = cuvil.jit(fn, parallel=parallel, dynamic=program.dynamic, boundscheck=program.boundscheck)
    module = fn.__globals__
    problems = []
    for number, run in enumerate(program.runs):
        for name, value in (("G", run.g), ("K", run.k)):
            if name in module:
                module[name] = value  # the same module for both sides: a changed global between calls
        expected = call(fn, program, run, "numpy")
        actual = call(jitted, program, run, run.kind)
        where = f"call {number + 1} (n={run.size}, {run.kind}, d={run.d}, x={run.x}, G={run.g}, K={run.k})"
        problems += [dataclasses.replace(p, text=f"{where}: {p.text}")
                     for p in differences(expected, actual, program.loose, run.kind)]
    return problems


def differences(e: Outcome, a: Outcome, loose: tuple[int, ...], kind: str) -> list[Problem]:
    if e.error is not None:
        want = type(e.error).__name__
        if a.error is None:
            return [Problem(f"missing {want}", f"CPython raises {want}: {e.error}; Cuvil returns {short(a.value)}")]
        if not isinstance(a.error, type(e.error)):
            got = type(a.error).__name__
            return [Problem(f"{got} instead of {want}", f"CPython raises {want}: {e.error}; Cuvil raises {got}: "
                                                        f"{first_line(a.error)}")]
        return []
    if a.error is not None:
        got = type(a.error).__name__
        return [Problem(f"raised {got}", f"CPython returns {short(e.value)}; Cuvil raises {got}: "
                                         f"{first_line(a.error)}")]
    problems = [Problem("value", t) for t in compare(e.value, a.value, "result", -1 in loose, kind, loose)]
    for n, (eb, ab) in enumerate(zip(e.bases, a.bases)):
        problems += [Problem("write", t) for t in compare(eb, ab, f"argument memory #{n}", False, "numpy", ())]
    return problems


def compare(e: Any, a: Any, path: str, tolerant: bool, kind: str, loose: tuple[int, ...]) -> list[str]:
    if isinstance(e, tuple):
        if not isinstance(a, tuple) or len(a) != len(e):
            return [f"{path}: expected a tuple of {len(e)}, got {short(a)}"]
        return [p for k, (x, y) in enumerate(zip(e, a))
                for p in compare(x, y, f"{path}[{k}]", k in loose, kind, ())]
    if isinstance(e, np.ndarray):
        array_type = "Tensor" if kind == "torch" else "ndarray"
        if type(a).__name__ != array_type:
            return [f"{path}: expected a {array_type}, got {type(a).__name__} {short(a)}"]
        a = np.asarray(a.numpy()) if kind == "torch" else a
        if a.shape != e.shape or a.dtype != e.dtype:
            return [f"{path}: expected {e.dtype}{list(e.shape)}, got {a.dtype}{list(a.shape)}"]
        return [] if same(e, a, tolerant) else [f"{path}: expected {short(e)}, got {short(a)}"]
    if e is None or a is None:
        return [] if e is a else [f"{path}: expected {short(e)}, got {short(a)}"]
    if scalar_type(e) != scalar_type(a):
        return [f"{path}: expected {scalar_type(e)} {e!r}, got {scalar_type(a)} {a!r}"]
    return [] if same(np.asarray(e), np.asarray(a), tolerant) else [f"{path}: expected {e!r}, got {a!r}"]


def scalar_type(v: Any) -> str:
    """Python's bool, int and float are NumPy's bool, int64 and float64 (Numba returns them for those)."""
    if isinstance(v, bool | np.bool_):
        return "bool"
    if isinstance(v, int) and not isinstance(v, np.generic):
        return "int64"
    if isinstance(v, float) and not isinstance(v, np.generic):
        return "float64"
    return str(v.dtype) if isinstance(v, np.generic) else type(v).__name__


def same(e: np.ndarray, a: np.ndarray, tolerant: bool) -> bool:
    if e.dtype.kind in "fc":
        if tolerant:
            return bool(np.allclose(a, e, rtol=RTOL, atol=ATOL, equal_nan=True))
        return bool(np.array_equal(e, a, equal_nan=True))
    return bool(np.array_equal(e, a))


def short(v: Any) -> str:
    if hasattr(v, "numpy") and hasattr(v, "detach"):
        v = v.detach().numpy()
    if isinstance(v, np.ndarray):
        return np.array2string(v, threshold=12, edgeitems=4, separator=", ").replace("\n", "")
    return repr(v)


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [""])[0][:200]
