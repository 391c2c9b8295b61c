"""Copies of a prange loop's index that Numba's parfor pass would refuse.

Numba treats a name assigned a plain copy of the loop index in the body's first block (`m = i`) as the index
itself, and refuses the whole loop when that name is assigned again anywhere in the body (`m = j` in an inner
loop: "Overwrite of parallel loop index", numba/parfors/parfor.py `_replace_loop_access_indices`). The refusal
is about names, not values: under Numba's SSA form the later assignment is a new version. A copy written
`m = i + 0` is a value, not an alias of the index, so the loop stays parallel and means the same.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from ..frontend.walk import walk


def _copy(stmt: cst.BaseStatement) -> tuple[str, str] | None:
    """(target, source) of a statement `target = source` between two names, if that is all it does."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return None
    target, value = small.targets[0].target, small.value
    if isinstance(target, cst.Name) and isinstance(value, cst.Name):
        return target.value, value.value
    return None


class _Bindings(cst.CSTVisitor):
    """How many statements bind each name (assignments, updates, loop targets; nested ones too)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def _bind(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.counts[target.value] = self.counts.get(target.value, 0) + 1
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind(element.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._bind(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target)


def distinct_index_copies(body: Sequence[cst.BaseStatement], index: str) -> list[cst.BaseStatement]:
    """`body` with each top-level `m = index` written `m = index + 0` where `m` is bound again in the body; a
    copy of such a copy (`m = i; p = m`) counts as one of the index, as it does for Numba."""
    bindings = _Bindings()
    for stmt in body:
        walk(stmt, bindings)
    counts = bindings.counts
    out: list[cst.BaseStatement] = []
    aliases = {index}
    for stmt in body:
        copy = _copy(stmt)
        if copy is None or copy[1] not in aliases:
            out.append(stmt)
            continue
        if counts.get(copy[0], 0) == 1:
            aliases.add(copy[0])
        else:
            assert isinstance(stmt, cst.SimpleStatementLine)
            small = stmt.body[0]
            assert isinstance(small, cst.Assign)
            value = cst.BinaryOperation(small.value, cst.Add(), cst.Integer("0"))
            stmt = stmt.with_changes(body=[small.with_changes(value=value)])
        out.append(stmt)
    return out
