"""A Plan as one plain function, every loop as written: what a callee is as a CUDA device function (it
launches nothing), and what codegen/launch.py reads to find the names a launcher binds."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from ..lower.plan import Alloc, Control, ParallelNest, Plan, Region, Serial
from .cuda import Context, DeviceCode, Stmts


def statements(region: Region) -> Sequence[cst.BaseStatement]:
    if isinstance(region, Alloc):
        return [region.statement]
    if isinstance(region, ParallelNest):
        return [region.loop]
    if isinstance(region, Serial):
        return region.statements
    head = region.statement
    if isinstance(head, cst.If):
        return [cst.SimpleStatementLine([cst.Expr(head.test)])]
    if isinstance(head, cst.While):
        return [cst.SimpleStatementLine([cst.Expr(head.test)])]
    return [cst.SimpleStatementLine([cst.Expr(head.iter)])]


def flatten(plan: Plan) -> cst.FunctionDef:
    """The function a Plan describes, every loop as written (the lowered function, same nodes)."""

    def flat(block: Sequence[Region]) -> Stmts:
        out: Stmts = []
        for r in block:
            if isinstance(r, Control):
                stmt = r.statement
                body = stmt.body.with_changes(body=flat(r.body) or [cst.SimpleStatementLine([cst.Pass()])])
                if isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else):
                    out.append(stmt.with_changes(body=body, orelse=stmt.orelse.with_changes(
                        body=stmt.orelse.body.with_changes(body=flat(r.orelse)))))
                else:
                    out.append(stmt.with_changes(body=body))
            else:
                out += statements(r)
        return out

    return plan.function.with_changes(body=plan.function.body.with_changes(body=flat(plan.regions)))


def device_function(plan: Plan, ctx: Context) -> cst.FunctionDef:
    """A callee as a device function: its loops as written (a device function launches nothing)."""
    fn = flatten(plan)
    out = fn.visit(DeviceCode(ctx, None, cst.Integer("0"), can_return=False))
    assert isinstance(out, cst.FunctionDef)
    return out
