"""Static dims become constants in the generated code, so Numba sees `range(3)` and can unroll it.

    for k in range(points.shape[1]):    →    for k in range(3):  # points.shape[1] == 3 is guarded

Only for parameters the body never rebinds: `x.shape[k]`, `len(x)` (axis 0) and a whole `x.shape` whose dims
are all static.
"""

from __future__ import annotations

import libcst as cst

from ..normalize.names import assigned_names


class StaticDims(cst.CSTTransformer):
    def __init__(self, static: dict[str, dict[int, int]], ranks: dict[str, int]):
        super().__init__()
        self.static, self.ranks = static, ranks

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        rebound = assigned_names(node.body)
        self.static = {name: dims for name, dims in self.static.items() if name not in rebound}

    def _dims(self, node: cst.BaseExpression) -> dict[int, int] | None:
        return self.static.get(node.value) if isinstance(node, cst.Name) else None

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        value = updated.value
        if not (isinstance(value, cst.Attribute) and value.attr.value == "shape" and len(updated.slice) == 1):
            return updated
        dims = self._dims(value.value)
        index = updated.slice[0].slice
        if dims is None or not (isinstance(index, cst.Index) and isinstance(index.value, cst.Integer)):
            return updated
        axis = int(index.value.value, 0)
        return cst.Integer(str(dims[axis])) if axis in dims else updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if updated.attr.value != "shape":
            return updated
        dims = self._dims(updated.value)
        rank = self.ranks.get(updated.value.value) if isinstance(updated.value, cst.Name) else None
        if dims is None or rank is None or len(dims) != rank:
            return updated
        return cst.Tuple([cst.Element(cst.Integer(str(dims[k]))) for k in range(rank)])

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if isinstance(updated.func, cst.Name) and updated.func.value == "len" and len(updated.args) == 1:
            dims = self._dims(updated.args[0].value)
            if dims is not None and 0 in dims:
                return cst.Integer(str(dims[0]))
        return updated
