"""Reads that only *some* paths reach unassigned get Python's runtime check.

    for i in range(len(a)):               _bound_i = False
        if a[i] == x:                     for i in range(len(a)):
            break                   →         _bound_i = True
    return i                                  if a[i] == x:
                                                  break
                                          if not _bound_i:
                                              raise UnboundLocalError("cannot access local variable 'i' …")
                                          return i

Numba reads such a variable as garbage (a zero-trip loop would return 0 here); Python raises. Nothing in the
subset unbinds a variable (`del` is rejected), so one flag per variable, set after each binding, tells.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from ..normalize.names import Fresh, all_names
from ..normalize.origins import origin_of, with_origin
from .dataflow import UnassignedRead
from .uses import binds


def _line(small: cst.BaseSmallStatement, line: int | None) -> cst.SimpleStatementLine:
    return with_origin(cst.SimpleStatementLine([small]), line)


def _set(flag: str, value: str, line: int | None) -> cst.SimpleStatementLine:
    return _line(cst.Assign([cst.AssignTarget(cst.Name(flag))], cst.Name(value)), line)


class UnboundChecks(cst.CSTTransformer):
    def __init__(self, reads: list[UnassignedRead]):
        super().__init__()
        self.checks: dict[cst.BaseStatement, list[str]] = {}
        for read in reads:
            names = self.checks.setdefault(read.stmt, [])
            if read.name.value not in names:
                names.append(read.name.value)
        self.names = sorted({r.name.value for r in reads})
        self.flags: dict[str, str] = {}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        fresh = Fresh(all_names(node))
        self.flags = {name: fresh(f"_bound_{name}", numbered=False) for name in self.names}

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        line = origin_of(original)
        inits = [_set(self.flags[n], "False", line) for n in self.names]
        body = updated.body.with_changes(body=[*inits, *updated.body.body])
        return updated.with_changes(body=body)

    def _checked(
        self, original: cst.BaseStatement, updated: cst.BaseStatement, after: Sequence[cst.BaseStatement]
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        line = origin_of(original)
        before: list[cst.BaseStatement] = []
        for name in self.checks.get(original, []):
            message = cst.SimpleString(repr(f"cannot access local variable '{name}' where it is not associated "
                                            "with a value"))
            error = cst.Call(cst.Name("UnboundLocalError"), [cst.Arg(message)])
            test = cst.UnaryOperation(cst.Not(), cst.Name(self.flags[name]))
            body = cst.IndentedBlock([_line(cst.Raise(exc=error), line)])
            before.append(with_origin(cst.If(test=test, body=body), line))
        if not before and not after:
            return updated
        return cst.FlattenSentinel([*before, updated, *after])

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        line = origin_of(original)
        after = [_set(self.flags[n], "True", line) for n in self.names if n in binds(original)]
        return self._checked(original, updated, after)

    def leave_If(self, original: cst.If, updated: cst.If) -> cst.BaseStatement | cst.FlattenSentinel:
        return self._checked(original, updated, [])

    def leave_While(self, original: cst.While, updated: cst.While) -> cst.BaseStatement | cst.FlattenSentinel:
        return self._checked(original, updated, [])

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.BaseStatement | cst.FlattenSentinel:
        bound = [n for n in self.names if isinstance(original.target, cst.Name) and original.target.value == n]
        if bound:
            sets = [_set(self.flags[n], "True", origin_of(original)) for n in bound]
            body = updated.body.with_changes(body=[*sets, *updated.body.body])
            updated = updated.with_changes(body=body)
        return self._checked(original, updated, [])
