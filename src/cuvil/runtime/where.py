"""Where a run-time error of compiled code happened, as the user's file and line, and the exception re-raised
there (CPU variants through the dispatcher, CUDA launchers through cuda_call.py).

Numba gives a raised exception one synthesized frame: the `raise` statement's own place. For a `raise` the
generated module holds (an `assert`, or the one after a parallel loop that re-raises what an iteration
recorded) that is a line of the module, read back through its line map. For a check's helper (runtime/checks.py,
pyint.py, pymath.py, messages.py, …: library LOCATED) it is the helper's own line, so the generated code passes
each helper the user's line as `at=<line>` (lower/located.py) and the helper's cold branch raises
`Error(message, at)`: nothing is computed or stored on the hot path. Here that trailing line is taken off the
exception's arguments again, and the user's file is the one the line map gives that line (the entry
function's file when several would).
"""

from __future__ import annotations

import functools
import linecache
import os
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Origin = tuple[str, int] | None
_RUNTIME = os.path.dirname(os.path.abspath(__file__))  # the helpers' own files: a frame there is a helper's raise
_PACKAGE = os.path.dirname(_RUNTIME)


def warn_at_caller(message: str, category: type[Warning]) -> None:
    """`category(message)` shown at the user's line that called into Cuvil, however deep the calling code is
    (a frame of the package, or of a dispatcher's generated call entry, is not the user's)."""
    frame, level = sys._getframe(1), 2
    while frame.f_back is not None and (frame.f_code.co_filename.startswith(_PACKAGE)
                                        or frame.f_code.co_filename.startswith("<cuvil ")):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def located(kind: type[BaseException], message: str, at: int) -> BaseException:
    """What a check's helper raises from object mode: `kind(message)`, with the user's line `at` as the trailing
    argument this module takes off again (0: no line, as a CUDA launcher's host code calls it)."""
    exc = kind(message)
    if at:  # on the arguments, not the constructor's: AxisError(message, at) would read `at` as a dimension
        exc.args = (*exc.args, int(at))
    return exc


def raise_at(exc: BaseException, filename: str, line: int) -> BaseException:
    """`exc`, its traceback ending at `filename:line` (the user's file, so tracebacks show their source)."""
    exc.__traceback__ = None
    try:
        exec(_raising(filename, line), {"__cuvil_exception__": exc})  # noqa: S102 (our own one-line code)
    except BaseException as raised:  # noqa: BLE001
        return raised
    return exc


@functools.lru_cache(maxsize=256)
def _raising(filename: str, line: int) -> Any:
    """The code that raises at `filename:line`, compiled once (15 µs each time: a program that catches an error
    in a loop pays it per call)."""
    return compile("\n" * (line - 1) + "raise __cuvil_exception__", filename, "exec")


def module_line(exc: BaseException, path: str) -> int | None:
    """The line of the module at `path` where `exc` was raised (its innermost frame there), if any."""
    tb, line = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def at_user_line(exc: BaseException, modules: Mapping[str, Sequence[Origin]], own: Iterable[Sequence[Origin]],
                 files: Sequence[str]) -> BaseException | None:
    """`exc` from compiled CPU code, at the user's line; None when it carries no place (an error of Numba's own
    library code, say). `modules` are the generated modules' line maps by file name (diagnose.line_maps),
    `own` the line maps of the function's variants, `files` those of the function (first) and its callees.
    The exception is the same object, with its new traceback."""
    tb, found = exc.__traceback__, None
    while tb is not None:  # a raise in a generated module itself: its innermost frame there
        line_map = modules.get(os.path.basename(tb.tb_frame.f_code.co_filename))
        if line_map is not None and 0 < tb.tb_lineno <= len(line_map) and line_map[tb.tb_lineno - 1] is not None:
            found = line_map[tb.tb_lineno - 1]
        tb = tb.tb_next
    if found is not None:
        return raise_at(exc, _ours(found[0], files), found[1])
    at = helper_line(exc)
    if at is None:
        return None
    candidates = {_ours(o[0], files) for line_map in own for o in line_map if o is not None and o[1] == at}
    return raise_at(exc, files[0] if files[0] in candidates or len(candidates) != 1 else candidates.pop(), at)


def _ours(filename: str, files: Sequence[str]) -> str:
    """`filename`, or the one of `files` with the same text where both exist only in memory: the cache key of a
    notebook cell or exec'd text is its text, not its invented file name, so a cell run again (or the same text
    exec'd twice) shares the first one's module, and its line map names the first one's file."""
    if filename in files:
        return filename
    text = _memory_text(filename)
    return next((f for f in files if text is not None and _memory_text(f) == text), filename)


def _memory_text(filename: str) -> list[str] | None:
    cached = linecache.cache.get(filename)
    return cached[2] if cached is not None and len(cached) == 4 and cached[1] is None else None


def helper_line(exc: BaseException) -> int | None:
    """The user's line a check's helper was given (`Error(message, at)`), taken off `exc.args`."""
    args = exc.args
    if len(args) < 2 or type(args[-1]) is not int or args[-1] <= 0 or not _raised_in_runtime(exc):
        return None
    exc.args = args[:-1]
    return args[-1]


def _raised_in_runtime(exc: BaseException) -> bool:
    tb: Any = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and os.path.dirname(os.path.abspath(tb.tb_frame.f_code.co_filename)) == _RUNTIME
