"""Symbolic shapes: each dim an int, a symbol (`s0`, `s1`, … for dims the variant leaves dynamic) or unknown.

Propagated through indexing, slicing, allocation (`np.empty((n, 3))`, `*_like`), broadcasting (right-aligned,
1 broadcasts), `reshape` (one `-1` solved from the product), matmul and reductions. The analysis is used to
refuse, at compile time and at the user's line, what is *certain* to fail: broadcasting 3 against 4, a matmul
whose inner dims differ, a reshape that changes the size, an argument indexed with more indices than it has
dims. Anything uncertain (a dim unknown, a name bound to arrays of different shapes) is left to run time.

Flow-insensitive on purpose: a name gets a shape only if it is bound exactly once (or is a parameter the
body never rebinds), so no path can see another shape than the one assumed here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import libcst as cst

from ..cfg.build import all_statements
from ..normalize.names import bound_names
from ..normalize.origins import origin_of
from .shape_rules import UNKNOWN, Contradiction, Dim, Shape, Sym, Unknown, broadcast, fmt, matmul, reduce, reshape


@dataclasses.dataclass(frozen=True)
class ShapeError:
    line: int | None
    message: str
    argument: str | None = None


_ALLOCATORS = frozenset({"empty", "zeros", "ones"})
_LIKE = frozenset({"empty_like", "zeros_like", "ones_like", "full_like", "copy"})
_REDUCTIONS = frozenset({"sum", "prod", "min", "max", "mean", "argmin", "argmax", "any", "all", "std", "var"})
_ELEMENTWISE = frozenset({
    "sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "abs", "absolute", "floor", "ceil", "negative",
    "square", "log1p", "expm1", "sign", "arctan", "arcsin", "arccos", "add", "subtract", "multiply",
    "divide", "maximum", "minimum", "power", "where",
})


class _Shapes:
    def __init__(self, fn: cst.FunctionDef, params: Mapping[str, Shape]):
        bindings: dict[str, int] = {}
        for stmt in all_statements(fn):
            for name in _binds(stmt):
                bindings[name] = bindings.get(name, 0) + 1
        self.params = {n: s for n, s in params.items() if n not in bindings}
        self.once = {n for n, c in bindings.items() if c == 1 and n not in params}
        self.env: dict[str, Shape] = dict(self.params)
        self.dims: dict[str, Dim] = {}  # int scalars that hold a dim: `n = x.shape[0]`
        self.unproven: list[cst.SimpleStatementLine] = []  # in-place array updates only run time can check

    def expr(self, node: cst.BaseExpression) -> Shape | None:
        """The shape of `node`, or None when unknown."""
        if isinstance(node, cst.Name):
            return self.env.get(node.value, () if node.value in self.dims else None)
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
        """The value of an int expression when it is a dim: a literal, `x.shape[k]`, `len(x)`, a name of one."""
        if isinstance(node, cst.Integer):
            return int(node.value, 0)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            inner = self.dim(node.expression)
            return -inner if isinstance(inner, int) else UNKNOWN
        if isinstance(node, cst.Name):
            return self.dims.get(node.value, UNKNOWN)
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
        consumed = sum(1 for p in parts if not (isinstance(p, cst.Index) and _is_none(p.value)))
        if consumed > len(base):
            argument = node.value.value if isinstance(node.value, cst.Name) and node.value.value in self.params \
                else None
            what = f"argument '{argument}'" if argument else "an array"
            raise Contradiction(f"{what} has {len(base)} dimension(s) but is indexed with {consumed}", argument)
        out: list[Dim] = []
        axis = 0
        for part in parts:
            if isinstance(part, cst.Index) and _is_none(part.value):
                out.append(1)
                continue
            if isinstance(part, cst.Index):
                index = self.expr(part.value)
                if index is None or index != ():
                    return None  # fancy indexing: not modelled
            else:
                out.append(_slice_len(base[axis], part, self))
            axis += 1
        return tuple(out) + tuple(base[axis:])

    def call(self, node: cst.Call) -> Shape | None:
        func, args = node.func, [a for a in node.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if _is_call(node, "len") or (isinstance(func, cst.Name) and func.value in ("abs", "min", "max", "int",
                                                                                     "float", "round")):
            shapes = [self.expr(a.value) for a in args]
            return () if all(s == () for s in shapes) else None
        if not isinstance(func, cst.Attribute):
            return None
        name = func.attr.value
        owner = func.value
        module = isinstance(owner, cst.Name) and owner.value not in self.env and owner.value not in self.dims
        if module and name in _ALLOCATORS and args:
            return self.dims_of(args[0].value)
        if module and name == "full" and args:
            return self.dims_of(args[0].value)
        if module and name in _LIKE and args:
            return self.expr(args[0].value)
        if module and name in _ELEMENTWISE and args:
            shapes = [self.expr(a.value) for a in args]
            if any(s is None for s in shapes):
                return None
            out: Shape = ()
            for s in shapes:
                out = broadcast(out, s)  # type: ignore[arg-type]
            return out
        if module and name in _REDUCTIONS and args:
            return reduce(self.expr(args[0].value), _axis(keywords.get("axis")))
        if module and name in ("dot", "matmul") and len(args) == 2:
            left, right = self.expr(args[0].value), self.expr(args[1].value)
            return None if left is None or right is None else matmul(left, right)
        if module and name == "reshape" and len(args) == 2:
            return reshape(self.expr(args[0].value), self.dims_of(args[1].value))
        if not module:  # a method of an array
            shape = self.expr(owner)
            if name in _LIKE:
                return shape
            if name in _REDUCTIONS:
                return reduce(shape, _axis(keywords.get("axis") or (args[0].value if args else None)))
            if name == "reshape" and args:
                target = self.dims_of(args[0].value) if len(args) == 1 else tuple(self.dim(a.value) for a in args)
                return reshape(shape, target)
            if name == "astype":
                return shape
        return None

    def assign(self, stmt: cst.SimpleStatementLine) -> None:
        small = stmt.body[0]
        if isinstance(small, cst.Assign):
            shape = self.expr(small.value)
            for target in small.targets:
                if isinstance(target.target, cst.Name) and target.target.value in self.once:
                    name = target.target.value
                    dim = self.dim(small.value)
                    if not isinstance(dim, Unknown):
                        self.dims[name] = dim
                    elif shape is not None:
                        self.env[name] = shape
                elif isinstance(target.target, cst.Subscript):
                    self.subscript(target.target)  # the rank check
        elif isinstance(small, cst.AugAssign):
            into, value = self.expr(small.target), self.expr(small.value)
            if into == () and value != () and isinstance(small.target, cst.Name):
                self.env.pop(small.target.value, None)  # a scalar that becomes an array: unknown from here
                self.dims.pop(small.target.value, None)
            elif into is not None and value is not None:
                result = broadcast(into, value)
                if result != into and all(isinstance(d, int) for d in result):
                    raise Contradiction(f"an in-place update of shape {fmt(into)} with shape {fmt(value)}")
                if result != into or any(isinstance(d, Unknown) for d in result):
                    self.unproven.append(stmt)
            elif into is None or into != ():
                self.unproven.append(stmt)  # an array, or unknown: Numba would not check the shapes
        elif isinstance(small, cst.Expr | cst.Return) and small.value is not None:
            self.expr(small.value)


def _axis(node: cst.BaseExpression | None) -> int | None | Unknown:
    if node is None:
        return None
    return int(node.value, 0) if isinstance(node, cst.Integer) else UNKNOWN


def _slice_len(dim: Dim, part: cst.BaseSlice, shapes: _Shapes) -> Dim:
    assert isinstance(part, cst.Slice)
    if part.lower is None and part.upper is None and part.step is None:
        return dim
    if not isinstance(dim, int):
        return UNKNOWN
    bounds = [shapes.dim(x) if x is not None else None for x in (part.lower, part.upper, part.step)]
    if any(isinstance(b, Sym | Unknown) for b in bounds):
        return UNKNOWN
    return len(range(dim)[slice(*bounds)])  # type: ignore[arg-type]


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _is_call(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == name \
        and len(node.args) == 1


def _binds(stmt: cst.CSTNode) -> set[str]:
    """Names a statement binds anew. `t += a` does not count: on an array it updates in place, keeping the
    shape (and a scalar that it would turn into an array drops out of the analysis in `assign`)."""
    if isinstance(stmt, cst.SimpleStatementLine):
        small = stmt.body[0]
        if isinstance(small, cst.Assign):
            return set().union(*(bound_names(t.target) for t in small.targets))
    if isinstance(stmt, cst.For):
        return bound_names(stmt.target)
    return set()


@dataclasses.dataclass(frozen=True)
class Checked:
    error: ShapeError | None  # the first certain contradiction
    unproven: list[cst.SimpleStatementLine]  # `t += a` whose shapes only run time can check


def check(fn: cst.FunctionDef, params: Mapping[str, Shape]) -> Checked:
    """Certain shape contradictions in `fn` for argument shapes `params` (scalars: `()`), and the in-place
    updates Numba would run unchecked (it writes a (2, 3) array `+=` a (2, 4) one without complaint)."""
    shapes = _Shapes(fn, params)
    for stmt in all_statements(fn):
        try:
            if isinstance(stmt, cst.SimpleStatementLine):
                shapes.assign(stmt)
            elif isinstance(stmt, cst.If | cst.While):
                shapes.expr(stmt.test)
            elif isinstance(stmt, cst.For):
                shapes.expr(stmt.iter)
        except Contradiction as exc:
            return Checked(ShapeError(origin_of(stmt), str(exc), exc.argument), [])
    return Checked(None, shapes.unproven)


def signature_shapes(params: Sequence[str], shapes: Sequence[Sequence[int | None] | None]) -> dict[str, Shape]:
    """Parameter shapes for `check`: per array its sizes, None for a dim left dynamic (named `s0`, `s1`, …
    in order); None for an argument that is not an array."""
    out: dict[str, Shape] = {}
    count = 0
    for name, shape in zip(params, shapes):
        if shape is None:
            continue
        dims: list[Dim] = []
        for size in shape:
            if size is None:
                dims.append(Sym(f"s{count}"))
                count += 1
            else:
                dims.append(size)
        out[name] = tuple(dims)
    return out
