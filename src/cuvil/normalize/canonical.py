"""One statement per line, every block indented, no annotations or decorators: the shape later passes assume.

    if x: a = 1; return a        →    if x:  # L3
                                          a = 1  # L3
                                          return a  # L3
"""

from __future__ import annotations

import libcst as cst

from .origins import origin_of, with_origin


class CanonicalBlocks(cst.CSTTransformer):
    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # inside a function: its imports go

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.depth += 1

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.depth -= 1
        # Decorators name cuvil itself and annotations may name typing helpers; neither is compiled.
        params = updated.params.with_changes(
            params=[p.with_changes(annotation=None) for p in updated.params.params]
        )
        return updated.with_changes(decorators=(), returns=None, params=params, leading_lines=())

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        line = origin_of(updated)
        lines = [_line(s, line) for s in updated.body]
        if len(lines) == 1:
            return lines[0].with_changes(leading_lines=updated.leading_lines)
        lines[0] = lines[0].with_changes(leading_lines=updated.leading_lines)
        return cst.FlattenSentinel(lines)

    def leave_SimpleStatementSuite(
        self, original: cst.SimpleStatementSuite, updated: cst.SimpleStatementSuite
    ) -> cst.BaseSuite:
        comment = updated.trailing_whitespace.comment
        line = origin_of(cst.SimpleStatementLine(body=(), trailing_whitespace=updated.trailing_whitespace))
        header = cst.TrailingWhitespace(whitespace=cst.SimpleWhitespace("  " if comment else ""), comment=comment)
        return cst.IndentedBlock(body=[_line(s, line) for s in updated.body], header=header)

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.BaseSmallStatement:
        return cst.Pass() if self.depth else updated  # binds what the module already binds (frontend/imports.py)

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.BaseSmallStatement:
        return cst.Pass() if self.depth else updated

    def leave_AnnAssign(
        self, original: cst.AnnAssign, updated: cst.AnnAssign
    ) -> cst.BaseSmallStatement:
        if updated.value is None:
            return cst.Pass()
        value = updated.value
        kind = updated.annotation.annotation
        name = kind.attr.value if isinstance(kind, cst.Attribute) else kind.value if isinstance(kind, cst.Name) \
            else None
        if name in _PRECISIONS:  # `acc: cuvil.fp32 = 0.0` keeps acc in fp32: the cast types it (issue 12)
            value = cst.Call(kind, [cst.Arg(value)])
        return cst.Assign(targets=[cst.AssignTarget(updated.target)], value=value)


_PRECISIONS = frozenset({"fp16", "bf16", "fp32"})  # cuvil.precision's casts, as annotations


def _line(small: cst.BaseSmallStatement, line: int | None) -> cst.SimpleStatementLine:
    small = small.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
    return with_origin(cst.SimpleStatementLine(body=[small]), line)
