"""Find the source text of a user function: in a file, a Jupyter/IPython cell, or exec'd code in linecache.

Line numbers stay the file's (or the cell's), never the snippet's, so every later error can point at the line
the user sees. This module does not import libcst: the disk-cache key is computed from this raw text.
"""

from __future__ import annotations

import dataclasses
import inspect
import linecache
import textwrap
import types

from ..errors import CuvilError, CuvilSyntaxError


@dataclasses.dataclass(frozen=True)
class Source:
    """The dedented source of one function and where it came from."""

    name: str
    filename: str
    first_line: int  # line of `text`'s first line in `filename` (1-based)
    indent: int  # columns removed by dedenting
    text: str

    def line(self, lineno: int) -> str:
        """The user's source line `lineno` (of `filename`), as the user wrote it."""
        return linecache.getline(self.filename, lineno)


def get_source(fn: types.FunctionType) -> Source:
    if not isinstance(fn, types.FunctionType):
        raise CuvilError(f"cuvil.jit needs a Python function, not {type(fn).__name__}")
    code = fn.__code__
    if fn.__name__ == "<lambda>":
        text = linecache.getline(code.co_filename, code.co_firstlineno)
        raise CuvilSyntaxError(
            "a lambda cannot be compiled",
            code.co_filename,
            code.co_firstlineno,
            max(text.find("lambda"), 0) + 1,
            text,
            hint="define it with def at module level",
        )
    try:
        lines, first_line = inspect.getsourcelines(fn)
    except (OSError, TypeError) as exc:
        raise CuvilError(
            f"cannot find the source of {fn.__qualname__} (defined in {code.co_filename}); Cuvil compiles "
            "functions defined in files or notebook cells; for exec'd code, register the text with "
            "linecache.cache[filename] before exec"
        ) from exc
    raw = "".join(lines)
    text = textwrap.dedent(raw)
    indent = len(lines[0]) - len(text.splitlines(keepends=True)[0])
    return Source(fn.__name__, code.co_filename, max(first_line, 1), indent, text)
