"""Each call of a check's helper gets the user's line: `index(i, n, 0)  # L7` → `index(i, n, 0, at=7)`.

Numba places a raised exception at the `raise` statement it came from, and for a check that is a line of the
helper (runtime/checks.py, pyint.py, pymath.py), not the user's. The helper's cold branch raises its error with
this line as a trailing argument, and the dispatcher raises it again at that line of the user's file
(runtime/where.py): a constant argument of an inlined call, nothing on the hot path. CPU target only (CUDA
kernels record error codes with their lines instead, codegen/cuda_checks.py), run after the last pass that
emits a helper call; a call that has its `at` already keeps it (idempotent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import libcst as cst

from ..cfg.effects import Global
from ..library.numpy import LOCATED
from ..normalize.origins import Compound, origin_of


class Located(cst.CSTTransformer):
    def __init__(self, globals: Mapping[str, Global]):
        super().__init__()
        self.helpers = frozenset(n for n, g in globals.items() if g.qualname in LOCATED)
        self.lines: list[int | None] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.SimpleStatementLine | Compound):
            self.lines.append(origin_of(node) or (self.lines[-1] if self.lines else None))
        return super().on_visit(node)

    def on_leave(self, original: cst.CSTNodeT, updated: cst.CSTNodeT) -> Any:
        left = super().on_leave(original, updated)
        if isinstance(original, cst.SimpleStatementLine | Compound):
            self.lines.pop()
        return left

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        line = self.lines[-1] if self.lines else None
        if line is None or not isinstance(updated.func, cst.Name) or updated.func.value not in self.helpers \
                or any(a.keyword is not None and a.keyword.value == "at" for a in updated.args):
            return updated
        at = cst.Arg(cst.Integer(str(line)), keyword=cst.Name("at"), equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))
        return updated.with_changes(args=[*updated.args, at])
