"""What one program point knows about shapes (a `State`), and the shape of each expression there.

A `State` holds, per name, its shape (scalars: `()`) and, for an int that holds a dim or a literal, its value
(`n = x.shape[0]`, `n = 3; n -= 2`). analysis/shape_transfer.py applies a statement to a state, analysis/shapes.py
runs that over the CFG. Rules raise `Contradiction` only when dims that are known certainly disagree.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable

import libcst as cst
import numpy as np

from ..library import numpy as library
from .shape_rules import (
    UNKNOWN,
    Contradiction,
    Dim,
    Shape,
    Sym,
    Unknown,
    broadcast,
    elementwise,
    matmul,
    reduce,
    reshape,
)

# From the library table's kinds (library/numpy.py), the one place that knows what calls give.
ALLOCATORS = library.named("allocate") - {"full"}  # `full` is modelled on its own (its fill argument)
LIKE = library.named("like") - {"array", "asarray", "ascontiguousarray"}  # those may also take a list or number
REDUCTIONS = library.named("sum", "mean", "extreme", "index", "logical") - {"cumsum", "cumprod"}
ELEMENTWISE = library.named("ufunc") | {"where"}
IntOp = Callable[[int, int], int]
_INT_OPS: dict[type, IntOp] = {
    cst.Add: operator.add, cst.Subtract: operator.sub, cst.Multiply: operator.mul,
    cst.FloorDivide: operator.floordiv, cst.Modulo: operator.mod,
}


@dataclasses.dataclass
class State:
    env: dict[str, Shape]  # names whose shape is known
    dims: dict[str, Dim]  # int scalars whose value is known (each also in env, as `()`)
    args: set[str]  # parameters that still hold the caller's argument: errors name them

    def copy(self) -> State:
        return State(dict(self.env), dict(self.dims), set(self.args))

    def forget(self, name: str) -> None:
        self.env.pop(name, None)
        self.dims.pop(name, None)
        self.args.discard(name)


def join(a: State | None, b: State | None) -> State | None:
    """What holds after either `a` or `b` (None: a path not taken). Arrays of one rank keep their common dims.

    A name that is a scalar on one path is a scalar after the join even where the other path does not know
    (`d = 0.0` before a loop, `d += x[i]` in it): Numba gives a variable one type where paths join, and no
    scalar type unifies with an array, so a program in which it is an array there does not compile."""
    if a is None or b is None:
        either = a if a is not None else b
        return either.copy() if either is not None else None
    env: dict[str, Shape] = {}
    for name in a.env.keys() | b.env.keys():
        shape, other = a.env.get(name), b.env.get(name)
        if shape == other or shape is None or other is None:
            if shape in ((), None) and other in ((), None):
                env[name] = ()
            elif shape == other:
                env[name] = shape  # type: ignore[assignment]
        elif len(other) == len(shape) and shape:
            env[name] = tuple(x if x == y else UNKNOWN for x, y in zip(shape, other))
    dims = {n: d for n, d in a.dims.items() if b.dims.get(n) == d}
    return State(env, dims, a.args & b.args)


class Evaluator:
    """Shapes at one program point; `statement` moves the point past one statement."""

    def __init__(self, state: State):
        self.state = state

    def expr(self, node: cst.BaseExpression) -> Shape | None:
        """The shape of `node`, or None when unknown. Looks only into parts that are always evaluated."""
        if isinstance(node, cst.Name):
            return self.state.env.get(node.value)
        if isinstance(node, cst.Integer | cst.Float | cst.Imaginary):
            return ()
        if isinstance(node, cst.UnaryOperation):
            return self.expr(node.expression)
        if isinstance(node, cst.BinaryOperation):
            left, right = self.expr(node.left), self.expr(node.right)
            if isinstance(node.operator, cst.MatrixMultiply):
                return None if left is None or right is None else matmul(left, right)
            return None if left is None or right is None else broadcast(left, right)
        if isinstance(node, cst.Subscript):
            return self.subscript(node)
        if isinstance(node, cst.Call):
            return self.call(node)
        if isinstance(node, cst.Attribute) and node.attr.value == "T":
            inner = self.expr(node.value)
            return None if inner is None else tuple(reversed(inner))
        return None

    def dim(self, node: cst.BaseExpression) -> Dim:
        """The value of an int expression when it is known: a literal, `x.shape[k]`, `len(x)`, a name holding
        one, or + - * // % of known ints."""
        if isinstance(node, cst.Integer):
            return int(node.value, 0)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            inner = self.dim(node.expression)
            return -inner if isinstance(inner, int) else UNKNOWN
        if isinstance(node, cst.BinaryOperation) and type(node.operator) in _INT_OPS:
            return arith(_INT_OPS[type(node.operator)], self.dim(node.left), self.dim(node.right))
        if isinstance(node, cst.Name):
            return self.state.dims.get(node.value, UNKNOWN)
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) \
                and node.value.attr.value == "shape" and len(node.slice) == 1:
            shape = self.expr(node.value.value)
            index = node.slice[0].slice
            if shape is not None and isinstance(index, cst.Index) and isinstance(index.value, cst.Integer):
                k = int(index.value.value, 0)
                return shape[k] if -len(shape) <= k < len(shape) else UNKNOWN
        if _is_call(node, "len"):
            assert isinstance(node, cst.Call)
            shape = self.expr(node.args[0].value)
            return shape[0] if shape else UNKNOWN
        return UNKNOWN

    def dims_of(self, node: cst.BaseExpression) -> Shape | None:
        """A shape argument: `(n, 3)`, `n`, `x.shape`."""
        if isinstance(node, cst.Tuple):
            return tuple(self.dim(e.value) for e in node.elements)
        if isinstance(node, cst.Attribute) and node.attr.value == "shape":
            return self.expr(node.value)
        dim = self.dim(node)
        return None if isinstance(dim, Unknown) else (dim,)  # e.g. a global tuple: rank unknown

    def subscript(self, node: cst.Subscript) -> Shape | None:
        base = self.expr(node.value)
        if base is None:
            return None
        parts = [e.slice for e in node.slice]
        if len(parts) == 1 and isinstance(parts[0], cst.Index) and isinstance(parts[0].value, cst.Tuple):
            parts = [cst.Index(e.value) for e in parts[0].value.elements]
        if any(isinstance(p, cst.Index) and isinstance(p.value, cst.Ellipsis) for p in parts):
            return None  # `...` takes as many dims as the others leave: not modelled
        consumed = sum(1 for p in parts if not (isinstance(p, cst.Index) and _is_new_axis(p.value)))
        if consumed > len(base):
            name = node.value.value if isinstance(node.value, cst.Name) else None
            argument = name if name in self.state.args else None
            if not base:  # a number or a 0-d array: each has its own words (runtime/mistakes.py, from the types)
                return None
            raise Contradiction(f"too many indices for array: array is {len(base)}-dimensional, but {consumed} were "
                                "indexed" + (f" (argument '{argument}')" if argument else ""), argument, index=True)
        out: list[Dim] = []
        axis = 0
        for part in parts:
            if isinstance(part, cst.Index) and _is_new_axis(part.value):
                out.append(1)
                continue
            if isinstance(part, cst.Index):
                index = self.expr(part.value)
                if index is None or index != ():
                    return None  # fancy indexing: not modelled
            else:
                out.append(self.slice_len(base[axis], part))
            axis += 1
        return tuple(out) + tuple(base[axis:])

    def slice_len(self, dim: Dim, part: cst.BaseSlice) -> Dim:
        assert isinstance(part, cst.Slice)
        if part.lower is None and part.upper is None and part.step is None:
            return dim
        if not isinstance(dim, int):
            return UNKNOWN
        bounds = [self.dim(x) if x is not None else None for x in (part.lower, part.upper, part.step)]
        if any(isinstance(b, Sym | Unknown) for b in bounds) or bounds[2] == 0:
            return UNKNOWN
        return len(range(dim)[slice(*bounds)])  # type: ignore[arg-type]

    def call(self, node: cst.Call) -> Shape | None:
        func, args = node.func, [a for a in node.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if _is_call(node, "len") or (isinstance(func, cst.Name) and func.value in ("abs", "min", "max", "int",
                                                                                     "float", "round")):
            shapes = [self.expr(a.value) for a in args]
            return () if all(s == () for s in shapes) else None
        if not isinstance(func, cst.Attribute):
            return None
        name, owner = func.attr.value, func.value
        if _is_module(owner, self.state):
            return self.module_call(name, args, keywords)
        shape = self.expr(owner)  # a method of an array
        if name in LIKE or name == "astype":
            return shape
        if name in REDUCTIONS:
            return reduce(shape, _axis(keywords.get("axis") or (args[0].value if args else None)),
                          _true(keywords.get("keepdims")))
        if name == "reshape" and args:
            target = self.dims_of(args[0].value) if len(args) == 1 else tuple(self.dim(a.value) for a in args)
            return reshape(shape, target)
        return None

    def module_call(self, name: str, args: list[cst.Arg], keywords: dict[str, cst.BaseExpression]) -> Shape | None:
        if not args:
            return None
        if name in ALLOCATORS or name == "full":
            return self.dims_of(args[0].value)
        if name in LIKE:
            return self.expr(args[0].value)
        if name in ELEMENTWISE and (name != "where" or len(args) == 3):
            shapes = [self.expr(a.value) for a in args]
            out = keywords.get("out")
            outs = [e.value for e in out.elements] if isinstance(out, cst.Tuple) else [] if out is None else [out]
            shapes += [self.expr(o) for o in outs]
            ufunc = getattr(np, name, None)
            nin = ufunc.nin if isinstance(ufunc, np.ufunc) else len(args)
            if any(s is None for s in shapes):
                return None
            return elementwise(shapes[:nin], shapes[nin:])  # type: ignore[arg-type]
        if name in REDUCTIONS:
            return reduce(self.expr(args[0].value), _axis(keywords.get("axis")), _true(keywords.get("keepdims")))
        if name in ("dot", "matmul") and len(args) == 2:
            left, right = self.expr(args[0].value), self.expr(args[1].value)
            return None if left is None or right is None else matmul(left, right, dot=name == "dot")
        if name == "reshape" and len(args) == 2:
            return reshape(self.expr(args[0].value), self.dims_of(args[1].value))
        return None


def arith(fn: IntOp | None, left: Dim, right: Dim) -> Dim:
    """`left op right` for known ints (Python's // and %); unknown otherwise, and for a division by zero."""
    if fn is None or not (isinstance(left, int) and isinstance(right, int)):
        return UNKNOWN
    if fn in (operator.floordiv, operator.mod) and right == 0:
        return UNKNOWN  # ZeroDivisionError: Python's to raise at run time
    return fn(left, right)


def _axis(node: cst.BaseExpression | None) -> int | None | Unknown:
    if node is None or isinstance(node, cst.Name) and node.value == "None":
        return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) \
            and isinstance(node.expression, cst.Integer):
        return -int(node.expression.value, 0)
    return int(node.value, 0) if isinstance(node, cst.Integer) else UNKNOWN


def _true(node: cst.BaseExpression | None) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def _is_module(node: cst.BaseExpression, state: State) -> bool:
    return isinstance(node, cst.Name) and node.value not in state.env


def _is_new_axis(node: cst.BaseExpression) -> bool:
    """`None`, or `np.newaxis` (which is None)."""
    if isinstance(node, cst.Name):
        return node.value == "None"
    return isinstance(node, cst.Attribute) and node.attr.value == "newaxis" and isinstance(node.value, cst.Name)


def _is_call(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == name \
        and len(node.args) == 1
