"""Numba's errors, told in the user's terms: the message that matters, at the user's line.

Numba reports a typing failure against the generated module ("File …/_cuvil_f_ab12.py, line 9") wrapped in
pages of pipeline context. The generated module's line map (built from the "# L<n>" origin comments) turns
that location back into the user's file and line.
"""

from __future__ import annotations

import difflib
import linecache
import os
import re
import sys
import traceback
from collections.abc import Sequence

import numpy as np

from ..errors import CuvilReadOnlyError, CuvilTypeError
from . import mistakes

_LOCATION = re.compile(r'File "([^"]+)", line (\d+)')
_ECHO = re.compile(r"# L\d+\b|<source elided>")  # Numba echoing the generated source
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
READ_ONLY = ("this line writes an array passed read-only (its flags.writeable is False), where NumPy raises "
             "ValueError: assignment destination is read-only; pass a writable array (a copy)")
_NOISE = (  # Numba's scaffolding around the sentence that says what is wrong
    "Failed in ",
    "During: ",
    "File ",
    "<source ",
    "This error may have been caused",
    "Rewrite ",
    "- Resolution failure for ",
    "There are ",
    "- Of which ",
    "Overload ",
    "With argument(s)",
    "Rejected as the implementation raised",
    "raised from ",
    "Raised from ",
    "For further details",
    "The above exception",
    "No match",
    "* (",  # the list of registered signatures after "No match for registered cases:"
    "Operator Overload in ",
)
# Numba naming its own temporaries and the generated module inside a sentence: "Cannot unify int64 and
# array(float64, 1d, C) for '$phi14.0.2', defined at /…/_cuvil_f_ab12.py (8)" keeps what precedes them.
_INTERNALS = re.compile(r" for '\$[^']*'|,? defined at \S+ \(\d+\)")
_FUNCTION = re.compile(  # "Function(<function median at 0x7f…>)" → "median"
    r"(?:Bound)?Function\(<(?:built-in )?(?:function|ufunc|class) '?([\w.]+)'?(?: at 0x[0-9a-f]+)?>\)"
)
_ERROR_PREFIX = re.compile(r"^(?:\w+\.)*\w*Error: ")

# NotImplementedErrors Numba's compiled code raises at run time where NumPy succeeds (`raise` is outside the
# subset, so the program never raises one itself): message → (what the line calls, what to write instead).
_RUNTIME_LIMITS = {
    "incompatible shape for array": (
        "reshape(", "Numba reshapes only without a copy; NumPy would copy here: reshape "
        "np.ascontiguousarray(…) instead"),
}

# An array method or function Numba does not implement, in Numba's words → what to write instead.
_UNKNOWN_METHOD = re.compile(r"Unknown attribute '(\w+)' of type array\(")
_UNSUPPORTED_FUNCTION = re.compile(r"unsupported NumPy function 'numpy\.(\w+)'")
_INSTEAD = {
    "squeeze": "index the size-1 axes away (`a[0]`, `a[:, 0]`) or reshape to the shape you want (a squeezed "
               "array's rank depends on its sizes, which compiled code does not know)",
    "tolist": "return the array and call .tolist() outside the compiled function",
    "ndarray": "test an argument's kind outside the compiled function (each kind compiles a variant of its own)",
    "numpy.random.default_rng": "seed NumPy's global generator in the caller (np.random.seed) and draw with "
                                "np.random.* inside, which continues its stream, or draw in the caller and pass "
                                "the numbers in",
    "random.choice": "draw an index: a[random.randrange(len(a))]",
    "math.fsum": "call it outside the compiled function (a loop's sum is not fsum's correctly rounded one)",
    "math.prod": "multiply in a loop",
    "math.dist": "write math.hypot of the differences (math.hypot(p[0] - q[0], p[1] - q[1], …))",
}


_UNKNOWN_MODULE_ATTRIBUTE = re.compile(r"Unknown attribute '(\w+)' of type Module\(<module '([\w.]+)'")
_SHORT = {"numpy": "np"}  # the spelling users write


