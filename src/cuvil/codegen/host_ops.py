"""Host statements of a CUDA launcher that device arrays cannot run as written: `a.copy()`, slices and `a @ b`
go through the runtime (runtime/cuda_arrays.py, runtime/cuda_matmul.py)."""

from __future__ import annotations

import libcst as cst

from ..cfg.uses import contains
from .cuda import call


class HostCopies(cst.CSTTransformer):
    """`a.copy()` on the host: a device array has no `copy` method (the simulator's has); a slice of a device
    array, `a[1:]`, through runtime/cuda_arrays.view (an empty one has no memory to point into); `a @ b`
    through runtime/cuda_matmul (a device array has no `@`)."""

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        if not any(isinstance(e.slice, cst.Slice) for e in updated.slice):
            return updated
        parts: list[cst.BaseExpression] = []
        for element in updated.slice:
            part = element.slice
            if isinstance(part, cst.Slice):
                parts.append(call("slice", *(v if v is not None else cst.Name("None")
                                             for v in (part.lower, part.upper, part.step))))
            else:
                parts.append(part.value)  # type: ignore[attr-defined]
        key = parts[0] if len(parts) == 1 else cst.Tuple([cst.Element(p) for p in parts])
        return call("_view", updated.value, key)

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        if isinstance(updated.operator, cst.MatrixMultiply):  # only a host statement has one (host_matmul)
            return call("_rt.matmul", updated.left, updated.right)
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if isinstance(func, cst.Attribute) and func.attr.value == "copy" and not updated.args:
            return call("_rt.copy", func.value)
        return updated


def host_matmul(stmt: cst.CSTNode) -> bool:
    """`return a @ b` or `c = a @ b` of two names: the host runs it, the product on the device
    (runtime/cuda_matmul.py); any other `@` is in a kernel, which refuses it at its line."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return False
    small = stmt.body[0]
    value = small.value if isinstance(small, cst.Return | cst.Assign) else None
    return isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.MatrixMultiply) \
        and isinstance(value.left, cst.Name) and isinstance(value.right, cst.Name)


def has_matmul(node: cst.CSTNode) -> bool:
    return contains(node, cst.MatrixMultiply)
