"""Statements of a CUDA launcher's serial regions that neither the host nor a single thread can run as written,
refused at the user's line (issue 36, class 6).

    x *= 2                  a whole array the lowering left as written: the host's NumPy operator updated a
                            device copy, a kernel thread a local view; the caller's array kept its values
    np.add(x, y, out=o)     the host's NumPy takes no device array as `out` (its raw "return arrays must be
                            of ArrayType")

Each is refused with what runs instead (`x[:] = x * 2`, `o[:] = x + y`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from ..errors import CuvilSyntaxError
from ..frontend.walk import walk
from ..normalize.origins import origin_of
from .cuda import Context


def refuse_unwritable(stmts: Sequence[cst.BaseStatement], scalar_dtype: Callable[[str], str | None],
                      ctx: Context) -> None:
    line: list[int | None] = [None]

    def refuse(message: str, hint: str) -> CuvilSyntaxError:
        at = line[0] or 1
        text = ctx.source_line(at)
        return CuvilSyntaxError(message, ctx.filename, at, len(text) - len(text.lstrip()) + 1, text, hint)

    class Find(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
            line[0] = origin_of(node) or line[0]

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name) and scalar_dtype(node.target.value) is None:
                name, op = node.target.value, cst.Module([]).code_for_node(node.operator).strip().rstrip("=")
                raise refuse("an in-place update of a whole array cannot run on target='cuda' yet",
                             f"assign the elements instead (`{name}[:] = {name} {op} ...`; `[()]` of a 0-d array; "
                             "or a loop), or compile this function with target='cpu'")

        def visit_Call(self, node: cst.Call) -> None:
            helper = ctx.helpers.get(node.func.value, "") if isinstance(node.func, cst.Name) else ""
            if helper.rsplit(".", 1)[-1] == "ufunc_out":
                raise refuse("a NumPy function's out= array cannot be written on target='cuda' yet",
                             "write it with operators instead (`o[:] = x + y`) or as a loop, or compile this "
                             "function with target='cpu'")

    for stmt in stmts:
        walk(stmt, Find())


__all__ = ["refuse_unwritable"]
