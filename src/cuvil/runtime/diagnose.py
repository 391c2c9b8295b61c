"""Numba's errors, told in the user's terms: the message that matters, at the user's line.

Numba reports a typing failure against the generated module ("File …/_cuvil_f_ab12.py, line 9") wrapped in
pages of pipeline context. The generated module's line map (built from the "# L<n>" origin comments) turns
that location back into the user's file and line.
"""

from __future__ import annotations

import linecache
import os
import re

from ..errors import CuvilTypeError

_LOCATION = re.compile(r'File "([^"]+)", line (\d+)')
_ECHO = re.compile(r"# L\d+\b|<source elided>")  # Numba echoing the generated source
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_NOISE = (
    "Failed in ",
    "During: ",
    "File ",
    "<source ",
    "This error may have been caused",
    "Rewrite ",
    "Use of unsupported NumPy function",
)

# Generated module file name → its line map (index 0 is line 1). By name: Numba prints paths relative to the
# working directory, and every generated module's name is unique (it holds the cache key).
line_maps: dict[str, list[tuple[str, int] | None]] = {}


def _summary(message: str) -> str:
    """What is wrong, in one or two of Numba's lines, without its pipeline context and source echo."""
    lines = [ln.strip() for ln in message.splitlines()]
    useful = [
        ln for ln in lines
        if ln and not ln.startswith(_NOISE) and not _ECHO.search(ln) and set(ln) - {"^", " "}
    ]
    if not useful:
        return "Numba could not compile this function"
    detail = [ln for ln in useful[1:] if ln.startswith("With argument(s)")]
    return "\n".join([useful[0], *detail[:1]])


def user_error(exc: Exception) -> CuvilTypeError:
    message = _ANSI.sub("", str(exc))
    filename = lineno = None
    for path, line in _LOCATION.findall(message):
        mapping = line_maps.get(os.path.basename(path))
        index = int(line) - 1
        if mapping is None:
            continue
        while index >= 0 and mapping[index] is None:  # `else:` and decorator lines carry no origin
            index -= 1
        if index >= 0:  # Numba names the innermost location first
            filename, lineno = mapping[index]  # type: ignore[misc]
            break
    text = linecache.getline(filename, lineno) if filename and lineno else None
    error = CuvilTypeError(_summary(message), filename, lineno, text)
    error.numba_message = message  # type: ignore[attr-defined]
    return error
