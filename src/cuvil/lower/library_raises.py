"""NumPy's errors, at the user's line, where Numba's library would raise its own (CPU target; issue 10).

    y = b.item()           →  one_element(b.size)                  # b may not hold exactly one element
                              y = b.item()
    out = np.zeros((m, 2)) →  nonnegative_dims((m, 2))              # m may be negative
                              out = np.zeros((m, 2))
    c = b.reshape(n, -1)   →  reshapes(b.size, dims((n, -1)))
                              c = b.reshape(n, -1)
    c[1:] = v              →  fits_into(c[1:].shape, v.shape)      # v an array: Numba's words otherwise
                              c[1:] = v
    out[i] = v             →  fits_into(out[i].shape[0], v.shape[0])  # both 1-D: lengths, a parallel loop tests
                              out[i] = v
    x, y = a               →  unpacks(a.shape[0], 2, 0)             # Numba: ValueError('')
                              x, y = a
    x, y, z = m.shape      →  unpacks(2, 3, 1)                      # Numba refuses to compile it
                              x, y, z = m.shape[0], m.shape[1], m.shape[1]
    a[0] = v               →  sequence_into_element()               # v an array: Numba refuses to compile it
    if a > 0:              →  if truth(a > 0):                      # an array's truth: NumPy's ValueError unless
                                                                    # one element (Numba: no line; empty is False)

Numba raises these with its own words and a traceback in its own source (runtime/library_checks.py says
which); the helper before the statement raises NumPy's error first, and lower/located.py gives it the
statement's line. Only a call the statement always evaluates is checked (not one under `and`/`or` or a
conditional expression, whose guard would raise where Python does not), of simple statements only (a loop's
header is evaluated again at every turn), and only when its operands are pure: the check evaluates them again.
An allocation whose dims cannot be negative (literals, lengths, shapes, names bound only to those, sums and
products of them) is not checked; nor is a reshape the compiler already proved or refused (static shapes,
analysis/shapes.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import INT, Array, Scalar, Tuple
from ..frontend.walk import walk
from ..normalize.names import bound_names
from ..normalize.origins import origin_of, with_origin
from .again import cheap
from .reductions import Intrinsic

MODULE = "cuvil.runtime.library_checks"
_ALLOCATIONS = frozenset({"numpy.empty", "numpy.zeros", "numpy.ones", "numpy.full"})
_NONNEGATIVE_CALLS = frozenset({"len", "broadcast_shape"})
_SCALES = {"normal": 1, "exponential": 0}  # np.random's: the position of `scale`, which NumPy refuses below 0
_ARGUMENT_CHECKS = frozenset({*_SCALES, "arange"})  # calls whose arguments leave_Call checks


def wanted(fn: cst.FunctionDef) -> bool:
    """Whether `fn` may hold a call this pass checks (else it needs no typing)."""
    found = False

    class Find(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            name = node.func.attr.value if isinstance(node.func, cst.Attribute) else ""
            allocation = name in ("empty", "zeros", "ones", "full") and bool(node.args) \
                and not _nonnegative(node.args[0].value, set())
            found = found or name in ("item", "reshape", *_ARGUMENT_CHECKS) or allocation

        def visit_If(self, node: cst.If) -> None:  # a test may be an array's truth (typing tells)
            nonlocal found
            found = True

        visit_While = visit_IfExp = visit_If  # type: ignore[assignment]

        def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
            nonlocal found
            found = found or isinstance(node.operator, cst.Not)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            nonlocal found
            target = node.target
            found = found or isinstance(target, cst.Subscript | cst.Tuple | cst.List)  # `m[0] = v` may be a row

    walk(fn.body, Find())
    return found


class LibraryRaises(cst.CSTTransformer):
    def __init__(self, types: Types, intrinsic: Intrinsic):
        super().__init__()
        self.types, self.intrinsic = types, intrinsic
        self.nonnegative: set[str] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.nonnegative = _nonnegative_names(node)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine,
                                  updated: cst.SimpleStatementLine) -> cst.BaseStatement | cst.FlattenSentinel:
        if len(original.body) != 1:
            return updated
        small = original.body[0]
        checks = [c for call in _always_evaluated(small) for c in self._checks(call)]
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = small.targets[0].target
            if self._sequence_into_element(target, small.value):  # the element read: its index checked first
                return cst.FlattenSentinel([with_origin(cst.SimpleStatementLine([cst.Expr(e)]), origin_of(original))
                                            for e in (target, self._call("sequence_into_element"))])
            checks += self._assignment(small.targets[0].target, small.value)
            unpack = self._unpack(small.targets[0].target, small.value)
            if unpack is not None:
                checks.append(unpack[0])
                if unpack[1] is not None:  # the rest is never run, but Numba must type it
                    assert isinstance(updated.body[0], cst.Assign)
                    updated = updated.with_changes(body=[updated.body[0].with_changes(value=unpack[1])])
        if not checks:
            return updated
        line = origin_of(original)
        guards = [with_origin(cst.SimpleStatementLine([cst.Expr(c)]), line) for c in checks]
        return cst.FlattenSentinel([*guards, updated])

    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        return updated.with_changes(test=self._truth(original.test, updated.test))

    def leave_While(self, original: cst.While, updated: cst.While) -> cst.While:
        return updated.with_changes(test=self._truth(original.test, updated.test))

    def leave_IfExp(self, original: cst.IfExp, updated: cst.IfExp) -> cst.IfExp:
        return updated.with_changes(test=self._truth(original.test, updated.test))

    def leave_UnaryOperation(self, original: cst.UnaryOperation,
                             updated: cst.UnaryOperation) -> cst.UnaryOperation:
        if not isinstance(original.operator, cst.Not):
            return updated
        return updated.with_changes(expression=self._truth(original.expression, updated.expression))

    def _truth(self, original: cst.BaseExpression, updated: cst.BaseExpression) -> cst.BaseExpression:
        """An array where Python takes a truth value: `truth(test)` (the test evaluated once, where it stands)."""
        kind = self.types.of(original)
        if not (isinstance(kind, Array) and kind.ndim >= 1):
            return updated
        return self._call("truth", updated.with_changes(lpar=[], rpar=[]) if isinstance(
            updated, cst.BooleanOperation | cst.Comparison | cst.BinaryOperation | cst.UnaryOperation) else updated)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        """`np.random.normal(m, s)` → `np.random.normal(m, scale(s))`: the argument checked as it is passed
        (evaluated once, wherever the call stands); Numba draws a number for a negative scale, and its
        `np.arange(a, b, 0)` raises ValueError('Maximum allowed size exceeded')."""
        name = self.types.calls.effect(original).name
        position = _SCALES.get(name[13:]) if name.startswith("numpy.random.") else None
        keyword, helper = "scale", "scale"
        if name == "numpy.arange":  # `np.arange(a, b, s)`: NumPy's ZeroDivisionError for s == 0
            kinds = [self.types.of(a.value) for a in original.args]
            floats = any(isinstance(k, Scalar) and np.dtype(k.dtype).kind == "f" for k in kinds)
            position, keyword, helper = 2, "step", "arange_float_step" if floats else "arange_step"
        if position is None:
            return updated
        args = list(updated.args)
        for k, (arg, orig) in enumerate(zip(args, original.args)):
            named = arg.keyword.value == keyword if arg.keyword is not None else k == position and not arg.star
            number = isinstance(orig.value, cst.Integer | cst.Float)  # a literal is known: checked if zero
            if named and (not number or float(orig.value.value) == 0) and isinstance(  # type: ignore[attr-defined]
                    self.types.of(orig.value), Scalar):
                args[k] = arg.with_changes(value=self._call(helper, arg.value))
        return updated.with_changes(args=args)

    def _checks(self, call: cst.Call) -> list[cst.Call]:
        name = self.types.calls.effect(call).name
        args = [a.value for a in call.args]
        if any(a.keyword is not None or a.star for a in call.args):
            return []
        owner = call.func.value if isinstance(call.func, cst.Attribute) else None
        if name == ".item" and not args and owner is not None and self._array(owner):
            return [self._call("one_element", _attribute(owner, "size"))]
        if name in _ALLOCATIONS and args and not _nonnegative(args[0], self.nonnegative) and cheap(args[0]):
            return [self._call("nonnegative_dims", args[0])]
        if name == ".reshape" and owner is not None and args and self._array(owner):
            return self._reshape(owner, args)
        if name == "numpy.reshape" and len(args) == 2 and self._array(args[0]):
            return self._reshape(args[0], args[1:])
        return []

    def _reshape(self, array: cst.BaseExpression, shape: Sequence[cst.BaseExpression]) -> list[cst.Call]:
        """`shape`: reshape's arguments after the array, a tuple (`(n, -1)`, `a.shape`) or ints (`n, -1`)."""
        if not all(cheap(s) for s in shape):
            return []
        kinds = [self.types.of(s) for s in shape]
        if len(shape) == 1 and isinstance(kinds[0], Tuple) and all(k == INT for k in kinds[0].items):
            dims = shape[0]
        elif kinds and all(k == INT for k in kinds):
            dims = cst.Tuple([cst.Element(s) for s in shape])
        else:
            return []
        as_array = cst.Call(cst.Name(self.intrinsic("cuvil.runtime.messages", "dims")), [cst.Arg(dims)])
        return [self._call("reshapes", _attribute(array, "size"), as_array)]

    def _assignment(self, target: cst.BaseExpression, value: cst.BaseExpression) -> list[cst.Call]:
        """`view = array` into part of an array (the value evaluated first, as Python does)."""
        if not (isinstance(target, cst.Subscript) and self._array(target) and self._array(value)):
            return []
        shapes: list[cst.BaseExpression] = [_attribute(target, "shape"), _attribute(value, "shape")]
        if all(cast(Array, self.types.of(n)).ndim == 1 for n in (target, value)):  # lengths: checkable (fits_into)
            shapes = [cst.Subscript(s, [cst.SubscriptElement(cst.Index(cst.Integer("0")))]) for s in shapes]
        return [self._call("fits_into", *shapes)]

    def _sequence_into_element(self, target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
        """`a[i] = v` with `a[i]` one element and `v` an array of one or more dims: NumPy's ValueError, once the
        value has been evaluated (only a cheap one: the statement is replaced by the raise)."""
        kind = self.types.of(value)
        return isinstance(target, cst.Subscript) and isinstance(self.types.of(target), Scalar) \
            and isinstance(self.types.of(target.value), Array) and isinstance(kind, Array) and kind.ndim >= 1 \
            and cheap(value) and cheap(target)

    def _unpack(self, target: cst.BaseExpression, value: cst.BaseExpression) \
            -> tuple[cst.Call, cst.BaseExpression | None] | None:
        """`x, y = value` of the wrong length: Python's ValueError. A tuple's length is known: the value is
        padded or cut to the names' count (Numba refuses to compile it as written); an array's is its first dim."""
        if not isinstance(target, cst.Tuple | cst.List) or any(isinstance(e, cst.StarredElement)
                                                                for e in target.elements) or not cheap(value):
            return None
        count, kind = len(target.elements), self.types.of(value)
        if isinstance(kind, Tuple) and len(kind.items) != count and kind.items:
            items = len(kind.items)
            fitted = cst.Tuple([cst.Element(cst.Subscript(value, [cst.SubscriptElement(cst.Index(cst.Integer(
                str(min(k, items - 1)))))])) for k in range(count)])
            return self._call("unpacks", cst.Integer(str(items)), cst.Integer(str(count)), cst.Integer("1")), fitted
        if isinstance(kind, Array) and kind.ndim >= 1:
            first = cst.Subscript(_attribute(value, "shape"), [cst.SubscriptElement(cst.Index(cst.Integer("0")))])
            return self._call("unpacks", first, cst.Integer(str(count)), cst.Integer("0")), None
        return None

    def _array(self, node: cst.BaseExpression) -> bool:
        return isinstance(self.types.of(node), Array) and cheap(node)

    def _call(self, name: str, *args: cst.BaseExpression) -> cst.Call:
        return cst.Call(cst.Name(self.intrinsic(MODULE, name)), [cst.Arg(a) for a in args])


def _attribute(node: cst.BaseExpression, name: str) -> cst.Attribute:
    """`node.name`, with `node` in parentheses unless it binds tighter than `.` (`(a[::-1] + 1).shape`: printed
    bare it was `a[::-1] + 1.shape`, a syntax error in the generated module)."""
    if not (isinstance(node, cst.Name | cst.Attribute | cst.Subscript | cst.Call) or node.lpar):
        node = node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Attribute(node, cst.Name(name))


def _nonnegative(node: cst.BaseExpression, names: set[str]) -> bool:
    """A dim (or tuple of dims) that cannot be negative: a literal, a length, an array's shape or size, a name
    in `names`, or a sum, product or floor quotient of those."""
    if isinstance(node, cst.Tuple):
        return all(_nonnegative(e.value, names) for e in node.elements)
    if isinstance(node, cst.Integer):
        return True
    if isinstance(node, cst.Name):
        return node.value in names
    if isinstance(node, cst.Attribute):
        return node.attr.value in ("shape", "size")
    if isinstance(node, cst.Subscript):
        return _nonnegative(node.value, names)
    if isinstance(node, cst.Call):
        return isinstance(node.func, cst.Name) and node.func.value in _NONNEGATIVE_CALLS
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add | cst.Multiply | cst.FloorDivide):
        return _nonnegative(node.left, names) and _nonnegative(node.right, names)
    return False


