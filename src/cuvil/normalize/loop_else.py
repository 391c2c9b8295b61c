"""`else` on a loop → a flag set at each of the loop's own `break`s.

    for i in range(n):                 _broke0 = False  # L3
        if a[i] == v:                  for i in range(n):  # L3
            break              →           if a[i] == v:  # L4
    else:                                      _broke0 = True  # L5
        i = -1                                 break  # L5
                                       if not _broke0:  # L3
                                           i = -1  # L7

A loop without a `break` of its own runs its `else` always: the block just follows the loop. A `break` in a
nested loop leaves that loop only, so it sets nothing.
"""

from __future__ import annotations

import libcst as cst

from .names import Fresh, all_names
from .origins import origin_of, with_origin

Stmts = list[cst.BaseStatement]


def _block(suite: cst.BaseSuite) -> Stmts:
    """The statements of a block (CanonicalBlocks made every block an indented one)."""
    return list(cst.ensure_type(suite, cst.IndentedBlock).body)


def _is_break(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Break)


def _own_breaks(stmts: Stmts, flag: str) -> tuple[Stmts, bool]:
    """`stmts` with each `break` of the loop they are the body of preceded by `flag = True`."""
    out: Stmts = []
    found = False
    for stmt in stmts:
        if _is_break(stmt):
            found = True
            out.append(with_origin(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(flag))],
                                                                       cst.Name("True"))]), origin_of(stmt)))
        elif isinstance(stmt, cst.If):
            stmt, in_if = _in_if(stmt, flag)
            found = found or in_if
        out.append(stmt)
    return out, found


def _in_if(stmt: cst.If, flag: str) -> tuple[cst.If, bool]:
    body, found = _own_breaks(_block(stmt.body), flag)
    stmt = stmt.with_changes(body=stmt.body.with_changes(body=body))
    if isinstance(stmt.orelse, cst.Else):
        orelse, other = _own_breaks(_block(stmt.orelse.body), flag)
        stmt = stmt.with_changes(orelse=stmt.orelse.with_changes(body=stmt.orelse.body.with_changes(body=orelse)))
        found = found or other
    elif isinstance(stmt.orelse, cst.If):  # an `elif` (ElifChain runs after this pass)
        orelse_if, other = _in_if(stmt.orelse, flag)
        stmt = stmt.with_changes(orelse=orelse_if)
        found = found or other
    return stmt, found


class LoopElse(cst.CSTTransformer):
    def __init__(self) -> None:
        super().__init__()
        self.fresh = Fresh(set())

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.fresh = Fresh(all_names(node))

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.BaseStatement | cst.FlattenSentinel:
        return self.flagged(updated)

    def leave_While(self, original: cst.While, updated: cst.While) -> cst.BaseStatement | cst.FlattenSentinel:
        return self.flagged(updated)

    def flagged(self, loop: cst.For | cst.While) -> cst.BaseStatement | cst.FlattenSentinel:
        if loop.orelse is None:
            return loop
        line = origin_of(loop)
        orelse = _block(loop.orelse.body)
        flag = self.fresh("_broke")
        body, breaks = _own_breaks(_block(loop.body), flag)
        plain = loop.with_changes(orelse=None)
        if not breaks:
            return cst.FlattenSentinel([plain, *orelse])
        start = with_origin(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(flag))],
                                                                cst.Name("False"))]), line)
        test = cst.UnaryOperation(cst.Not(), cst.Name(flag))
        after = with_origin(cst.If(test, cst.IndentedBlock(orelse)), line)
        return cst.FlattenSentinel([start, plain.with_changes(body=loop.body.with_changes(body=body)), after])
