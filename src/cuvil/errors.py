"""Every error and warning a user can see from Cuvil.

User errors point at the user's own source (file, line, column), never at generated code or at Numba's
internals; internal failures are wrapped in `CuvilInternalError`, which names the stage that failed.
"""

from __future__ import annotations

from numpy.exceptions import AxisError


class CuvilError(Exception):
    """Base of every error Cuvil raises on purpose."""


class CuvilSyntaxError(CuvilError, SyntaxError):
    """The function uses something outside the supported subset.

    Carries the standard `SyntaxError` fields of the *user's* file: `filename`, `lineno`, `offset`
    (1-based column, as in `SyntaxError`) and `text` (the source line), so IDEs and tracebacks show the
    right place. `hint` says what to write instead.
    """

    def __init__(self, message: str, filename: str, lineno: int, offset: int, text: str, hint: str = ""):
        # Python's traceback shows a SyntaxError's `msg` alone (not str()): the hint is part of it.
        SyntaxError.__init__(self, f"{message}; {hint}" if hint else message, (filename, lineno, offset, text))
        self.reason, self.hint = message, hint

    def __str__(self) -> str:
        where = f"{self.filename}:{self.lineno}:{self.offset}"
        return f"{where}: {self.msg}" + _caret(self.text, self.offset)


class CuvilTypeError(CuvilError, TypeError):
    """A value or an operation the compiled code cannot type: names the argument or the user's line."""

    def __init__(
        self,
        message: str,
        filename: str | None = None,
        lineno: int | None = None,
        text: str | None = None,
        argument: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.filename = filename
        self.lineno = lineno
        self.text = text
        self.argument = argument

    def __str__(self) -> str:
        if self.filename is None or self.lineno is None:
            return self.message
        line = f"\n    {self.text.strip()}" if self.text else ""
        return f"{self.filename}:{self.lineno}: {self.message}{line}"


class CuvilNameError(CuvilTypeError, NameError):
    """A name that neither the function nor its module defines: found when compiling, at the user's line. A
    NameError too, as Python raises when the line runs."""


class CuvilAttributeError(CuvilTypeError, AttributeError):
    """A misspelt method or module attribute (`a.summ()`, `np.sume`): found when compiling, at the user's line,
    with the nearest name. An AttributeError too, as Python raises when the line runs."""


class CuvilAxisError(CuvilTypeError, AxisError):
    """A literal axis the array does not have (`a.sum(axis=2)` of a 2-D array), in a statement that runs on every
    path: found when compiling, at the user's line. NumPy's AxisError too (a ValueError and an IndexError)."""


class CuvilValueError(CuvilTypeError, ValueError):
    """A value Python or NumPy refuses with ValueError (`max(a, 0)` of an array, `a[0] = 'x'`), found when
    compiling, at the user's line."""


class CuvilShapeError(CuvilValueError):
    """Shapes that certainly disagree (broadcasting 3 against 4) in a statement that runs on every path: found
    when compiling, at the user's line. A ValueError too, as NumPy raises for them."""


class CuvilIndexError(CuvilTypeError, IndexError):
    """An array indexed with more indices than it has dims, in a statement that runs on every path: found when
    compiling, at the user's line. An IndexError too, as NumPy raises for it."""


class CuvilReadOnlyError(CuvilTypeError, ValueError):
    """A line that writes an array passed read-only (`a.flags.writeable` False): found when compiling the variant
    for that argument, at the user's line. A ValueError too, as NumPy raises when the write runs."""


class CuvilInternalError(CuvilError, RuntimeError):
    """A bug in Cuvil. Names the stage that failed; the original exception is chained."""

    def __init__(self, stage: str, detail: str):
        super().__init__(
            f"internal error during {stage}: {detail}\n"
            "This is a bug in Cuvil; please report it with the function that triggered it."
        )
        self.stage = stage


class CuvilWarning(UserWarning):
    """Base of every warning Cuvil emits."""


class PrecisionWarning(CuvilWarning):
    """An implicit conversion between floating-point precisions."""


class PerformanceWarning(CuvilWarning):
    """Code that runs correctly but much slower than it could (e.g. a serial kernel on the GPU)."""


class RecompileWarning(CuvilWarning):
    """A function was recompiled more often than the configured limit allows."""


class CacheWarning(CuvilWarning):
    """The disk cache could not be used (unwritable, corrupt); Cuvil carried on without it."""


def _caret(text: str | None, offset: int | None) -> str:
    if not text or not offset:
        return ""
    line = text.rstrip("\n")
    stripped = line.lstrip()
    indent = len(line) - len(stripped)
    pad = max(offset - 1 - indent, 0)
    return f"\n    {stripped}\n    {' ' * pad}^"
