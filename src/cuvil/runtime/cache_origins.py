"""A cache entry's origins — which user line each generated line came from — stored relative to the functions
compiled, and resolved against the live functions when the entry is loaded.

A line map holds (file, line) per generated line. Stored as is, an entry written by one Jupyter kernel would
point a later kernel's errors at `/tmp/ipykernel_<old pid>/….py`, a file that does not exist there (ipykernel
names a cell's file after its process). So on the disk each origin is `[k, offset]`: the k-th function of
cache_key.functions(fn) (the entry and its callees, in the key's order) and the line's distance from that
function's first line; loading reads the file and first line of the live k-th function. An origin in a file
none of the functions comes from (there is none today) is stored as it is.
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import Any

from .cache_key import functions

Origin = tuple[str, int] | None


def relative(fn: types.FunctionType, line_map: Sequence[Origin]) -> list[Any]:
    """`line_map` as stored: each origin as [function number, line offset] where it can be."""
    anchors: dict[str, tuple[int, int]] = {}
    for k, f in enumerate(functions(fn)):
        anchors.setdefault(f.__code__.co_filename, (k, f.__code__.co_firstlineno))
    stored: list[Any] = []
    for origin in line_map:
        if origin is None or origin[0] not in anchors:
            stored.append(None if origin is None else list(origin))
            continue
        k, first = anchors[origin[0]]
        stored.append([k, origin[1] - first])
    return stored


def resolve(fn: types.FunctionType, stored: Sequence[Any]) -> list[Origin]:
    """The line map of a stored entry for the live `fn`: each relative origin in that function's file.
    Raises ValueError for a stored origin that names no function (a damaged entry)."""
    live = functions(fn)
    result: list[Origin] = []
    for origin in stored:
        if origin is None:
            result.append(None)
            continue
        where, line = origin
        if isinstance(where, int) and not isinstance(where, bool):
            if not 0 <= where < len(live):
                raise ValueError(f"an origin names function #{where} of {len(live)}")
            code = live[where].__code__
            result.append((code.co_filename, code.co_firstlineno + int(line)))
        else:
            result.append((str(where), int(line)))
    return result
