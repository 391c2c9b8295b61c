"""Cuvil: a source-to-source JIT for numeric Python.

    @cuvil.jit
    def saxpy(a, x, y, out): ...

Importing cuvil imports neither Numba nor libcst; the first compile does.
"""

from __future__ import annotations

__version__ = "0.1.0"

import sys
from typing import Any

from .dims import Array
from .errors import (
    CacheWarning,
    CuvilAttributeError,
    CuvilAxisError,
    CuvilError,
    CuvilIndexError,
    CuvilInternalError,
    CuvilNameError,
    CuvilReadOnlyError,
    CuvilShapeError,
    CuvilSyntaxError,
    CuvilTypeError,
    CuvilValueError,
    CuvilWarning,
    PerformanceWarning,
    PrecisionWarning,
    RecompileWarning,
)
from .options import Options, config
from .precision import bf16, fp16, fp32

__all__ = [
    "Array",
    "CacheWarning",
    "CuvilAttributeError",
    "CuvilAxisError",
    "CuvilError",
    "CuvilInternalError",
    "CuvilIndexError",
    "CuvilNameError",
    "CuvilReadOnlyError",
    "CuvilShapeError",
    "CuvilSyntaxError",
    "CuvilTypeError",
    "CuvilValueError",
    "CuvilWarning",
    "PerformanceWarning",
    "PrecisionWarning",
    "RecompileWarning",
    "bf16",
    "config",
    "diff",
    "explain",
    "fingerprint",
    "fp16",
    "fp32",
    "jit",
    "profile",
    "stats",
]


def jit(
    fn: Any = None,
    *,
    target: str = "cpu",
    parallel: bool | None = None,
    precision: str | None = None,
    dynamic: bool | None = None,
    fastmath: bool = False,
    cache: bool = True,
    boundscheck: bool = True,
    overflow: str = "raise",
    dims: Any = (),
    **misspelt: Any,
) -> Any:
    """Compile `fn` for the target; usable as `@cuvil.jit`, `@cuvil.jit(...)` and `cuvil.jit(fn, ...)`.

    The options are checked, and the source is checked against the supported subset, when the decorator
    runs; compilation waits for the first call, when the arguments' types and shapes are known.

    Args:
        fn: a plain Python function (or one already jitted: its Python function is compiled afresh).
        target: "cpu" (Numba, `@njit(nogil=True)`), "cuda" (numba.cuda kernels and a launcher), or "auto"
            (cuda when an array argument lives on a GPU).
        parallel: True runs the loops proven free of loop-carried dependences on all cores (and whole-array
            code as parallel nests); False keeps every loop serial; None is False on the CPU and True on CUDA.
        precision: "fp16" or "bf16" store float arrays in half precision and compute in float32; "fp32"
            computes in float32; None keeps NumPy's dtypes.
        dynamic: True compiles every dim as a run-time value; False specialises every dim (up to
            `cuvil.config.recompile_limit` variants); None specialises dims of size 16 or less and makes a dim
            dynamic once a call shows it a second size.
        fastmath: LLVM's fast-math flags (reassociation, no NaN/inf guarantees), as Numba's fastmath=True.
        cache: keep compiled variants on disk (the cache directory: `CUVIL_CACHE_DIR`) as well as in memory.
        boundscheck: True checks every index as Python does (IndexError at your line); False checks none, as
            Numba does by default.
        overflow: "raise" makes Python-int arithmetic that leaves int64 raise OverflowError; "wrap" wraps as
            NumPy's int64 does.
        dims: declared ranges of dims, e.g. `{"x.shape[0]": (1, 32)}`, for guards and shape proofs.

    Returns:
        A dispatcher that compiles on its first call and keeps one variant per guard; or, without `fn`, the
        decorator that makes one.

    Raises:
        CuvilSyntaxError: the source uses something outside the supported subset (file, line, column, hint).
        TypeError: an unknown option (with the nearest known name).
        ValueError: an option's value is not one it takes.
    """
    if misspelt:
        raise _unknown_option(next(iter(misspelt)))
    opts = Options(target=target, parallel=parallel, precision=precision, dynamic=dynamic, fastmath=fastmath,
                   cache=cache, boundscheck=boundscheck, overflow=overflow, dims=dims)

    def wrap(f: Any) -> Any:
        from .runtime.dispatcher import Dispatcher

        if getattr(f, "__cuvil_jit__", False):
            f = f.py_func
        try:
            return Dispatcher(f, opts)
        except CuvilSyntaxError as exc:
            # Raised afresh here, the traceback ends at the decorator's line and Python shows the user's file,
            # line and caret with the message and its hint; the front end's frames (libcst's visitors) stay on
            # the exception for whoever debugs Cuvil.
            exc.internal_traceback = exc.__traceback__  # type: ignore[attr-defined]
            raise exc.with_traceback(None) from None

    return wrap if fn is None else wrap(fn)


def _unknown_option(name: str) -> TypeError:
    """Python's TypeError for a misspelt option, with the nearest name (`paralel`: `parallel`), which Python's
    own message for an unexpected keyword does not give."""
    import dataclasses
    import difflib

    known = [f.name for f in dataclasses.fields(Options)]
    near = difflib.get_close_matches(name, known, n=1)
    return TypeError(f"cuvil.jit() got an unexpected keyword argument '{name}'"
                     + (f"; did you mean '{near[0]}'?" if near else f" (options: {', '.join(known)})"))


def explain(fn: Any) -> Any:
    """Compile history of a jitted function: `.compiles` (CompileEvent list), `.guards`; printable. For a torch
    model compiled with backend="cuvil": its graphs' fused partitions and the ops left to torch, with why."""
    from .inspect.explained import Explained  # prints each variant's fingerprint (issue 17)

    if not getattr(fn, "__cuvil_jit__", False):
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(fn, torch.nn.Module):  # compiled with backend="cuvil" (issue 14)
            from .dynamo import explain as _explain_model

            return _explain_model(fn)
        raise TypeError(f"cuvil.explain takes a function made by cuvil.jit, not {type(fn).__name__}")
    return Explained(fn.py_func.__qualname__, list(fn.compile_events), fn.guards(), fn.loops(), fn=fn)


def diff(fn: Any, a: Any = -2, b: Any = -1) -> Any:
    """How variants `a` and `b` of `fn` differ (numbers as explain counts them, or argument tuples to compile
    for): in words, and as a unified diff of their plans."""
    from .inspect.diff import diff as _diff

    return _diff(fn, a, b)


def fingerprint(fn: Any, variant: int = -1) -> str:
    """A hash of variant `variant`'s structure (#n as explain numbers them; -1 the newest): equal across
    processes and machines for the same code, different when the generated code's structure differs."""
    from .inspect.fingerprint import fingerprint as _fingerprint

    return _fingerprint(fn, variant)


def profile(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run `fn(*args)`, time it, and report GFLOP/s and GB/s against this machine's measured roofs (issue 17);
    `repeat=` sets the timed runs. Printable; a roofline chart inline in notebooks (with matplotlib)."""
    from .inspect.profile import profile as _profile

    return _profile(fn, *args, **kwargs)


def stats() -> dict[str, dict[str, Any]]:
    """Per function: compiles, cache hits, compile seconds p50/p99."""
    from .runtime.events import stats as _stats

    return _stats()
