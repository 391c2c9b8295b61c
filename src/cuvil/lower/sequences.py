"""A tuple of numbers where NumPy takes an array: converted to one, as NumPy converts it (Numba refuses the tuple).

    np.bitwise_and(mask, v)     →  np.bitwise_and(np.array(mask, np.int64), v)     # mask = (1, 0, 1)
    mask == v                   →  np.array(mask, np.int64) == v                    # v an array
    x + (1.0, 2.0, 3.0)         →  x + np.array((1.0, 2.0, 3.0), np.float64)

Where: an argument of a NumPy ufunc, and an operand of an operator or a comparison whose other operand is an
array (Python gives the tuple's operators way to the array's: tuple + array is NumPy's add, not a concatenation)
or an operation NumPy refuses (it raises before the comparison: the tuple only has to type).
The array's dtype is NumPy's for the elements as array creation sees them: a Python int is int64, a Python float
float64 (`np.asarray((np.float32(1), 2.5))` is float64), NumPy scalars their own. Runs before the lowering types
the function again (lower/program.py), so every later pass sees an array.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Refused, Scalar, Tuple, Type
from ..frontend.walk import walk

_MIRROR: dict[type[cst.BaseCompOp], type[cst.BaseCompOp]] = {
    cst.LessThan: cst.GreaterThan, cst.GreaterThan: cst.LessThan, cst.LessThanEqual: cst.GreaterThanEqual,
    cst.GreaterThanEqual: cst.LessThanEqual, cst.Equal: cst.Equal, cst.NotEqual: cst.NotEqual}


def _dtype(t: Type) -> str | None:
    """The dtype of `np.asarray(t)` for a tuple of numbers; None for anything else."""
    if not isinstance(t, Tuple) or not t.items or not all(isinstance(i, Scalar) for i in t.items):
        return None
    return np.result_type(*(np.dtype(i.dtype) for i in t.items if isinstance(i, Scalar))).name


def _ufunc(name: str) -> bool:
    return name.startswith("numpy.") and isinstance(getattr(np, name[6:], None), np.ufunc)


class Sites(cst.CSTVisitor):
    """The tuple operands to convert, by node identity."""

    def __init__(self, types: Types):
        super().__init__()
        self.types = types
        self.found: dict[int, str] = {}  # id(operand) → its array's dtype
        self.mirrored: set[int] = set()  # comparisons of a tuple (left) with an array: Python asks the array

    def _add(self, node: cst.BaseExpression, other: cst.BaseExpression | None = None) -> None:
        dtype = _dtype(self.types.of(node))
        if dtype is not None and (other is None or isinstance(self.types.of(other), Array | Refused)):
            self.found[id(node)] = dtype

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if not isinstance(node.operator, cst.MatrixMultiply):
            self._add(node.left, node.right)
            self._add(node.right, node.left)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if len(node.comparisons) == 1 and type(node.comparisons[0].operator) in _MIRROR:
            self._add(node.left, node.comparisons[0].comparator)
            self._add(node.comparisons[0].comparator, node.left)
            if id(node.left) in self.found and (_trivial(node.left) or _trivial(node.comparisons[0].comparator)):
                # `t < x` is NumPy's `x > t`: its words name x's shape first. Either side evaluated first gives
                # the same values where one of them is trivial (`(np.float32(1), 2) == x`)
                self.mirrored.add(id(node))

    def visit_Call(self, node: cst.Call) -> None:
        if _ufunc(self.types.calls.effect(node).name):
            for arg in node.args:
                if arg.keyword is None and not arg.star:
                    self._add(arg.value)


def _trivial(node: cst.BaseExpression) -> bool:
    """Evaluated after its neighbour instead of before, or before it, nothing differs: a name, a literal, a tuple
    of these."""
    if isinstance(node, cst.Tuple):
        return all(_trivial(e.value) for e in node.elements)
    if isinstance(node, cst.UnaryOperation):
        return _trivial(node.expression)
    return isinstance(node, cst.Name | cst.Integer | cst.Float)


def sites(fn: cst.FunctionDef, types: Types) -> Sites:
    finder = Sites(types)
    walk(fn.body, finder)
    return finder


class Sequences(cst.CSTTransformer):
    def __init__(self, found: Sites, numpy: Callable[[], str]):
        super().__init__()
        self.found, self.mirrored, self.numpy = found.found, found.mirrored, numpy

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
        if id(original) in self.mirrored and isinstance(updated, cst.Comparison):
            target = updated.comparisons[0]
            return updated.with_changes(left=target.comparator, comparisons=[target.with_changes(
                operator=_MIRROR[type(target.operator)](), comparator=updated.left)])
        dtype = self.found.get(id(original))
        if dtype is None or not isinstance(updated, cst.BaseExpression):
            return updated
        numpy = self.numpy()
        return cst.Call(cst.Attribute(cst.Name(numpy), cst.Name("array")),
                        [cst.Arg(updated.with_changes(lpar=[], rpar=[]) if isinstance(updated, cst.Name)
                                 else updated),
                         cst.Arg(cst.Attribute(cst.Name(numpy), cst.Name("bool_" if dtype == "bool" else dtype)))])
