"""A lambda assigned to a name and only called → its body at each call, the arguments in place of its parameters.

    sq = lambda v: v * v                 (gone)
    return sq(y) + sq(y + 1.0)     →     return (y * y) + ((y + 1.0) * (y + 1.0))

frontend/subset.py admits only what this keeps exact: the assignment stands in the function's own body, the name
is bound nowhere else and every later use calls it with its parameters' number of positional arguments; an
argument that is more than a name or a literal goes to a parameter its body reads once. The body is read at the
call, so free names have their values at that moment, as Python's late binding gives.
"""

from __future__ import annotations

import libcst as cst

from ..frontend.subset import lambda_assignment

Stmts = list[cst.BaseStatement]


class _Substitute(cst.CSTTransformer):
    def __init__(self, values: dict[str, cst.BaseExpression]):
        super().__init__()
        self.values = values

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        value = self.values.get(updated.value)
        return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]) if value is not None else updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)


class _Calls(cst.CSTTransformer):
    def __init__(self, lambdas: dict[str, cst.Lambda]):
        super().__init__()
        self.lambdas = lambdas

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        fn = self.lambdas.get(updated.func.value) if isinstance(updated.func, cst.Name) else None
        if fn is None:
            return updated
        names = [p.name.value for p in fn.params.params]
        body = fn.body.visit(_Substitute({n: a.value for n, a in zip(names, updated.args)}))
        assert isinstance(body, cst.BaseExpression)
        return body.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


class InlineLambdas(cst.CSTTransformer):
    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        body = cst.ensure_type(updated.body, cst.IndentedBlock)
        lambdas: dict[str, cst.Lambda] = {}
        kept: Stmts = []
        for stmt in body.body:
            found = lambda_assignment(stmt)
            if found is not None:
                lambdas[found[0]] = found[1].with_changes(body=found[1].body.visit(_Calls(lambdas)))
                continue
            inlined = stmt.visit(_Calls(lambdas)) if lambdas else stmt
            assert isinstance(inlined, cst.BaseStatement)
            kept.append(inlined)
        if not lambdas:
            return updated
        return updated.with_changes(body=body.with_changes(body=kept or [cst.SimpleStatementLine([cst.Pass()])]))