def _nonnegative_names(fn: cst.FunctionDef) -> set[str]:
    """The names every binding of which is a nonnegative dim (`n = a.shape[0]`; the lowering's `_d0 = _b0[1]`
    with `_b0 = broadcast_shape(...)`), to a fixpoint. A name bound any other way (a parameter, a loop,
    unpacking, `+=`) is not."""
    bound: dict[str, list[cst.BaseExpression | None]] = {p.name.value: [None] for p in fn.params.params}

    class Collect(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                value = node.value if isinstance(target.target, cst.Name) else None
                for name in bound_names(target.target):
                    bound.setdefault(name, []).append(value)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            for name in bound_names(node.target):
                bound.setdefault(name, []).append(None)

        def visit_For(self, node: cst.For) -> None:
            for name in bound_names(node.target):
                bound.setdefault(name, []).append(None)

    walk(fn.body, Collect())
    names: set[str] = set()
    while True:
        new = {n for n, values in bound.items()
               if all(v is not None and _nonnegative(v, names) for v in values)} - names
        if not new:
            return names
        names |= new


def _always_evaluated(stmt: cst.BaseSmallStatement) -> list[cst.Call]:
    """The calls `stmt` evaluates whenever it runs: not those under `and`/`or`'s right side or a conditional
    expression's arms."""
    found: list[cst.Call] = []

    class Find(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found.append(node)

        def visit_BooleanOperation(self, node: cst.BooleanOperation) -> bool:
            walk(node.left, self)
            return False

        def visit_IfExp(self, node: cst.IfExp) -> bool:
            walk(node.test, self)
            return False

    walk(stmt, Find())
    return found
