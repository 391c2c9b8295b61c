"""How one statement changes what is known about shapes (analysis/shape_eval.py's `State`), and which in-place
updates need `inplace_value` at run time (runtime/inplace.py)."""

from __future__ import annotations

import operator

import libcst as cst

from ..normalize.names import bound_names
from .shape_eval import ALLOCATORS, ELEMENTWISE, LIKE, REDUCTIONS, Evaluator, IntOp, arith
from .shape_rules import UNKNOWN, Contradiction, Dim, Shape, Unknown, broadcast, numpy_fmt

_FRESH_METHODS = LIKE | REDUCTIONS | {"astype"}
_INT_AUG_OPS: dict[type, IntOp] = {
    cst.AddAssign: operator.add, cst.SubtractAssign: operator.sub, cst.MultiplyAssign: operator.mul,
    cst.FloorDivideAssign: operator.floordiv, cst.ModuloAssign: operator.mod,
}


class Transfer(Evaluator):
    """Moves a `State` past statements."""

    def statement(self, stmt: cst.BaseStatement) -> bool:
        """Move past `stmt`. True for an in-place update only run time can check (see `needs_check`)."""
        if isinstance(stmt, cst.If | cst.While):
            self.expr(stmt.test)
        elif isinstance(stmt, cst.For):
            self.loop_target(stmt)
        elif isinstance(stmt, cst.SimpleStatementLine):
            small = stmt.body[0]
            if isinstance(small, cst.Assign):
                for target in small.targets:
                    self.bind(target.target, self.values(small.value, target.target))
            elif isinstance(small, cst.AnnAssign):
                self.bind(small.target, self.values(small.value, small.target) if small.value is not None else [])
            elif isinstance(small, cst.AugAssign):
                return self.update(small)
            elif isinstance(small, cst.Expr | cst.Return) and small.value is not None:
                self.expr(small.value)
        return False

    def values(self, node: cst.BaseExpression, target: cst.BaseExpression) -> list[tuple[Shape | None, Dim]]:
        """What an assignment's right side gives each target: one (shape, dim), or one per element of a tuple
        unpacked into a tuple of targets. A tuple bound to one name is no array: nothing (`s = a.shape` of a 1-D
        `a` made `s` a scalar, and `s[0]` 'an array indexed with too many indices')."""
        unpacked = isinstance(target, cst.Tuple | cst.List)
        if isinstance(node, cst.Tuple | cst.List) and not any(isinstance(e, cst.StarredElement)
                                                              for e in node.elements):
            if not unpacked:
                return []
            return [(self.expr(e.value), self.dim(e.value)) for e in node.elements]
        if isinstance(node, cst.Attribute) and node.attr.value == "shape":
            shape = self.expr(node.value)
            return [((), d) for d in shape] if shape is not None and unpacked else []
        return [(self.expr(node), self.dim(node))]

    def bind(self, target: cst.BaseExpression, values: list[tuple[Shape | None, Dim]]) -> None:
        if isinstance(target, cst.Subscript):
            if self.expr(target.value) != ():  # a store into a number is Python's TypeError (runtime/diagnose.py)
                self.subscript(target)  # the rank check
            return
        names = bound_names(target)
        for name in names:
            self.state.forget(name)
        if isinstance(target, cst.Tuple | cst.List) and len(values) == len(target.elements) > 1:
            for element, value in zip(target.elements, values):
                self.bind(element.value, [value])
        elif isinstance(target, cst.Name) and len(values) == 1:
            shape, dim = values[0]
            if not isinstance(dim, Unknown):
                self.state.env[target.value], self.state.dims[target.value] = (), dim
            elif shape is not None:
                self.state.env[target.value] = shape

    def loop_target(self, stmt: cst.For) -> None:
        shape = self.expr(stmt.iter)
        for name in bound_names(stmt.target):
            self.state.forget(name)
        if not isinstance(stmt.target, cst.Name):
            return
        if isinstance(stmt.iter, cst.Call) and isinstance(stmt.iter.func, cst.Name) \
                and stmt.iter.func.value == "range":
            self.state.env[stmt.target.value] = ()
        elif shape:
            self.state.env[stmt.target.value] = shape[1:]

    def update(self, small: cst.AugAssign) -> bool:
        """`t op= v`: an array keeps its shape (in place); a scalar takes the result's. Returns whether the
        update needs `inplace_value` at run time."""
        into = self.expr(small.target)
        value = self.expr(small.value)
        target = small.target
        if isinstance(target, cst.Name):
            name = target.value
            dim = arith(_INT_AUG_OPS.get(type(small.operator)), self.state.dims.get(name, UNKNOWN),
                        self.dim(small.value))
            if into == ():  # a scalar: rebound to the result
                self.state.forget(name)
                if value is not None:
                    self.state.env[name] = value
                if value == () and not isinstance(dim, Unknown):
                    self.state.dims[name] = dim
            elif into is None:
                self.state.forget(name)
        return needs_check(into, value, small.value)


def needs_check(into: Shape | None, value: Shape | None, node: cst.BaseExpression) -> bool:
    """Whether `t op= v` (target shape `into`, value shape `value`) needs `inplace_value` at run time: unless
    a side is a scalar, or the shapes are known to fit and `v` is fresh memory that cannot overlap `t`.
    Raises `Contradiction` when the update certainly fails."""
    if into == () or value == ():
        return False
    if into is None or value is None:
        return True
    try:
        result = broadcast(into, value)
    except Contradiction:  # NumPy lists the output operand too
        raise Contradiction(f"operands could not be broadcast together with shapes {numpy_fmt(into)} "
                            f"{numpy_fmt(value)} {numpy_fmt(into)} ") from None
    if result != into and all(isinstance(d, int) for d in result + into):
        raise Contradiction(f"non-broadcastable output operand with shape {numpy_fmt(into)} doesn't match the "
                            f"broadcast shape {numpy_fmt(result)}")
    if result != into or any(isinstance(d, Unknown) for d in result):
        return True  # the target would grow along a dim only run time knows
    return not _fresh(node)


def _fresh(node: cst.BaseExpression) -> bool:
    """`node` evaluates to newly allocated memory (arithmetic, a ufunc, an allocation, `.copy()`), never to a
    view of an existing array."""
    if isinstance(node, cst.BinaryOperation | cst.UnaryOperation | cst.Comparison):
        return True
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
        return False
    name = node.func.attr.value
    if isinstance(node.func.value, cst.Name):  # `np.sqrt(x)`, or a method of a named array
        return name in ALLOCATORS | LIKE | ELEMENTWISE | REDUCTIONS | _FRESH_METHODS | {"full", "dot", "matmul"}
    return name in _FRESH_METHODS


