"""Static dims become constants in the generated code, so Numba sees `range(3)` and can unroll it.

    for k in range(points.shape[1]):    →    for k in range(3):  # points.shape[1] == 3 is guarded

Only for parameters the body never rebinds: `x.shape[k]`, `len(x)` (axis 0) and a whole `x.shape` whose dims
are all static.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import libcst as cst

from ..normalize.names import assigned_names


class StaticDims(cst.CSTTransformer):
    def __init__(self, static: dict[str, dict[int, int]], ranks: dict[str, int]):
        super().__init__()
        self.static, self.ranks = static, ranks
        self.substituted = False  # a static dim became a constant: the generated code reads it (read_dims)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        rebound = assigned_names(node.body)
        self.static = {name: dims for name, dims in self.static.items() if name not in rebound}

    def _dims(self, node: cst.BaseExpression) -> dict[int, int] | None:
        return self.static.get(node.value) if isinstance(node, cst.Name) else None

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        value = original.value  # `x.shape` itself, which leave_Attribute may have made a tuple already
        if not (isinstance(value, cst.Attribute) and value.attr.value == "shape" and len(updated.slice) == 1):
            return updated
        dims = self._dims(value.value)
        index = updated.slice[0].slice
        if dims is None or not (isinstance(index, cst.Index) and isinstance(index.value, cst.Integer)):
            return updated
        axis = int(index.value.value, 0)
        if axis not in dims:
            return updated
        self.substituted = True
        return cst.Integer(str(dims[axis]))

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if updated.attr.value != "shape":
            return updated
        dims = self._dims(updated.value)
        rank = self.ranks.get(updated.value.value) if isinstance(updated.value, cst.Name) else None
        if dims is None or rank is None or len(dims) != rank:
            return updated
        self.substituted = True
        return cst.Tuple([cst.Element(cst.Integer(str(dims[k]))) for k in range(rank)])

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if isinstance(updated.func, cst.Name) and updated.func.value == "len" and len(updated.args) == 1:
            dims = self._dims(updated.args[0].value)
            if dims is not None and 0 in dims:
                self.substituted = True
                return cst.Integer(str(dims[0]))
        return updated


def read_dims(shapes: tuple[tuple[int | None, ...] | None, ...], same_without: Callable[[Any], bool],
              substituted: bool = False) -> tuple[tuple[int, int], ...]:
    """The static dims of `shapes` the generated code depends on, as (argument, axis): none if the module
    generated with all of them dynamic is the same text (`same_without(dynamic shapes)`), else all of them.

    Why: the default policy makes every small dim static, and each costs a test on every call (`len(x) != 4`,
    ~20 ns); a dim no statement reads (`out[0] = x[0] + y[0]`) would be guarded for nothing. Whether one is
    read is a property of the generated code — shape checks and lowering read static sizes too, not only the
    substitutions above — so the module is generated again with those dims dynamic and compared, once, on a
    cache miss; the answer is stored with the entry (cache.Meta.reads), the key keeps the static shapes, and
    one entry serves the variant. Where StaticDims `substituted` a constant the text differs for certain, and
    the second generation (two thirds of a first one) is skipped."""
    static = tuple((i, k) for i, shape in enumerate(shapes) for k, d in enumerate(shape or ()) if d is not None)
    if not static or substituted:
        return static
    dynamic = tuple(None if shape is None else (None,) * len(shape) for shape in shapes)
    return () if same_without(dynamic) else static
