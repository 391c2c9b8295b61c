"""Integer arithmetic on literals that leaves int64 → the literal it makes, as Python computes it.

    np.uint64(2**64 - 1)    →    np.uint64(18446744073709551615)
    m = 1 << 63             →    m = 9223372036854775808

Compiled code computes in int64, where `2**64` overflows (Cuvil's OverflowError, as CPython would keep a big int);
a literal outside int64 is what lower/big_ints.py gives NumPy's meaning. Only what CPython computes exactly
and cheaply is folded: `+ - * ** << >> & | ^ // %`, unary `- + ~` and `int()` of int literals (and `/`, to
CPython's correctly rounded float), with results under
2**256 (`2**10` becomes 1024 as well: `10**20 // 10**10` needs both of its sides folded).
"""

from __future__ import annotations

import operator
from collections.abc import Callable

import libcst as cst

_OPS: dict[type, Callable[[int, int], int]] = {
    cst.Add: operator.add, cst.Subtract: operator.sub, cst.Multiply: operator.mul, cst.Power: operator.pow,
    cst.LeftShift: operator.lshift, cst.RightShift: operator.rshift, cst.BitAnd: operator.and_,
    cst.BitOr: operator.or_, cst.BitXor: operator.xor, cst.FloorDivide: operator.floordiv, cst.Modulo: operator.mod}
_UNARY: dict[type, Callable[[int], int]] = {cst.Minus: operator.neg, cst.Plus: operator.pos,
                                            cst.BitInvert: operator.invert}
_INT64 = range(-2**63, 2**63)
_LIMIT = 2**256


def _value(node: cst.BaseExpression) -> int | None:
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) \
            and isinstance(node.expression, cst.Integer):
        return -int(node.expression.evaluated_value)
    return None


def _literal(value: int, like: cst.BaseExpression) -> cst.BaseExpression:
    digits = cst.Integer(str(abs(value)))
    out: cst.BaseExpression = cst.UnaryOperation(cst.Minus(), digits) if value < 0 else digits
    return out.with_changes(lpar=like.lpar, rpar=like.rpar)


def _small_enough(op: type, left: int, right: int) -> bool:
    """Whether CPython computes it at once and the result stays under _LIMIT (no 2**10**9)."""
    if op is cst.Power:
        return right >= 0 and (abs(left) < 2 or right * max(abs(left), 2).bit_length() <= 256)
    if op is cst.LeftShift:
        return 0 <= right and left.bit_length() + right <= 256
    if op in (cst.RightShift,):
        return right >= 0
    if op in (cst.FloorDivide, cst.Modulo):
        return right != 0
    return True


class IntConstants(cst.CSTTransformer):
    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        op = type(updated.operator)
        left, right = _value(updated.left), _value(updated.right)
        if op is cst.Divide and left is not None and right:  # CPython's correctly rounded int / int
            try:
                return cst.Float(repr(left / right)).with_changes(lpar=updated.lpar, rpar=updated.rpar)
            except OverflowError:  # "integer division result too large for a float": raised where it runs
                return updated
        if op not in _OPS or left is None or right is None or not _small_enough(op, left, right):
            return updated
        value = _OPS[op](left, right)
        if abs(value) >= _LIMIT:
            return updated
        return _literal(value, updated)  # (within int64 too: `10**20 // 10**10` needs both sides folded)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """`int(2**63)`: the literal itself."""
        if isinstance(updated.func, cst.Name) and updated.func.value == "int" and len(updated.args) == 1 \
                and updated.args[0].keyword is None and not updated.args[0].star:
            value = _value(updated.args[0].value)
            if value is not None:
                return _literal(value, updated)
        return updated

    def leave_UnaryOperation(self, original: cst.UnaryOperation, updated: cst.UnaryOperation) -> cst.BaseExpression:
        operand = _value(updated.expression)
        op = type(updated.operator)
        if op not in _UNARY or operand is None or operand in _INT64 or isinstance(updated.expression, cst.Integer) \
                and op is cst.Minus:
            return updated  # `-9223372036854775808` is a literal already
        return _literal(_UNARY[op](operand), updated)
