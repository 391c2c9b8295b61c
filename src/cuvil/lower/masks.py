"""Boolean masks of two or more dims → runtime/masks.py (CPU target): Numba indexes with a 1-D mask only and
fails an assertion on `a[a > 2]` of a 2-D array, the commonest way to pick or clear elements.

    y = a[a > 2]        →  y = mask_read(a, a > 2)
    a[a < 0] = 0        →  mask_store(a, a < 0, 0)
    a[a < 0] *= 2       →  _m = a < 0
                           mask_store(a, _m, mask_read(a, _m) * 2)

Only a mask with as many dims as the array, alone in the brackets; a value of two or more dims stays as
written, and so does an update whose array expression calls something (it is evaluated twice) or whose
result NumPy would not cast back into the array (`int_array[m] += 0.5`: NumPy's TypeError). The value was
fitted to the array's dtype already (lower/casts.py: a Python int the dtype cannot hold raises NumPy's
OverflowError)."""

from __future__ import annotations

import libcst as cst
import numpy as np

from ..analysis.type_rules import _OPERATORS, Types
from ..analysis.types import Array, ufunc_result
from ..frontend.walk import walk
from ..normalize.names import Fresh, all_names
from ..normalize.origins import origin_of, with_origin
from .again import repeatable
from .casts import binary_operator
from .reductions import Intrinsic

MODULE = "cuvil.runtime.masks"


def wanted(fn: cst.FunctionDef) -> bool:
    """Whether `fn` indexes with one expression that may be a mask (else it needs no typing)."""
    found = False

    class Find(cst.CSTVisitor):
        def visit_Subscript(self, node: cst.Subscript) -> None:
            nonlocal found
            found = found or len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and not isinstance(node.slice[0].slice.value, cst.Integer | cst.UnaryOperation)

    walk(fn.body, Find())
    return found


class Masks(cst.CSTTransformer):
    def __init__(self, types: Types, intrinsic: Intrinsic):
        super().__init__()
        self.types, self.intrinsic = types, intrinsic
        self.targets: set[int] = set()  # subscripts stored into: rewritten by leave_Assign or kept

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.targets.add(id(node.target))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.targets.add(id(node.target))

    def _mask(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        """The mask of `a[m]`, when `m` is a bool array with `a`'s dims (two or more)."""
        if not isinstance(node, cst.Subscript) or len(node.slice) != 1 \
                or not isinstance(node.slice[0].slice, cst.Index):
            return None
        array, mask = self.types.of(node.value), self.types.of(node.slice[0].slice.value)
        if isinstance(array, Array) and isinstance(mask, Array) and mask.dtype == "bool" \
                and mask.ndim == array.ndim >= 2:
            return node.slice[0].slice.value
        return None

    def _call(self, name: str, *args: cst.BaseExpression) -> cst.Call:
        return cst.Call(cst.Name(self.intrinsic(MODULE, name)), [cst.Arg(a) for a in args])

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        if id(original) in self.targets or self._mask(original) is None:
            return updated
        index = updated.slice[0].slice
        assert isinstance(index, cst.Index)
        return self._call("mask_read", updated.value, index.value)

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign | cst.Expr:
        target = original.targets[0].target
        value = self.types.of(original.value)
        if len(original.targets) != 1 or self._mask(target) is None or isinstance(value, Array) and value.ndim > 1:
            return updated
        into = updated.targets[0].target
        assert isinstance(into, cst.Subscript) and isinstance(into.slice[0].slice, cst.Index)
        return cst.Expr(self._call("mask_store", into.value, into.slice[0].slice.value, updated.value))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.fresh = Fresh(all_names(node))

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
                                  ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        """`a[m] op= v`: the mask into a temporary (NumPy evaluates it once), then the selected elements
        updated and stored back."""
        small = original.body[0]
        mask = self._mask(small.target) if isinstance(small, cst.AugAssign) else None
        if mask is None or len(original.body) != 1:
            return updated
        assert isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Subscript)
        array = self.types.of(small.target.value)
        name = _OPERATORS.get(type(small.operator))
        result = ufunc_result(name, [array, self.types.of(small.value)]) if name else None
        if not repeatable(small.target.value) or not isinstance(array, Array) or not isinstance(result, Array) \
                or not np.can_cast(result.dtype, array.dtype, "same_kind"):
            return updated  # a call in the array's expression, or NumPy's casting TypeError: Numba's own words
        new = updated.body[0]
        assert isinstance(new, cst.AugAssign) and isinstance(new.target, cst.Subscript)
        index = new.target.slice[0].slice
        assert isinstance(index, cst.Index)
        temporary = cst.Name(self.fresh("_m"))
        read = self._call("mask_read", new.target.value, temporary)
        store = self._call("mask_store", new.target.value, temporary,
                           cst.BinaryOperation(read, binary_operator(small.operator), new.value))
        line = origin_of(original)
        return cst.FlattenSentinel([with_origin(cst.SimpleStatementLine([cst.Assign(
            [cst.AssignTarget(temporary)], index.value)]), line), with_origin(cst.SimpleStatementLine([cst.Expr(
                store)]), line)])