def _module_attribute(found: re.Match[str]) -> str:
    """`np.random.default_rng` (there, not compiled) or `np.sume` (not there: a misspelling, with the nearest
    name), in the user's spelling; what to write instead where there is a known way."""
    name, module = found.group(1), found.group(2)
    head, _, rest = module.partition(".")
    shown = ".".join(filter(None, (_SHORT.get(head, head), rest)))
    owner = sys.modules.get(module)
    if owner is not None and not hasattr(owner, name):
        near = difflib.get_close_matches(name, [n for n in dir(owner) if not n.startswith("_")], n=1)
        return f"module '{module}' has no attribute '{name}'" + (f"; did you mean '{near[0]}'?" if near else "")
    instead = _INSTEAD.get(f"{module}.{name}", "write it as a loop instead")
    return f"{shown}.{name} is not supported in compiled code (Numba does not implement it); {instead}"


def _unsupported(message: str, summary: str) -> str:
    """Numba's "Unknown attribute 'squeeze' of type array(float64, 2d, C)" in the user's terms."""
    module_attribute = _UNKNOWN_MODULE_ATTRIBUTE.search(message)
    if module_attribute is not None:
        return _module_attribute(module_attribute)
    method = _UNKNOWN_METHOD.search(message)
    function = _UNSUPPORTED_FUNCTION.search(message)
    if method is None and function is None:
        return summary
    name = method.group(1) if method else function.group(1)  # type: ignore[union-attr]
    if method and not hasattr(np.ndarray, name):  # a misspelling, not a method Numba lacks: Python's words
        near = difflib.get_close_matches(name, [n for n in dir(np.ndarray) if not n.startswith("_")], n=1)
        return f"'numpy.ndarray' object has no attribute '{name}'" + (f"; did you mean '{near[0]}'?" if near else "")
    said = f"arrays have no .{name} in compiled code" if method else \
        f"np.{name} is not supported in compiled code"
    return f"{said} (Numba does not implement it); {_INSTEAD.get(name, 'write it as a loop instead')}"


# Generated module file name → its line map (index 0 is line 1). By name: Numba prints paths relative to the
# working directory, and every generated module's name is unique (it holds the cache key).
line_maps: dict[str, list[tuple[str, int] | None]] = {}


def _summary(message: str) -> str:
    """What is wrong, in Numba's own key sentences ("unsupported NumPy function 'numpy.tile'", "got an
    unexpected keyword argument 'axis'"), without its pipeline context, candidate lists and source echo."""
    sentences: list[str] = []
    signature = None
    for line in (ln.strip() for ln in message.splitlines()):
        if not line or _ECHO.search(line) or not set(line) - {"^", " "}:
            continue
        if line.startswith(">>>"):
            signature = signature or _FUNCTION.sub(r"\1", line[3:].strip())
            continue
        if line.startswith(_NOISE):
            continue
        sentence = _INTERNALS.sub("", _ERROR_PREFIX.sub("", _FUNCTION.sub(r"\1", line)))
        if sentence not in sentences:
            sentences.append(sentence)
    if not sentences:
        return "Numba could not compile this function"
    if sentences[0].endswith(":"):  # "… found for signature:", followed by the ">>>" line
        sentences[0] = sentences[0][:-1] + (f": {signature}" if signature else "")
    return "\n".join(sentences[:3])


_NO_MODULE_ATTRIBUTE = re.compile(r"module '([\w.]+)' has no attribute '(\w+)'")


def _internal_summary(exc: BaseException) -> str:
    said = _ANSI.sub("", str(exc)).strip().splitlines()
    missing = _NO_MODULE_ATTRIBUTE.fullmatch(said[0]) if said and isinstance(exc, AttributeError) else None
    if missing is not None:  # `np.sume(x)`: a misspelling, told as Python tells it, with the nearest name
        owner = sys.modules.get(missing.group(1))
        names = [n for n in dir(owner) if not n.startswith("_")] if owner is not None else []
        near = difflib.get_close_matches(missing.group(2), names, n=1)
        return said[0] + (f"; did you mean '{near[0]}'?" if near else "")
    detail = f": {said[0]}" if said else " (and no message)"
    return f"Numba cannot compile this line: it failed with {type(exc).__name__}{detail}"


