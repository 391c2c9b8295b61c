"""Numba's errors, told in the user's terms: the message that matters, at the user's line.

Numba reports a typing failure against the generated module ("File …/_cuvil_f_ab12.py, line 9") wrapped in
pages of pipeline context. The generated module's line map (built from the "# L<n>" origin comments) turns
that location back into the user's file and line.
"""

from __future__ import annotations

import linecache
import re

from ..errors import CuvilTypeError

_LOCATION = re.compile(r'File "([^"]+)", line (\d+)')
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

# Generated module file → its line map (index 0 is line 1).
line_maps: dict[str, list[tuple[str, int] | None]] = {}


def _summary(message: str) -> str:
    """The few lines of a Numba message that say what is wrong, without Numba's pipeline context."""
    kept: list[str] = []
    for raw in message.splitlines():
        line = raw.strip()
        if not line or line.startswith(_NOISE) or line.startswith(">") or set(line) <= {"^", " "}:
            continue
        if re.match(r"^\d+\s*\|", line):  # Numba's echo of source lines
            continue
        kept.append(line)
        if len(kept) == 6:
            break
    return "\n".join(kept) or "Numba could not compile this function"


def user_error(exc: Exception) -> CuvilTypeError:
    message = _ANSI.sub("", str(exc))
    filename = lineno = None
    for path, line in _LOCATION.findall(message):
        mapping = line_maps.get(path)
        index = int(line) - 1
        if mapping is None:
            continue
        while index >= 0 and mapping[index] is None:  # `else:` and decorator lines carry no origin
            index -= 1
        if index >= 0:
            filename, lineno = mapping[index]  # type: ignore[misc]
    text = linecache.getline(filename, lineno) if filename and lineno else None
    error = CuvilTypeError(_summary(message), filename, lineno, text)
    error.numba_message = message  # type: ignore[attr-defined]
    return error
