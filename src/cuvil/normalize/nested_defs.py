"""A nested `def` with statements → its body at each call, its names renamed apart (frontend/nested_defs.py
admits only calls that are a statement's whole value).

    def clamp(v, hi):                             (gone)
        if v > hi:
            return hi
        return v
    out[i] = clamp(x[i], 1.0)            →        _clamp0_v = x[i]
                                                  _clamp0_hi = 1.0
                                                  if _clamp0_v > _clamp0_hi:
                                                      _clamp0_rv = _clamp0_hi
                                                  else:
                                                      _clamp0_rv = _clamp0_v
                                                  out[i] = _clamp0_rv

The def is first brought to the canonical form on its own (the passes after this one, so one `return` ends it),
then each call gets a copy whose parameters and locals carry the call's prefix: a local of the def never meets
one of the enclosing function, and two calls never share one. Its statements keep their origin comments (the
def's lines), so an error in the body points at the user's line there; the bindings of the arguments and the
final statement carry the call's line.
"""

from __future__ import annotations

import libcst as cst

from ..frontend.nested_defs import is_nested_def, statement_call
from .names import Fresh, Rename, all_names, assigned_names
from .origins import origin_of, with_origin

Stmts = list[cst.BaseStatement]


def _line(small: cst.BaseSmallStatement, line: int | None) -> cst.SimpleStatementLine:
    return with_origin(cst.SimpleStatementLine([small]), line)


def _canonical(nested: cst.FunctionDef) -> cst.FunctionDef:
    """The def alone through the passes that follow this one: one `return`, at its end."""
    from .pipeline import PASSES, NestedDefs  # the pipeline lists this pass

    module = cst.Module(body=[nested])
    for pass_ in PASSES[PASSES.index(NestedDefs) + 1:]:
        module = module.visit(pass_())
    out = module.body[0]
    assert isinstance(out, cst.FunctionDef)
    return out


class _Inline(cst.CSTTransformer):
    """Replaces each statement whose value is a call of `nested` by the def's body."""

    def __init__(self, nested: cst.FunctionDef, fresh: Fresh):
        super().__init__()
        self.name, self.fresh = nested.name.value, fresh
        body = list(nested.body.body) if isinstance(nested.body, cst.IndentedBlock) else []
        last = body[-1].body[0] if body and isinstance(body[-1], cst.SimpleStatementLine) else None
        returns = isinstance(last, cst.Return)  # otherwise the body has none and falls off its end
        self.params = [p.name.value for p in nested.params.params]
        self.body = body[:-1] if returns else body
        self.result = last.value if isinstance(last, cst.Return) and last.value else cst.Name("None")
        self.locals = sorted({*self.params, *assigned_names(nested)})

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        out: Stmts = []
        for stmt in updated.body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            call = statement_call(small, self.name) if small is not None else None
            out.extend(self._inlined(small, call, origin_of(stmt)) if small and call else [stmt])
        return updated.with_changes(body=out)

    def _inlined(self, small: cst.BaseSmallStatement, call: cst.Call, line: int | None) -> Stmts:
        prefix = self.fresh(f"_{self.name}")
        rename = Rename({n: self.fresh(f"{prefix}_{n.lstrip('_')}", numbered=False) for n in self.locals})
        bound = [_line(cst.Assign([cst.AssignTarget(cst.Name(rename.names[p]))], a.value), line)
                 for p, a in zip(self.params, call.args)]
        body = [s.visit(rename) for s in self.body]
        value = self.result.visit(rename)
        assert isinstance(value, cst.BaseExpression)
        if isinstance(small, cst.Expr):
            last = [] if isinstance(value, cst.Name) else [_line(cst.Expr(value), line)]  # nothing to evaluate
        else:
            last = [_line(small.with_changes(value=value), line)]
        return [*bound, *body, *last]  # type: ignore[list-item]


class NestedDefs(cst.CSTTransformer):
    def __init__(self) -> None:
        super().__init__()
        self.depth = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.depth += 1
        return self.depth == 1  # the enclosing function's; a nested def is rewritten on its own (_canonical)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.depth -= 1
        if self.depth or not isinstance(updated.body, cst.IndentedBlock):
            return updated
        fresh = Fresh(all_names(updated))
        function = updated
        while True:
            body = cst.ensure_type(function.body, cst.IndentedBlock).body
            k = next((i for i, s in enumerate(body) if is_nested_def(s)), None)
            if k is None:
                return function
            nested = cst.ensure_type(body[k], cst.FunctionDef)
            rest = function.with_changes(body=function.body.with_changes(body=[*body[:k], *body[k + 1:]]))
            function = rest.visit(_Inline(_canonical(nested), fresh))  # type: ignore[assignment]
