"""Python ints outside int64 written into a function: literals (`x & 0xFFFFFFFFFFFFFFFF`), module globals
(`MASK = 2**64 - 1`, typed analysis/types.BigInt) and the elements of global tuples (`T[1]`).

Numba types an int in [2**63, 2**64) as uint64 and wraps it (`MASK - x` gave -2 where CPython gives
18446744073709551614; `int64_array + MASK` gave 0 where NumPy 2 raises), and refuses wider ones in its own
words. Each use is decided here, before any other rewrite sees it, by what it meets:

    u + MASK, u[0] & MASK    (u uint64)       →  u + np.uint64(18446744073709551615)    NEP 50: NumPy's uint64
    a + MASK, 1.5 * MASK     (a float)        →  a + 1.8446744073709552e+19             converted, as both do
    a + MASK, a[0] < MASK    (a int64, int8)  →  a + beyond_int64("Python int too large to convert to C long")
    MASK - x, return MASK, f(MASK)            →  beyond_int64("Python int 18446744073709551615 is outside …")

`beyond_int64` (runtime/big_ints.py) raises OverflowError at the user's line when it runs, as compiled code
raises for any other Python int beyond int64 (lower/overflow.py): NumPy's words where NumPy raises, Cuvil's where
CPython would keep a big int, and where NumPy compares exactly (`int64_array < MASK`). `-9223372036854775808`,
which fits, is written `(-9223372036854775807 - 1)` (Numba negated a uint64). A global tuple holding such an int
is refused at the line unless each use takes one element by a constant index.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, BigInt, Scalar, Tuple, Type
from ..frontend.walk import walk
from ..normalize.origins import origin_of
from .precision import Located

_MIN, _MAX = -(2**63), 2**63 - 1
_FLOATS = frozenset({"numpy.float64", "numpy.float32", "numpy.complex128", "numpy.complex64", "float", "complex"})
_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
               cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign, cst.FloorDivideAssign,
               cst.ModuloAssign, cst.PowerAssign)

_SIDES = {cst.LessThan: (True, False), cst.LessThanEqual: (True, False), cst.GreaterThan: (False, True),
          cst.GreaterThanEqual: (False, True), cst.Equal: (False, False), cst.NotEqual: (True, True)}
"""`x OP value` for every x of a dtype `value` lies beyond: (above the dtype's range, below it)."""
_MIRROR = {cst.LessThan: cst.GreaterThan, cst.GreaterThan: cst.LessThan, cst.LessThanEqual: cst.GreaterThanEqual,
           cst.GreaterThanEqual: cst.LessThanEqual}


def _beyond_every(value: int, other: Type) -> bool:
    """Whether `value` lies outside every value `other` (an integer) can hold, and NumPy or CPython compares them:
    a Python int or bool (int64 in compiled code), a NumPy integer other than a uint64 holding the value."""
    if not isinstance(other, Scalar | Array):
        return False
    dtype = np.dtype(other.dtype) if other.dtype in np.sctypeDict else None
    if dtype is None or dtype.kind not in "iub" or dtype.kind == "b" and not (isinstance(other, Scalar) and other.weak):
        return False  # a NumPy bool meets it as an int64: NumPy's OverflowError
    return not (dtype == np.uint64 and 0 <= value < 2**64)


def python_message(value: int) -> str:
    """Cuvil's words where CPython keeps a big int."""
    instead = f"np.uint64({value}) for uint64 arithmetic, " if 0 <= value < 2**64 else ""
    return (f"Python int {value} is outside int64: Python would keep a big int, compiled code computes Python ints "
            f"in 64 bits; write {instead}a float, or pass it as an array")


def numpy_message(value: int, dtype: str) -> str | None:
    """NumPy's words converting `value` for an operand of `dtype`; None where NumPy takes it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            np.add(np.zeros((), dtype), value)
        except OverflowError as exc:
            return str(exc)
        except Exception:  # noqa: BLE001 (any other refusal: Cuvil's words)
            return python_message(value)
    return None


def wanted(fn: cst.FunctionDef, types: Types) -> bool:
    class Find(cst.CSTVisitor):
        found = False

        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, cst.Integer) and not _MIN <= int(node.evaluated_value) <= _MAX \
                    or isinstance(node, cst.Name) and _holds_big(types.of(node)):
                self.found = True
            return not self.found

    finder = Find()
    walk(fn.body, finder)
    return finder.found or any(p.default is not None and _big_literal(p.default) for p in fn.params.params)


def _big_literal(node: cst.BaseExpression) -> bool:
    """Whether a constant expression (a default as bound: `7`, `-7`, `(1, 2)`) holds an int outside int64."""
    class Find(cst.CSTVisitor):
        found = False

        def visit_Integer(self, node: cst.Integer) -> None:
            self.found |= not _MIN <= int(node.evaluated_value) <= _MAX

        def visit_UnaryOperation(self, node: cst.UnaryOperation) -> bool:
            if isinstance(node.operator, cst.Minus) and isinstance(node.expression, cst.Integer):
                self.found |= not _MIN <= -int(node.expression.evaluated_value) <= _MAX
                return False  # -9223372036854775808 fits
            return True

    finder = Find()
    node.visit(finder)
    return finder.found


def _holds_big(t: Type) -> bool:
    return isinstance(t, BigInt) or isinstance(t, Tuple) and any(map(_holds_big, t.items))


class BigInts(cst.CSTTransformer):
    def __init__(self, types: Types, numpy: Callable[[], str], intrinsic: Callable[[str, str], str],
                 filename: str | None, helper: bool):
        super().__init__()
        self.helper = helper
        self.types, self.numpy, self.intrinsic = types, numpy, intrinsic
        self.where = Located(filename)
        self.decided: dict[int, Callable[[int], cst.BaseExpression]] = {}  # id of a use → how it is written
        self.constant: dict[int, tuple[cst.BaseExpression, bool]] = {}  # comparisons every value answers alike
        self.kept: set[int] = set()  # ids of nodes a parent rewrites whole (`-9223…` literal, a tuple indexed)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """A helper's default is compiled as a constant Numba types when a call leaves it out: refused here (the
        entry's are arguments, which the dispatcher checks)."""
        self.where.line = origin_of(node) or self.where.line
        for param in node.params.params if self.helper else ():
            if param.default is not None and _big_literal(param.default):
                raise self.where.error(
                    f"the default of '{param.name.value}' is a Python int outside int64, which compiled code cannot "
                    "hold as Python does; pass it as an argument (an np.uint64 or a float)")

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.where.line = origin_of(node) or self.where.line

    def _value(self, node: cst.BaseExpression) -> int | None:
        """The int outside int64 that `node` stands for, or None."""
        if isinstance(node, cst.Integer):
            value = int(node.evaluated_value)
            return None if _MIN <= value <= _MAX else value
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) \
                and isinstance(node.expression, cst.Integer):
            value = -int(node.expression.evaluated_value)
            return None if _MIN <= value <= _MAX else value
        t = self.types.of(node)
        return t.value if isinstance(t, BigInt) else None

    # -- how each use is written, decided at its parent ---------------------------------------------------------

    def _uint64(self, value: int) -> cst.BaseExpression:
        return cst.Call(cst.Attribute(cst.Name(self.numpy()), cst.Name("uint64")), [cst.Arg(cst.Integer(str(value)))])

    def _raising(self, message: str) -> cst.BaseExpression:
        name = self.intrinsic("cuvil.runtime.big_ints", "beyond_int64")
        return cst.Call(cst.Name(name), [cst.Arg(cst.SimpleString(repr(message)))])

    def _float(self, value: int) -> cst.BaseExpression:
        try:
            number = float(value)
        except OverflowError as exc:  # CPython's: "int too large to convert to float"
            return self._raising(str(exc))
        if number >= 0:
            return cst.Float(repr(number))
        return cst.UnaryOperation(cst.Minus(), cst.Float(repr(-number)), lpar=[cst.LeftParen()],
                                  rpar=[cst.RightParen()])

    def _meeting(self, other: Type, arithmetic: bool) -> Callable[[int], cst.BaseExpression]:
        """How an int is written where it meets a value of type `other` (an operand, a store's target)."""
        if isinstance(other, Scalar | Array) and not (isinstance(other, Scalar) and other.weak):
            dtype = np.dtype(other.dtype)  # NumPy's: NEP 50 converts the int to this dtype, or raises
            if dtype.kind in "fc":  # compared too: NumPy converts the int to the float
                return self._float
            if dtype == np.uint64:
                return lambda v: self._uint64(v) if 0 <= v < 2**64 else self._raising(
                    numpy_message(v, "uint64") or python_message(v))
            return lambda v: self._raising(numpy_message(v, dtype.name) or python_message(v))
        if isinstance(other, Scalar) and other.dtype.startswith(("float", "complex")) and arithmetic:
            return self._float  # CPython converts the int to a float first
        return lambda v: self._raising(python_message(v))

    def _decide(self, node: cst.BaseExpression, other: cst.BaseExpression | Type, arithmetic: bool) -> None:
        if self._value(node) is not None:
            kind = self.types.of(other) if isinstance(other, cst.BaseExpression) else other
            self.decided[id(node)] = self._meeting(kind, arithmetic)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        arithmetic = isinstance(node.operator, _ARITHMETIC)
        self._decide(node.left, node.right, arithmetic)
        self._decide(node.right, node.left, arithmetic)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if len(node.comparisons) != 1:
            return
        right, op = node.comparisons[0].comparator, type(node.comparisons[0].operator)
        for big, other, mirrored in ((right, node.left, False), (node.left, right, True)):
            value = self._value(big)
            if value is not None and op in _SIDES and _beyond_every(value, self.types.of(other)):
                sides = _SIDES[_MIRROR.get(op, op)] if mirrored else _SIDES[op]  # `other OP value`
                self.constant[id(node)] = (other, sides[0] if value > 0 else sides[1])
                self.kept.add(id(big))
                return
        self._decide(node.left, right, False)
        self._decide(right, node.left, False)

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        """An integer compared with an int beyond its dtype: the answer every value gives, as NumPy 2 and CPython
        give it, in the comparison's type (`x == x` of an integer is True, `x != x` False: x evaluated once)."""
        if id(original) not in self.constant:
            return updated
        other, answer = self.constant[id(original)]
        side = updated.left if other is original.left else updated.comparisons[0].comparator
        op = cst.Equal() if answer else cst.NotEqual()
        return cst.Comparison(side, [cst.ComparisonTarget(op, side.deep_clone())],
                              lpar=[cst.LeftParen()], rpar=[cst.RightParen()])

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._decide(node.value, node.target, isinstance(node.operator, _ARITHMETIC))

    def visit_Assign(self, node: cst.Assign) -> None:
        target = node.targets[0].target if len(node.targets) == 1 else None
        if isinstance(target, cst.Subscript) and isinstance(self.types.of(target.value), Array):
            self._decide(node.value, target, True)  # a store: NumPy converts the int to the array's dtype

    def visit_Call(self, node: cst.Call) -> None:
        name = self.types.calls.effect(node).name
        if name == "cuvil.runtime.intrinsics.py_pow" and len(node.args) == 2:  # `a ** b` (codegen/cpu.PythonPow)
            self._decide(node.args[0].value, node.args[1].value, True)
            self._decide(node.args[1].value, node.args[0].value, True)
        if len(node.args) == 1 and node.args[0].keyword is None:
            if name == "numpy.uint64":
                self._decide(node.args[0].value, Scalar("uint64"), True)
            elif name in _FLOATS:
                self._decide(node.args[0].value, Scalar("float64"), True)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Minus) and isinstance(node.expression, cst.Integer):
            self.kept.add(id(node.expression))  # the literal's sign is part of it

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.kept.add(id(node.attr))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if isinstance(node.value, cst.Name) and isinstance(self.types.of(node.value), Tuple) \
                and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and isinstance(node.slice[0].slice.value, cst.Integer | cst.UnaryOperation):
            self.kept.add(id(node.value))  # `T[1]`: the element is decided, not the tuple

    # -- the uses --------------------------------------------------------------------------------------------------

    def _use(self, original: cst.BaseExpression, updated: cst.BaseExpression) -> cst.BaseExpression:
        if id(original) in self.kept:
            return updated
        value = self._value(original)
        if value is None:
            if isinstance(original, cst.UnaryOperation) and isinstance(original.expression, cst.Integer) \
                    and int(original.expression.evaluated_value) == 2**63:  # -2**63 written out: it fits
                return cst.BinaryOperation(cst.UnaryOperation(cst.Minus(), cst.Integer(str(_MAX))), cst.Subtract(),
                                           cst.Integer("1"),
                                           lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            if isinstance(original, cst.Name) and _holds_big(self.types.of(original)):
                raise self.where.error(
                    f"'{original.value}' is a tuple holding a Python int outside int64, which compiled code cannot "
                    "hold as Python does; take its elements by constant indices (`T[1]`), or make it an array")
            return updated
        decided = self.decided.get(id(original), lambda v: self._raising(python_message(v)))
        return decided(value)

    def leave_Integer(self, original: cst.Integer, updated: cst.Integer) -> cst.BaseExpression:
        return self._use(original, updated)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if self.types.calls.global_of(original.value) is None:
            return updated  # a local (one bound to a big int raised where it was bound)
        return self._use(original, updated)

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        return self._use(original, updated)

    def leave_UnaryOperation(self, original: cst.UnaryOperation,
                             updated: cst.UnaryOperation) -> cst.BaseExpression:
        return self._use(original, updated)
