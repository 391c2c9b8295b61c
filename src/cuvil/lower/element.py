"""The element of a whole-array expression at the loop variables (lower/arrays.py builds the loops around it):
each operand indexed as broadcasting aligns it, scalar subexpressions hoisted before the loop, NumPy's meaning of
division and power, and the run-time broadcast checks the shapes analysis could not prove."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import libcst as cst

from ..analysis.shape_rules import Dim, Sym
from ..analysis.type_rules import _OPERATORS
from ..analysis.types import Array, Scalar
from .nest import Stmts, assign, subscript
from .python_ints import fitted, needs_fit, ufunc_inputs

ELEMENTWISE_OPS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
                    cst.BitAnd, cst.BitOr, cst.BitXor, cst.LeftShift, cst.RightShift)
_NUMPY_SEMANTICS = {cst.Divide: "true_divide", cst.FloorDivide: "floor_divide", cst.Modulo: "remainder",
                    cst.Power: "power"}


class NotLowered(Exception):
    """This expression stays NumPy code for Numba."""


if TYPE_CHECKING:
    from .arrays import _Statement


def dtype_attr(numpy: str, dtype: str) -> cst.Attribute:
    return cst.Attribute(cst.Name(numpy), cst.Name("bool_" if dtype == "bool" else dtype))


class Element:
    """The element of an array expression at the loop variables, with its operands' indices."""

    def __init__(self, statement: _Statement, root: cst.BaseExpression, ndim: int, variables: list[str],
                 pre: Stmts):
        self.s, self.ndim, self.variables, self.pre = statement, ndim, variables, pre
        self.leaves: list[tuple[str, int, tuple[Dim, ...] | None]] = []  # (name, rank, known dims)
        self.indices: list[list[cst.BaseExpression]] = []  # per leaf, its index per leaf axis (patched later)
        # The operations in the order NumPy evaluates them, each with its operands: a leaf number, or an
        # earlier operation (another entry), for the broadcast checks run time must make (`extents`).
        self.operations: list[list[Operand]] = []
        self.last: Operand = None  # what the last `build` made: a leaf, an operation, or None (a number)
        self.flags: list[str] = []  # per run-time broadcast, `dim != 1`: the nest is versioned on them (nest.py)
        self.fits: Stmts = []  # Python numbers fitted to a narrow integer dtype, before the loop (after the
        # broadcast checks, as NumPy checks shapes first): `int8_array + 300` raises when the array is empty too

    def hoist(self, value: cst.BaseExpression, base: str) -> str:
        name = self.s.l.fresh(base)
        self.pre.append(assign(cst.Name(name), value, self.s.line))
        return name

    def build(self, node: cst.BaseExpression) -> cst.BaseExpression:
        types = self.s.l.types
        kind = types.of(node)
        if isinstance(kind, Scalar):
            self.last = None
            return self.scalar(node)
        if not isinstance(kind, Array):
            raise NotLowered
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, ELEMENTWISE_OPS):
            return self.binary(node)
        if isinstance(node, cst.UnaryOperation) and not isinstance(node.operator, cst.Not):
            return node.with_changes(expression=_paren(self.build(node.expression)))
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            target = node.comparisons[0]
            left, right = self.operands([node.left, target.comparator])
            return node.with_changes(left=_paren(left), comparisons=[target.with_changes(comparator=_paren(right))])
        if isinstance(node, cst.Call):
            call = self.call(node, kind)
            if call is not None:
                return call
        return self.leaf(node, kind)

    def operands(self, nodes: Sequence[cst.BaseExpression], ufunc: str | None = None) -> list[cst.BaseExpression]:
        """The elements of an operation's operands; the operation recorded for the broadcast checks. A Python
        number that `ufunc` converts to a narrow integer dtype is converted (and checked) once, before the loop."""
        built, refs = [], []
        for node in nodes:
            built.append(self.build(node))
            refs.append(self.last)
        kinds = [self.s.l.types.of(n) for n in nodes]
        inputs = ufunc_inputs(ufunc, kinds) if ufunc else None
        for k, (node, kind) in enumerate(zip(nodes, kinds)):
            if inputs is not None and refs[k] is None and needs_fit(node, kind, inputs[k]):
                name = self.s.l.fresh("_f")
                value = fitted(built[k], kind, inputs[k], self.s.l.numpy(), self.s.l.intrinsic)
                self.fits.append(assign(cst.Name(name), value, self.s.line))
                built[k] = cst.Name(name)
        arrays: list[Operand] = [r for r in refs if r is not None]
        if len(arrays) > 1:
            self.operations.append(arrays)
            self.last = ("op", len(self.operations) - 1)
        else:
            self.last = arrays[0] if arrays else None
        return built

    def scalar(self, node: cst.BaseExpression) -> cst.BaseExpression:
        """A number: as written when it is a name or a literal, else evaluated once before the loop (a
        whole-array reduction in a loop nest of its own)."""
        if isinstance(node, cst.Name | cst.Integer | cst.Float | cst.Imaginary) or (
                isinstance(node, cst.UnaryOperation) and isinstance(node.expression, cst.Integer | cst.Float)):
            return node
        if self.s.is_reduction(node):
            return self.s.reduction(node, self.s.l.types.of(node))
        return cst.Name(self.hoist(node.with_changes(lpar=[], rpar=[]), "_s"))

    def binary(self, node: cst.BinaryOperation) -> cst.BaseExpression:
        power = _small_power(node)
        # Not for halves with NumPy's rounding: NumPy computes a float16 power once in float32 and rounds once,
        # where x * x * x would round to half after each product (lower/precision.py rounds every half result).
        halves = getattr(self.s.l.types.of(node), "dtype", None) == "float16" and self.s.l.types.compute is None
        if power is not None and not halves:
            base = _paren(self.build(node.left))
            out: cst.BaseExpression = base
            for _ in range(power - 1):
                out = cst.BinaryOperation(out, cst.Multiply(), base)
            return out.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        left, right = self.operands([node.left, node.right], _OPERATORS.get(type(node.operator)))
        semantics = _NUMPY_SEMANTICS.get(type(node.operator))
        if semantics is not None:  # NumPy's: inf, nan or 0, never ZeroDivisionError
            name = self.s.l.intrinsic("cuvil.runtime.elementwise", semantics)
            return cst.Call(cst.Name(name), [cst.Arg(left), cst.Arg(right)])
        return cst.BinaryOperation(_paren(left), node.operator, _paren(right))

    def call(self, node: cst.Call, kind: Array) -> cst.BaseExpression | None:
        if self.s.is_reduction(node):  # along an axis: a nest of its own first, then a leaf
            name = self.s.array(node, kind)
            assert isinstance(name, cst.Name)
            return self.leaf(name, kind, known=self.s.shapes.expr(node))
        ufunc = self.s.ufunc(node)
        if ufunc is not None:
            args = [cst.Arg(e) for e in self.operands([a.value for a in node.args], ufunc)]
            return cst.Call(cst.Attribute(cst.Name(self.s.l.numpy()), cst.Name(ufunc)), args)
        other = self.s.elementwise_call(node)
        if other == "power":  # NumPy's meaning on arrays: runtime/elementwise.py
            power = self.s.l.intrinsic("cuvil.runtime.elementwise", "power")
            return cst.Call(cst.Name(power), [cst.Arg(e) for e in self.operands([a.value for a in node.args],
                                                                                 "power")])
        if other is not None:
            args = [cst.Arg(e) for e in self.operands([a.value for a in node.args], other)]
            return cst.Call(cst.Attribute(cst.Name(self.s.l.numpy()), cst.Name(other)), args)
        if self.s.is_where(node):
            cond, yes, no = self.operands([a.value for a in node.args])
            result = getattr(self.s.l.types.of(node), "dtype", None)
            if result is not None:  # each branch in the result's dtype, a Python int wrapped as NumPy's cast
                yes, no = (self._where_branch(b, k, result)
                           for b, k in zip((yes, no), (self.s.l.types.of(a.value) for a in node.args[1:3])))
            return cst.IfExp(test=_paren(cond), body=_paren(yes), orelse=_paren(no),
                             lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        dtype = self.s.astype(node)
        if dtype is not None and isinstance(node.func, cst.Attribute):
            inner = self.build(node.func.value)
            return cst.Call(dtype_attr(self.s.l.numpy(), dtype), [cst.Arg(inner)])
        return None

    def _where_branch(self, branch: cst.BaseExpression, kind: object, dtype: str) -> cst.BaseExpression:
        """A branch of `np.where` in the result's `dtype`: NumPy casts a Python int there as C does
        (`np.where(m, int8_array, 300)` holds 44), so it goes through int64, which lower/casts.py does not check."""
        if getattr(kind, "dtype", None) == dtype and not getattr(kind, "weak", False):
            return branch
        numpy = self.s.l.numpy()
        if isinstance(kind, Scalar) and kind.weak and kind.dtype == "int64" and dtype != "int64":
            branch = cst.Call(dtype_attr(numpy, "int64"), [cst.Arg(branch)])
        return cst.Call(dtype_attr(numpy, dtype), [cst.Arg(branch)])

    def leaf(self, node: cst.BaseExpression, kind: Array,
             known: tuple[Dim, ...] | None = None) -> cst.BaseExpression:
        if kind.ndim > self.ndim:
            raise NotLowered
        if isinstance(node, cst.Name):
            name = node.value
            shape = known if known is not None else self.s.shapes.expr(node)
        else:
            shape = known if known is not None else self.s.shapes.expr(node)
            name = self.hoist(node.with_changes(lpar=[], rpar=[]), "_v")
        self.leaves.append((name, kind.ndim, tuple(shape) if shape is not None and len(shape) == kind.ndim
                            else None))
        self.indices.append([cst.Integer("0")] * kind.ndim)
        self.last = ("leaf", len(self.leaves) - 1)
        return cst.Name(f"__leaf{len(self.leaves) - 1}__")

    def checks(self, pre: Stmts) -> cst.BaseExpression:
        """Each operation's broadcast, in NumPy's order, at run time (NumPy's ValueError for the first that
        fails, with the shapes of its own operands); the expression of the output's shape."""
        shapes: list[cst.BaseExpression] = []
        name = self.s.l.intrinsic("cuvil.runtime.elementwise", "broadcast_shape")

        def shape_of(ref: Operand) -> cst.BaseExpression:
            assert ref is not None
            kind, n = ref
            return cst.Attribute(cst.Name(self.leaves[n][0]), cst.Name("shape")) if kind == "leaf" else shapes[n]

        for operands in self.operations:
            result = self.s.l.fresh("_b")
            shape_tuple = cst.Tuple([cst.Element(shape_of(r)) for r in operands])
            pre.append(assign(cst.Name(result), cst.Call(cst.Name(name), [cst.Arg(shape_tuple)]), self.s.line))
            shapes.append(cst.Name(result))
        return shape_of(self.last)

    def finish(self, element: cst.BaseExpression) -> cst.BaseExpression:
        """The element with each leaf placeholder replaced by the leaf's subscript (known after `extents`); the
        fitted numbers bound after the broadcast checks."""
        self.pre += self.fits
        accesses = {f"__leaf{n}__": subscript(cst.Name(name), index)
                    for n, ((name, _, _), index) in enumerate(zip(self.leaves, self.indices))}
        finished = cst.Expr(element).visit(_Leaves(accesses))
        assert isinstance(finished, cst.Expr)
        return finished.value

    def extents(self, shape: tuple[Dim, ...] | None, names: list[str], pre: Stmts) -> list[str | None]:
        """Bind each output extent before the loop; fix each leaf's index per axis. Returns the extents'
        symbolic keys (for fusion)."""
        keys: list[str | None] = []
        offsets = [self.ndim - rank for _, rank, _ in self.leaves]
        checked: cst.BaseExpression | None = None  # the output's shape, once run time has checked it
        for j in range(self.ndim):
            on_axis = [(n, leaf, dims[j - offsets[n]] if dims is not None else None)
                       for n, (leaf, rank, dims) in enumerate(self.leaves) if j >= offsets[n]]
            out_dim = shape[j] if shape is not None else None
            sized = [d for _, _, d in on_axis if isinstance(d, int | Sym)]
            symbolic = out_dim if isinstance(out_dim, int | Sym) else None
            if symbolic is None and sized and all(d == sized[0] or d == 1 for _, _, d in on_axis):
                symbolic = sized[0] if sized[0] != 1 or all(d == 1 for _, _, d in on_axis) else None
            source = next(((leaf, j - offsets[n]) for n, leaf, d in on_axis if d == symbolic and d is not None), None)
            if isinstance(symbolic, int):
                pre.append(assign(cst.Name(names[j]), cst.Integer(str(symbolic)), self.s.line))
            elif symbolic is not None and source is not None:
                pre.append(assign(cst.Name(names[j]), _dim(*source), self.s.line))
            else:
                if checked is None:
                    checked = self.checks(pre)
                extent = cst.Subscript(checked, [cst.SubscriptElement(cst.Index(cst.Integer(str(j))))])
                pre.append(assign(cst.Name(names[j]), extent, self.s.line))
                symbolic = None
            keys.append(str(symbolic) if symbolic is not None else None)
            for n, leaf, d in on_axis:
                k = j - offsets[n]
                var = cst.Name(self.variables[j])
                if d == 1:
                    self.indices[n][k] = cst.Integer("0")
                elif symbolic is not None and d == symbolic:
                    self.indices[n][k] = var
                else:  # 1 or the extent, known only at run time
                    flag = self.s.l.fresh("_m")
                    test = cst.Comparison(_dim(leaf, k), [cst.ComparisonTarget(cst.NotEqual(), cst.Integer("1"))])
                    pre.append(assign(cst.Name(flag), test, self.s.line))
                    self.flags.append(flag)
                    self.indices[n][k] = cst.BinaryOperation(var, cst.Multiply(), cst.Name(flag))
        return keys


Operand = tuple[str, int] | None  # ("leaf", n) or ("op", n); None: a number, which broadcasts with anything


class _Leaves(cst.CSTTransformer):
    def __init__(self, accesses: dict[str, cst.Subscript]):
        super().__init__()
        self.accesses = accesses

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return self.accesses.get(updated.value, updated)


def _dim(name: str, axis: int) -> cst.Subscript:
    shape = cst.Attribute(cst.Name(name), cst.Name("shape"))
    return cst.Subscript(shape, [cst.SubscriptElement(cst.Index(cst.Integer(str(axis))))])


def _paren(node: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, cst.Name | cst.Integer | cst.Float | cst.Call | cst.Subscript | cst.Attribute) or node.lpar:
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _small_power(node: cst.BinaryOperation) -> int | None:
    if isinstance(node.operator, cst.Power) and isinstance(node.right, cst.Integer):
        k = int(node.right.value, 0)
        return k if 2 <= k <= 4 else None
    return None
