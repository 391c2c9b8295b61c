"""Parse one function's source with libcst and map positions back to the user's file."""

from __future__ import annotations

import dataclasses

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from ..errors import CuvilSyntaxError
from .source import Source


@dataclasses.dataclass(frozen=True)
class Parsed:
    """The parsed snippet, untouched, so that libcst positions are the snippet's lines."""

    module: cst.Module
    source: Source

    @property
    def function(self) -> cst.FunctionDef:
        return next(s for s in self.module.body if isinstance(s, cst.FunctionDef))


def parse(source: Source) -> Parsed:
    try:
        module = cst.parse_module(source.text)
    except cst.ParserSyntaxError as exc:
        lineno = source.first_line + exc.raw_line - 1
        raise CuvilSyntaxError(
            exc.message, source.filename, lineno, exc.raw_column + source.indent + 1, source.line(lineno)
        ) from None
    defs = [s for s in module.body if isinstance(s, cst.FunctionDef)]
    if len(defs) != 1:
        raise CuvilSyntaxError(
            "expected the source of exactly one function",
            source.filename,
            source.first_line,
            1,
            source.line(source.first_line),
        )
    return Parsed(module, source)


def user_position(source: Source, rng: CodeRange) -> tuple[int, int]:
    """(line, 1-based column) in the user's file of a libcst position in the snippet."""
    line = source.first_line + rng.start.line - 1
    return line, rng.start.column + source.indent + 1


def syntax_error(source: Source, rng: CodeRange, message: str, hint: str = "") -> CuvilSyntaxError:
    line, col = user_position(source, rng)
    return CuvilSyntaxError(message, source.filename, line, col, source.line(line), hint)


class Checker(cst.CSTVisitor):
    """A check of the parsed function that refuses at the place of the node it names."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, parsed: Parsed):
        super().__init__()
        self.parsed = parsed

    def fail(self, node: cst.CSTNode, message: str, hint: str) -> None:
        rng = self.get_metadata(PositionProvider, node)
        assert isinstance(rng, CodeRange)
        raise syntax_error(self.parsed.source, rng, message, hint)

    def check(self) -> None:
        MetadataWrapper(self.parsed.module, unsafe_skip_copy=True).visit(self)
