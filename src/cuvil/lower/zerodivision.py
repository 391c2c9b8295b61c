"""CPython's ZeroDivisionError messages for `//`, `%` and `/` of Python numbers (CPU target).

    q = a // b    →  q = py_floordiv(a, b)     # b == 0: "integer division or modulo by zero", not Numba's
    r = x % y     →  r = py_float_mod(x, y)    # an operand is a float: "float modulo", not "modulo by zero"

Only where both operands are Python numbers (NumPy's scalars and arrays divide as NumPy does, lower/casts.py) and
the divisor is not a literal other than zero. The helpers test `b == 0` as Numba's own operators do, so a division
costs what it did. The CUDA target reports its own error codes (codegen/cuda_checks.py).
"""

from __future__ import annotations

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import BOOL, FLOAT, INT
from .reductions import Intrinsic

MODULE = "cuvil.runtime.pyint"
_PYTHON = (INT, FLOAT, BOOL)
_OPERATORS: dict[type, str] = {cst.FloorDivide: "py_floordiv", cst.Modulo: "py_mod", cst.Divide: "py_truediv"}
_AUGMENTED: dict[type, str] = {cst.FloorDivideAssign: "py_floordiv", cst.ModuloAssign: "py_mod",
                               cst.DivideAssign: "py_truediv"}


class ZeroDivision(cst.CSTTransformer):
    def __init__(self, types: Types, intrinsic: Intrinsic):
        super().__init__()
        self.types, self.intrinsic = types, intrinsic

    def _needs(self, left: cst.BaseExpression, right: cst.BaseExpression) -> bool:
        if isinstance(right, cst.Integer | cst.Float) and right.evaluated_value != 0:
            return False
        return self.types.of(left) in _PYTHON and self.types.of(right) in _PYTHON

    def _call(self, name: str, left: cst.BaseExpression, right: cst.BaseExpression,
              typed: tuple[cst.BaseExpression, cst.BaseExpression]) -> cst.Call:
        """`typed`: the operands as the type table knows them (before any rewrite inside them)."""
        if FLOAT in (self.types.of(typed[0]), self.types.of(typed[1])):  # CPython's "float …" words (pyint.py)
            name = name.replace("py_", "py_float_")
        return cst.Call(cst.Name(self.intrinsic(MODULE, name)), [cst.Arg(left), cst.Arg(right)])

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        name = _OPERATORS.get(type(original.operator))
        if name is None or not self._needs(original.left, original.right):
            return updated
        call = self._call(name, updated.left, updated.right, (original.left, original.right))
        return call.with_changes(lpar=updated.lpar, rpar=updated.rpar)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """`divmod(a, b)` of Python numbers: CPython's words ("float divmod()"), where Numba says "modulo by zero"."""
        args = original.args
        if len(args) != 2 or any(a.keyword is not None or a.star for a in args) \
                or self.types.calls.effect(original).name != "divmod" or not self._needs(args[0].value, args[1].value):
            return updated
        call = self._call("py_divmod", updated.args[0].value, updated.args[1].value, (args[0].value, args[1].value))
        return call.with_changes(lpar=updated.lpar, rpar=updated.rpar)

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign) -> cst.BaseSmallStatement:
        name = _AUGMENTED.get(type(original.operator))
        if name is None or not isinstance(original.target, cst.Name) or not self._needs(original.target,
                                                                                         original.value):
            return updated
        call = self._call(name, updated.target, updated.value, (original.target, original.value))
        return cst.Assign([cst.AssignTarget(updated.target)], call)
