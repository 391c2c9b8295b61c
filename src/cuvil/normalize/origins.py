"""The "# L<n>" origin comment every emitted statement carries: the source map that survives every rewrite."""

from __future__ import annotations

import re

import libcst as cst
from libcst.metadata import PositionProvider

ORIGIN = re.compile(r"# L(\d+)\b")

Compound = cst.If | cst.For | cst.While | cst.FunctionDef | cst.Else


def origin_of(stmt: cst.CSTNode) -> int | None:
    """The user's line a statement came from, read off its origin comment."""
    comment = _comment(stmt)
    match = ORIGIN.match(comment.value) if comment is not None else None
    return int(match.group(1)) if match else None


def with_origin(stmt: cst.CSTNodeT, line: int | None) -> cst.CSTNodeT:
    """`stmt` with its origin comment set to `line` (a no-op for None)."""
    if line is None:
        return stmt
    comment = cst.Comment(f"# L{line}")
    if isinstance(stmt, cst.SimpleStatementLine):
        ws = stmt.trailing_whitespace.with_changes(comment=comment, whitespace=cst.SimpleWhitespace("  "))
        return stmt.with_changes(trailing_whitespace=ws)
    if isinstance(stmt, Compound) and isinstance(stmt.body, cst.IndentedBlock):
        header = stmt.body.header.with_changes(comment=comment, whitespace=cst.SimpleWhitespace("  "))
        return stmt.with_changes(body=stmt.body.with_changes(header=header))  # type: ignore[return-value]
    if isinstance(stmt, Compound) and isinstance(stmt.body, cst.SimpleStatementSuite):
        ws = stmt.body.trailing_whitespace.with_changes(comment=comment, whitespace=cst.SimpleWhitespace("  "))
        return stmt.with_changes(body=stmt.body.with_changes(trailing_whitespace=ws))  # type: ignore[return-value]
    return stmt


def _comment(stmt: cst.CSTNode) -> cst.Comment | None:
    if isinstance(stmt, cst.SimpleStatementLine):
        return stmt.trailing_whitespace.comment
    if isinstance(stmt, Compound):
        body = stmt.body
        if isinstance(body, cst.IndentedBlock):
            return body.header.comment
        if isinstance(body, cst.SimpleStatementSuite):
            return body.trailing_whitespace.comment
    return None


class AddOrigins(cst.CSTTransformer):
    """Stamp every statement with the user's line; a statement that has an origin keeps it (idempotent).

    The user's own trailing comments give way to the origin comment; comment lines of their own are kept.
    """

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, line_offset: int):
        super().__init__()
        self.line_offset = line_offset

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        if isinstance(updated, cst.SimpleStatementLine | Compound) and origin_of(updated) is None:
            start = self.get_metadata(PositionProvider, original).start.line
            return with_origin(updated, start + self.line_offset)
        return updated
