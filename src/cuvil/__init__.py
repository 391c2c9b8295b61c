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


def jit(fn: Any = None, **options: Any) -> Any:
    """Compile `fn` for the target; usable as `@cuvil.jit`, `@cuvil.jit(...)` and `cuvil.jit(fn, ...)`.

    Options are checked now and the source is checked against the supported subset now; compilation waits
    for the first call, when argument types are known.
    """
    opts = _options(options)

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


def _options(options: dict[str, Any]) -> Options:
    """The options, or Python's TypeError for a misspelt one, with the nearest name (`paralel`: `parallel`)."""
    import dataclasses
    import difflib

    known = [f.name for f in dataclasses.fields(Options)]
    for name in options:
        if name not in known:
            near = difflib.get_close_matches(name, known, n=1)
            raise TypeError(f"cuvil.jit() got an unexpected keyword argument '{name}'"
                            + (f"; did you mean '{near[0]}'?" if near else f" (options: {', '.join(known)})"))
    return Options(**options)


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