def _frame_locations(exc: BaseException) -> list[tuple[str, str]]:
    """Where Numba was in the generated module when it failed with an exception of its own (not a
    NumbaError, so no location in the message): the `loc` of the statement each typing or lowering frame was
    working on, innermost first; last, the location Numba itself recorded most recently."""
    from numba.core import errors, ir

    found = []
    tb = exc.__traceback__
    while tb is not None:
        frame_locals = tb.tb_frame.f_locals
        for value in (frame_locals.get("loc"), *(getattr(frame_locals.get(k), "loc", None)
                                                   for k in ("inst", "stmt", "expr"))):
            if isinstance(value, ir.Loc) and value.line is not None:
                found.append((value.filename, str(value.line)))
        tb = tb.tb_next
    recorded = getattr(errors, "loc_info", {}).get("loc")  # Numba 0.68 keeps it; older ones may not
    return found[::-1] + ([(recorded.filename, str(recorded.line))] if isinstance(recorded, ir.Loc) else [])


def user_error(exc: Exception) -> CuvilTypeError:
    """A Numba failure as a `CuvilTypeError` at the user's line: a NumbaError names the generated module's
    line in its message; any other exception from Numba's typing or lowering (an AttributeError, an empty
    AssertionError) is found through the frames it passed."""
    from numba.core.errors import NumbaError

    read_only = False
    if isinstance(exc, NumbaError):
        message = _ANSI.sub("", str(exc))
        summary, locations = _summary(message), _LOCATION.findall(message)
        read_only = "Cannot modify readonly array" in message  # module arrays are refused before Numba types
        summary = READ_ONLY if read_only else mistakes.words(_unsupported(message, summary))
    else:
        message = "".join(traceback.format_exception(exc))
        summary, locations = _internal_summary(exc), _frame_locations(exc)
    filename = lineno = None
    for path, line in locations:
        mapping = line_maps.get(os.path.basename(path))
        index = int(line) - 1
        if mapping is None:
            continue
        while index >= 0 and mapping[index] is None:  # `else:` and decorator lines carry no origin
            index -= 1
        if index >= 0:  # the innermost location comes first
            filename, lineno = mapping[index]  # type: ignore[misc]
            break
    text = linecache.getline(filename, lineno) if filename and lineno else None
    kind = CuvilReadOnlyError if read_only else mistakes.kind(summary)
    error = kind(summary, filename, lineno, text)
    error.numba_message = message  # type: ignore[attr-defined]
    return error


def read_only_written(names: Sequence[str], numba_types: Sequence[object],
                      writes: Sequence[str] | None) -> str | None:
    """The first parameter the function may write (`writes`; None: any) that was passed a read-only array."""
    from numba.core import types

    return next((n for n, t in zip(names, numba_types) if (writes is None or n in writes)
                 and isinstance(t, types.Array) and not t.mutable), None)


def read_only_error(exc: Exception, name: str) -> CuvilReadOnlyError:
    """Numba's failure to compile a write into the read-only argument `name` ("Cannot modify readonly array",
    "called with an explicit output that is read-only", or a crash of its own for `a[1:] += x`), as NumPy's
    ValueError, at the line Numba failed on when it names one."""
    found = user_error(exc)
    message = READ_ONLY.replace("an array passed read-only", f"`{name}`, an array passed read-only")
    error = CuvilReadOnlyError(message, found.filename, found.lineno, found.text)
    error.numba_message = getattr(found, "numba_message", "")  # type: ignore[attr-defined]
    return error


def runtime_error(exc: NotImplementedError, source: str, line_map: list[tuple[str, int] | None]) -> CuvilTypeError:
    """Numba's run-time "not implemented" as a `CuvilTypeError`, at the user's line when the message tells
    which operation raised it and the variant (`source`, `line_map`) has one such line."""
    said = str(exc) or type(exc).__name__
    call, hint = _RUNTIME_LIMITS.get(said, ("", "write the operation as an explicit loop instead"))
    filename = lineno = None
    lines = [i for i, text in enumerate(source.splitlines()) if call and call in text and line_map[i]]
    if len(lines) == 1:
        filename, lineno = line_map[lines[0]]  # type: ignore[misc]
    text = linecache.getline(filename, lineno) if filename and lineno else None
    return CuvilTypeError(f"Numba cannot run this: {said}; {hint}", filename, lineno, text)
