"""Integer division and shifts into an existing array, and in-place division of NumPy scalars, with NumPy's meaning
(the casts pass, lower/casts.py, mixes this in):

    c //= b                   →  floor_divide_into(c, c, b)     # an integer array; also `c[1:] %= b`
    c %= b                    →  c = remainder_update(c, b)     # c or b of a type the compiler does not know
    np.fmod(a, b, out=o)      →  fmod_into(o, a, b)             # integer operands, an `out`
    a <<= n                   →  left_shift_into(a, a, n)       # also `>>=`, np.left_shift(a, n, out=o)
    t //= b                   →  t = floor_divide(t, b)         # a NumPy scalar (or an element, `c[i] /= d`)

Numba's array loops give 0 for INT_MIN // -1 (NumPy: INT_MIN), trap on INT_MIN % -1 (SIGFPE: the process
dies) and compute integer fmod as the dividend's C remainder; its in-place scalar `//=` of int64 gives 0 too
and `/=` raises ZeroDivisionError where NumPy gives inf; its shifts take the count modulo 64 (NumPy: every bit
shifted out). runtime/division_into.py holds the array loops (CPU only: a CUDA kernel writes whole arrays
through the lowered nests), runtime/elementwise.py the scalar kernels.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar
from .again import repeatable

_INTO = frozenset({"floor_divide", "remainder", "fmod", "left_shift", "right_shift"})
_UPDATES = frozenset({"floor_divide", "remainder"})  # `//=` and `%=`
MODULE = "cuvil.runtime.division_into"


class DivisionInto:
    """Mixed into lower/casts.Casts, whose `types`, `intrinsic` and `arrays_into` these use."""

    types: Types
    intrinsic: Callable[[str, str], str]
    arrays_into: bool  # the target has runtime/division_into.py (the CPU)

    def _integers(self, *nodes: cst.BaseExpression) -> bool:
        kinds = [self.types.of(n) for n in nodes]
        return all(isinstance(k, Array | Scalar) and np.dtype(k.dtype).kind in "iu" for k in kinds)

    def division_update(self, original: cst.AugAssign, target: cst.BaseAssignTargetExpression,
                        value: cst.BaseExpression, ufunc: str) -> cst.BaseSmallStatement | None:
        """`c //= b` on an integer array, written through a view of it, as `floor_divide_into(c, c, b)`; where
        either side's type is unknown, `c = floor_divide_update(c, b)`, which chooses when Numba types it (its
        array `%=` traps on INT_MIN % -1 and kills the process); None for anything else (a fancy-indexed target
        is a copy: it stays as written)."""
        if ufunc in _UPDATES and self.arrays_into and repeatable(original.target) and not all(
                isinstance(self.types.of(n), Array | Scalar) for n in (original.target, original.value)):
            return _updated(target, value, ufunc, self.intrinsic)
        if ufunc not in _INTO or not self.arrays_into or not isinstance(self.types.of(original.target), Array) \
                or not self._integers(original.target, original.value) or not self._view(original.target) \
                or not repeatable(original.target):
            return None
        helper = cst.Name(self.intrinsic(MODULE, f"{ufunc}_into"))
        return cst.Expr(cst.Call(helper, [cst.Arg(target), cst.Arg(target), cst.Arg(value)]))

    def division_out(self, ufunc: str, operands: list[cst.BaseExpression], converted: list[cst.BaseExpression],
                     out: cst.BaseExpression) -> cst.Call | None:
        """`np.floor_divide(a, b, out=o)` of integers as `floor_divide_into(o, a, b)`; None otherwise."""
        if ufunc not in _INTO or not self.arrays_into or not self._integers(*operands):
            return None
        helper = cst.Name(self.intrinsic(MODULE, f"{ufunc}_into"))
        return cst.Call(helper, [cst.Arg(out), *(cst.Arg(c) for c in converted)])

    def _view(self, node: cst.BaseExpression) -> bool:
        """A name, or a basic slicing of one (slices and integers): writing it writes the array."""
        if isinstance(node, cst.Name):
            return True
        if not isinstance(node, cst.Subscript) or not self._view(node.value):
            return False
        for element in node.slice:
            index = element.slice
            if isinstance(index, cst.Slice):
                continue
            kind = self.types.of(index.value) if isinstance(index, cst.Index) else None
            if not (isinstance(kind, Scalar) and np.dtype(kind.dtype).kind in "iu"):
                return False
        return True


def _updated(target: cst.BaseAssignTargetExpression, value: cst.BaseExpression, ufunc: str,
             intrinsic: Callable[[str, str], str]) -> cst.Assign:
    helper = cst.Name(intrinsic(MODULE, f"{ufunc}_update"))
    return cst.Assign([cst.AssignTarget(target)], cst.Call(helper, [cst.Arg(target), cst.Arg(value)]))


_AUGMENTED = {cst.FloorDivideAssign: "floor_divide", cst.ModuloAssign: "remainder"}


class UntypedDivisions(cst.CSTTransformer):
    """The code as written (the dispatcher's fallback, which has no types): every `t //= v` and `t %= v` through
    the `_update` helpers, which choose when Numba types them; Numba's own array `%=` can kill the process."""

    def __init__(self, intrinsic: Callable[[str, str], str]):
        super().__init__()
        self.intrinsic = intrinsic

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign) -> cst.BaseSmallStatement:
        ufunc = _AUGMENTED.get(type(original.operator))
        if ufunc is None or not repeatable(original.target):
            return updated
        return _updated(updated.target, updated.value, ufunc, self.intrinsic)
