"""`max(xs, key=lambda v: ...)` and `min(...)` (or `key=abs`) → the loop CPython runs: the first element whose
key is greatest (least), keys compared with `>` (`<`) as CPython compares them, ValueError for nothing to choose
from.

    best = max(range(n), key=lambda i: x[i])      →     _n0 = len(range(0, n, 1))
                                                         if _n0 == 0:
                                                             raise ValueError('max() arg is an empty sequence')
                                                         _v0 = 0                   (_it0[0] for an array _it0)
                                                         _best0 = _v0
                                                         _key0 = x[_v0]
                                                         for _j0 in range(1, _n0):
                                                             _v0 = 0 + _j0 * 1
                                                             _k0 = x[_v0]
                                                             if _k0 > _key0:
                                                                 _key0 = _k0
                                                                 _best0 = _v0
                                                         best = _best0

The element comes by index (a range's by arithmetic: Numba cannot index a range), so the first one sets the
types of the best element and of its key. frontend/subset.py admits the call where it is a statement's whole
value (`y = max(...)`, `return min(...)`) over a `range(...)` or anything indexable (an array, a list).
"""

from __future__ import annotations

import libcst as cst

from ..frontend.keyed import keyed_call
from .names import Fresh, Rename, all_names
from .origins import origin_of, with_origin

Stmts = list[cst.BaseStatement]
try:  # CPython's words, which changed in 3.12 ("max() arg is an empty sequence" before)
    max(())
except ValueError as empty:
    _EMPTY = str(empty).replace("max()", "{}()")


class _Stamp(cst.CSTTransformer):
    def __init__(self, line: int | None):
        super().__init__()
        self.line = line

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine,
                                  updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        return with_origin(updated, self.line)

    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        return with_origin(updated, self.line)

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        return with_origin(updated, self.line)


def _stmt(code: str, line: int | None) -> cst.BaseStatement:
    """`code` parsed, each statement in it stamped with the call's line."""
    stamped = cst.parse_statement(code).visit(_Stamp(line))
    assert isinstance(stamped, cst.BaseStatement)
    return stamped


class KeyedExtremes(cst.CSTTransformer):
    def __init__(self) -> None:
        super().__init__()
        self.fresh: Fresh | None = None

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self.fresh is None:
            self.fresh = Fresh(all_names(node))

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        out: Stmts = []
        for stmt in updated.body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            call = keyed_call(small) if small is not None else None
            out.extend(self._loop(small, call, origin_of(stmt)) if small and call else [stmt])
        return updated.with_changes(body=out)

    def _loop(self, small: cst.BaseSmallStatement, call: cst.Call, line: int | None) -> Stmts:
        assert self.fresh is not None
        fresh, name = self.fresh, call.func.value  # type: ignore[attr-defined]
        iterable = next(a.value for a in call.args if a.keyword is None)
        key = next(a.value for a in call.args if a.keyword is not None and a.keyword.value == "key")
        if not isinstance(key, cst.Lambda):  # `key=abs`: the function called with the element
            key = cst.Lambda(cst.Parameters([cst.Param(cst.Name("_e"))]), cst.Call(key, [cst.Arg(cst.Name("_e"))]))
        n, v, best, kbest, k, j = (fresh(b) for b in ("_n", "_v", "_best", "_key", "_k", "_j"))
        body = key.body.visit(Rename({key.params.params[0].name.value: v}))
        assert isinstance(body, cst.BaseExpression)
        show = cst.Module([]).code_for_node
        test = ">" if name == "max" else "<"
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value == "range":
            bounds = [show(a.value) for a in iterable.args]  # start, stop, step: each evaluated once, in order
            names = [fresh(b) for b in ("_start", "_stop", "_step")[: len(bounds)]] if len(bounds) > 1 else []
            start, step = (names[0], names[2] if len(names) == 3 else "1") if names else ("0", "1")
            stop = names[1] if names else bounds[0]
            head = [_stmt(f"{b} = {value}\n", line) for b, value in zip(names, bounds)]
            if len(names) == 3:  # CPython's words, at the user's line (Numba's range raises with neither)
                head.append(_stmt(f"if {step} == 0:\n    raise ValueError('range() arg 3 must not be zero')\n", line))
            head.append(_stmt(f"{n} = len(range({start}, {stop}, {step}))\n", line))
            first, element = start, f"{start} + {j} * {step}"
        else:
            it = fresh("_it")
            head = [_stmt(f"{it} = {show(iterable)}\n", line), _stmt(f"{n} = len({it})\n", line)]
            first, element = f"{it}[0]", f"{it}[{j}]"
        stmts = [
            *head,
            _stmt(f"if {n} == 0:\n    raise ValueError({_EMPTY.format(name)!r})\n", line),
            _stmt(f"{v} = {first}\n", line),
            _stmt(f"{best} = {v}\n", line),
            _stmt(f"{kbest} = {show(body)}\n", line),
            _stmt(f"for {j} in range(1, {n}):\n    {v} = {element}\n    {k} = {show(body)}\n"
                  f"    if {k} {test} {kbest}:\n        {kbest} = {k}\n        {best} = {v}\n", line),
        ]
        return [*stmts, with_origin(cst.SimpleStatementLine([small.with_changes(value=cst.Name(best))]), line)]
