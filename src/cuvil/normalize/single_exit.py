"""Early returns → one `return` at the end of the function.

    def f(a, n):                          def f(a, n):
        if n < 1:                             _ret = False
            return 0                          _rv = None
        for i in range(n):                    if n < 1:
            if a[i] < 0:            →             _rv = 0
                return i                      else:
        return n                                  for i in range(n):
                                                      if a[i] < 0:
                                                          _rv = i
                                                          _ret = True
                                                          break
                                                  if not _ret:
                                                      _rv = n
                                              return _rv

Two steps, each a plain recursion over statement lists. `_complete` moves the statements after a guard clause
(`if c: ...; return x`) into its `else`, which needs no flag. `_exits` turns each return into an assignment of
`_rv`; a return that is not in tail position also sets `_ret` (and leaves its loop with `break`), and whatever
follows it runs under `if not _ret`. A function that can fall off its end returns None there, explicitly.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from ..frontend.walk import walk
from .names import Fresh, all_names
from .origins import origin_of, with_origin

Stmts = list[cst.BaseStatement]


def _return(stmt: cst.BaseStatement) -> cst.Return | None:
    if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Return):
        return stmt.body[0]
    return None


def _count_returns(node: cst.CSTNode) -> int:
    count = 0

    class Count(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            nonlocal count
            count += 1

    walk(node, Count())
    return count


def _body(block: cst.BaseSuite | cst.Else | cst.If | None) -> Stmts:
    if block is None:
        return []
    if isinstance(block, cst.If):  # an `elif`: ElifChain normally runs first, but this pass stands alone
        return [block]
    if isinstance(block, cst.Else):
        block = block.body
    assert isinstance(block, cst.IndentedBlock), "CanonicalBlocks runs first"
    return list(block.body)


def _always(stmts: Sequence[cst.BaseStatement]) -> bool:
    """Every path through `stmts` ends in a return (loops are never assumed to)."""
    if not stmts:
        return False
    last = stmts[-1]
    if _return(last):
        return True
    return isinstance(last, cst.If) and _always(_body(last.body)) and _always(_body(last.orelse))


def _with_blocks(stmt: cst.If, body: Stmts, orelse: Stmts) -> cst.If:
    new_else = None
    if orelse:
        old = stmt.orelse if isinstance(stmt.orelse, cst.Else) else cst.Else(body=cst.IndentedBlock(body=[]))
        new_else = old.with_changes(body=old.body.with_changes(body=orelse))
    return stmt.with_changes(body=stmt.body.with_changes(body=body), orelse=new_else)


def _line(small: cst.BaseSmallStatement, line: int | None) -> cst.SimpleStatementLine:
    return with_origin(cst.SimpleStatementLine([small]), line)


def _assign(name: str, value: cst.BaseExpression, line: int | None) -> cst.SimpleStatementLine:
    return _line(cst.Assign(targets=[cst.AssignTarget(cst.Name(name))], value=value), line)


def _if(test: cst.BaseExpression, body: Stmts, line: int | None) -> cst.If:
    return with_origin(cst.If(test=test, body=cst.IndentedBlock(body=body)), line)


def _complete(stmts: Stmts) -> Stmts:
    """Outside loops: the code after a guard clause moves into the guard's other branch; dead code goes."""
    out: Stmts = []
    for k, stmt in enumerate(stmts):
        if isinstance(stmt, cst.If):
            body, orelse, rest = _body(stmt.body), _body(stmt.orelse), stmts[k + 1:]
            if rest and _always(body) and not any(_count_returns(s) for s in orelse):
                return [*out, _with_blocks(stmt, _complete(body), _complete(orelse + rest))]
            if rest and _always(orelse) and not any(_count_returns(s) for s in body):
                return [*out, _with_blocks(stmt, _complete(body + rest), _complete(orelse))]
            stmt = _with_blocks(stmt, _complete(body), _complete(orelse))
        out.append(stmt)
        if _return(stmt):
            break
    return out


class SingleExit(cst.CSTTransformer):
    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        stmts = _body(updated.body)
        returns = _count_returns(updated.body)
        if returns == 0 or (returns == 1 and _return(stmts[-1])):
            return updated
        fresh = Fresh(all_names(updated))
        self.rv, self.flag = fresh("_rv", numbered=False), fresh("_ret", numbered=False)
        self.flag_used = False
        line = origin_of(updated)
        if not _always(stmts):
            stmts = [*stmts, _line(cst.Return(cst.Name("None")), line)]
        body, _ = self._exits(_complete(stmts), in_loop=False, tail=True)
        if self.flag_used:
            # `_rv = None` first: Numba prunes branches it can decide (`while w != 0` with w = 0) and would
            # otherwise see `_rv` undefined on the pruned path ("Unsupported assignment: Undefined").
            body = [_assign(self.flag, cst.Name("False"), line), _assign(self.rv, cst.Name("None"), line), *body]
        body.append(_line(cst.Return(cst.Name(self.rv)), line))
        return updated.with_changes(body=updated.body.with_changes(body=body))

    def _exits(self, stmts: Stmts, in_loop: bool, tail: bool) -> tuple[Stmts, bool]:
        """Returns → `_rv` assignments. Also says whether any of them set the flag."""
        out: Stmts = []
        flagged = False
        for k, stmt in enumerate(stmts):
            last = k == len(stmts) - 1
            ret = _return(stmt)
            if ret is not None:
                line = origin_of(stmt)
                out.append(_assign(self.rv, ret.value or cst.Name("None"), line))
                if tail and last:
                    return out, flagged
                self.flag_used = True
                out.append(_assign(self.flag, cst.Name("True"), line))
                if in_loop:
                    out.append(_line(cst.Break(), line))
                return out, True  # what follows a return is dead
            inner = False
            if isinstance(stmt, cst.If):
                body, b = self._exits(_body(stmt.body), in_loop, tail and last)
                orelse, e = self._exits(_body(stmt.orelse), in_loop, tail and last)
                stmt, inner = _with_blocks(stmt, body, orelse), b or e
            elif isinstance(stmt, cst.For | cst.While):
                body, inner = self._exits(_body(stmt.body), True, False)
                stmt = stmt.with_changes(body=stmt.body.with_changes(body=body))
            out.append(stmt)
            flagged = flagged or inner
            if not inner:
                continue
            if in_loop and not isinstance(stmt, cst.If):
                # A return inside a nested loop left only that loop; leave this one too, even when the loop
                # was this block's last statement: the enclosing loop would otherwise run on.
                line = origin_of(stmt)
                out.append(_if(cst.Name(self.flag), [_line(cst.Break(), line)], line))
            elif not in_loop and not last:
                line = origin_of(stmts[k + 1])
                rest, _ = self._exits(stmts[k + 1:], in_loop, tail)
                not_returned = cst.UnaryOperation(cst.Not(), cst.Name(self.flag))
                out.append(_if(not_returned, rest, line))
                return out, True
        return out, flagged
