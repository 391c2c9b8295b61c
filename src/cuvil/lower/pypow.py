"""Python's power for Python numbers where the front end left a literal exponent to Numba (issue 10 §3; CPU target).

    y ** 2          →  py_pow(y, 2)           # y a Python float: 1e200 ** 2 raises OverflowError, not inf
    y **= 400.0     →  y = py_pow(y, 400.0)
    pow(y, e)       →  y ** e                 # the builtin (codegen/cpu.py's PythonPow), then as `**`
    math.pow(x, y)  →  math_pow(x, y)         # "math domain error" / "math range error", where Numba is silent
    k ** 3          →  k * k * k              # k a Python int: each product checked (lower/overflow.py)
    2 ** 100        →  py_pow(2, 100)         # an int power that does not fit: OverflowError, not 0

codegen/cpu.py's PythonPow sends every `**` whose exponent is not a non-negative integral literal to
`py_pow` before types are known; Numba multiplies for such literals, which is exact for ints that fit and
rounds as CPython's pow() for `x ** 2`, but never raises. Only operations whose operands are all Python
numbers are rewritten: NumPy's scalars and arrays follow NumPy (inf, wrap-around). A Python int to a small
power of a plain name becomes products, so a parallel loop can test each product's overflow before it runs
(cfg/raising.py); `py_pow` and pyint.power may raise in ways it cannot, and keep their loop serial. With
`overflow="wrap"` ints are left to Numba, as every other int operation is.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import BOOL, FLOAT, INT, Scalar, Type
from ..frontend.walk import walk
from .reductions import Intrinsic

MODULE = "cuvil.runtime.intrinsics"
_REAL = (INT, FLOAT, BOOL)
_UPDATES = (f"{MODULE}.pow_exponent", f"{MODULE}.inplace_value")  # codegen/updates.py's wrappers of `y **= e`
_PRODUCTS = 4  # k ** 2 … k ** 4 as products of k


def powers(fn: cst.FunctionDef) -> bool:
    """Whether `fn` may hold anything this pass rewrites (else it needs no typing)."""
    found = False

    class Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal found
            found = found or isinstance(node, cst.Power | cst.PowerAssign) \
                or (isinstance(node, cst.Name) and node.value == "pow")
            return not found

    walk(fn.body, Find())
    return found


class PythonPowers(cst.CSTTransformer):
    def __init__(self, types: Types, intrinsic: Intrinsic, ints: bool):
        super().__init__()
        self.types, self.intrinsic, self.ints = types, intrinsic, ints

    def _wanted(self, base: cst.BaseExpression, exp: cst.BaseExpression) -> bool:
        """Both operands are Python numbers, and Python's meaning differs from Numba's for some value."""
        kinds = (self.types.of(base), self.types.of(exp))
        if not all(k in _REAL for k in kinds):
            return False
        if FLOAT in kinds:
            return True
        return self.ints and not _fits(base, exp)

    def _power(self, base: cst.BaseExpression, exp: cst.BaseExpression,
               typed: tuple[cst.BaseExpression, cst.BaseExpression]) -> cst.BaseExpression:
        """`typed`: the operands as the type table knows them (before any rewrite inside them)."""
        n = _literal(exp)
        if FLOAT not in (self.types.of(typed[0]), self.types.of(typed[1])) and isinstance(base, cst.Name) \
                and n is not None and 2 <= n <= _PRODUCTS:
            product: cst.BaseExpression = base
            for _ in range(n - 1):
                product = cst.BinaryOperation(product, cst.Multiply(), base)
            return product.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return cst.Call(cst.Name(self.intrinsic(MODULE, "py_pow")), [cst.Arg(base), cst.Arg(exp)])

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        if not isinstance(original.operator, cst.Power) or not self._wanted(original.left, original.right):
            return updated
        return _keep(self._power(updated.left, updated.right, (original.left, original.right)), updated)

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign) -> cst.BaseSmallStatement:
        """`y **= e` of a Python float: codegen/updates.py's `pow_exponent(y, e)` checks the exponent only, and
        Numba's `**=` multiplies for a literal."""
        if not isinstance(original.operator, cst.PowerAssign) or not isinstance(original.target, cst.Name) \
                or self.types.of(original.target) != FLOAT:
            return updated
        value, new = original.value, updated.value
        while isinstance(value, cst.Call) and isinstance(new, cst.Call) and len(value.args) >= 2 \
                and self.types.calls.effect(value).name in _UPDATES:  # no-ops on Python numbers
            value, new = value.args[1].value, new.args[1].value
        if not self._wanted(original.target, value):
            return updated
        return cst.Assign([cst.AssignTarget(updated.target)], self._power(updated.target, new, (original.target,
                                                                                                 value)))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        name = self.types.calls.effect(original).name
        args = original.args
        if name != "math.pow" or len(args) != 2 or any(a.keyword is not None or a.star for a in args):
            return updated  # (the builtin `pow(a, b)` is `a ** b` by now: codegen/cpu.py's PythonPow)
        if not all(_real(self.types.of(a.value)) for a in args):  # CPython converts any real number to a float
            return updated  # (NumPy's scalars too)
        return updated.with_changes(func=cst.Name(self.intrinsic(MODULE, "math_pow")))


def _keep(power: cst.BaseExpression, updated: cst.BaseExpression) -> cst.BaseExpression:
    """The replacement with the parentheses of what it replaces (a product brings its own)."""
    return power if power.lpar else power.with_changes(lpar=updated.lpar, rpar=updated.rpar)


def _real(kind: Type) -> bool:
    return isinstance(kind, Scalar) and (kind.dtype == "bool" or kind.dtype.startswith(("int", "uint", "float")))


def _literal(node: cst.BaseExpression) -> int | None:
    return int(node.evaluated_value) if isinstance(node, cst.Integer) else None


def _fits(base: cst.BaseExpression, exp: cst.BaseExpression) -> bool:
    """A power of two int literals whose value fits in int64 (`2 ** 62`): Numba's constant is Python's."""
    b, e = _literal(base), _literal(exp)
    if b is None or e is None or e < 0:
        return False
    return b in (0, 1) or (e <= 64 and -2**63 <= b**e < 2**63)
