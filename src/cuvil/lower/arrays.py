"""Whole-array expressions → loop nests over the broadcast shape; reductions → accumulating loops.

    y = 0.5 * x * (1.0 + np.tanh(c * x ** 3))       y = np.empty((x.shape[0],), np.float32)  # L4
                                              →      for _i0 in range(x.shape[0]):  # L4
                                                         y[_i0] = 0.5 * x[_i0] * (1.0 + np.tanh(
                                                             c * (x[_i0] * x[_i0] * x[_i0])))

Each array operand (a *leaf*: a name, or a view or other array hoisted into a temporary) is indexed by the
output's loop variables, right-aligned as broadcasting aligns it: a dim known to be 1 by index 0, a dim known
to equal the output's by the variable, any other by `variable * (dim != 1)` (a stride LLVM versions on).
Extents the shapes analysis cannot prove come from the operands at run time: each operation's broadcast is
checked in NumPy's order (`broadcast_shape`), so a mismatch raises NumPy's ValueError, shapes and all.
Scalar subexpressions are evaluated once, before the loop. Elementwise division,
floor division, remainder and power follow NumPy (inf and nan, no exception: runtime/elementwise.py).
`x ** k` for k = 2, 3, 4 is multiplied out. Reductions (`sum prod mean max min`, whole or along one literal
axis, `keepdims`) accumulate in a loop, float32 sums in float64.

What cannot be lowered is left as it was, for Numba: a statement is lowered only when every operand's type
and rank are known and it does some elementwise work.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst
import numpy as np

from ..analysis.shape_eval import Evaluator, State
from ..analysis.shape_rules import Contradiction, Dim, Sym
from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar, Type
from ..cfg.uses import reads_in
from ..normalize.names import Fresh, assigned_names
from ..normalize.origins import origin_of
from .nest import Alloc, Nest, Stmts, assign, line, loop, subscript
from .reductions import REDUCTIONS, Reduction

_ELEMENTWISE_OPS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
                    cst.BitAnd, cst.BitOr, cst.BitXor, cst.LeftShift, cst.RightShift)
_NUMPY_SEMANTICS = {cst.Divide: "true_divide", cst.FloorDivide: "floor_divide", cst.Modulo: "remainder",
                    cst.Power: "power"}


class NotLowered(Exception):
    """This expression stays NumPy code for Numba."""


class Lowering:
    """Lowers the array statements of one function (typed by `types`, shapes in `shapes` per statement)."""

    def __init__(self, types: Types, shapes: dict[int, State], fresh: Fresh, numpy: Callable[[], str],
                 intrinsic: Callable[[str, str], str]):
        self.types, self.shapes, self.fresh, self.numpy, self.intrinsic = types, shapes, fresh, numpy, intrinsic

    def statement(self, stmt: cst.BaseStatement) -> list[cst.BaseStatement | Nest] | None:
        """The statement as nests (and plain statements around them), or None to keep it as written."""
        if not isinstance(stmt, cst.SimpleStatementLine) or id(stmt) not in self.shapes:
            return None
        small = stmt.body[0]
        value = small.value if isinstance(small, cst.Assign | cst.Return) else None
        if isinstance(value, cst.Tuple) and (isinstance(small, cst.Return) or (
                isinstance(small, cst.Assign) and len(small.targets) == 1)):
            return self.tuple(stmt, small, value)
        if value is None or (isinstance(small, cst.Assign) and (
                len(small.targets) != 1 or not isinstance(small.targets[0].target, cst.Name))):
            return None
        kind = self.types.of(value)
        builder = _Statement(self, stmt, Evaluator(self.shapes[id(stmt)]))
        into = None  # the nest writes straight into the assigned name when the value does not read it
        if isinstance(small, cst.Assign):
            target = small.targets[0].target
            assert isinstance(target, cst.Name)
            if target.value not in {n.value for n in reads_in(value)}:
                into = target.value
        try:
            if isinstance(kind, Array) and kind.ndim > 0 and builder.worth(value):
                result = builder.array(value, kind, into)
            elif isinstance(kind, Scalar) and builder.is_reduction(value):
                result = builder.reduction(value, kind, into)
            else:
                return None
        except (NotLowered, Contradiction):  # a certain shape error stays code that raises it at run time
            return None
        for nest in builder.nests:
            if isinstance(nest, Nest):
                nest.sources.append(stmt)
        origin = origin_of(stmt)
        if isinstance(small, cst.Return):
            return [*builder.nests, line(cst.Return(result), origin)]
        if into is not None:
            return builder.nests
        assert isinstance(small, cst.Assign)
        return [*builder.nests, assign(small.targets[0].target, result, origin)]


    def tuple(self, stmt: cst.SimpleStatementLine, small: cst.BaseSmallStatement,
              value: cst.Tuple) -> list[cst.BaseStatement | Nest] | None:
        """`return a + b, np.max(x, axis=0)`: each element lowered on its own, in order, into a temporary."""
        builder = _Statement(self, stmt, Evaluator(self.shapes[id(stmt)]))
        elements = []
        changed = False
        for element in value.elements:
            kind = self.types.of(element.value)
            try:
                if isinstance(kind, Array) and kind.ndim > 0 and builder.worth(element.value):
                    elements.append(element.with_changes(value=builder.array(element.value, kind)))
                    changed = True
                    continue
                if isinstance(kind, Scalar) and builder.is_reduction(element.value):
                    elements.append(element.with_changes(value=builder.reduction(element.value, kind)))
                    changed = True
                    continue
            except (NotLowered, Contradiction):
                return None
            if not isinstance(element.value, cst.Name | cst.Integer | cst.Float | cst.Attribute):
                return None  # its evaluation would move past the lowered ones: keep Python's order
            elements.append(element)
        if not changed:
            return None
        for nest in builder.nests:
            if isinstance(nest, Nest):
                nest.sources.append(stmt)
        rebuilt = stmt.with_changes(body=[small.with_changes(value=value.with_changes(elements=elements))])
        return [*builder.nests, rebuilt]


class _Statement:
    """The nests of one statement, in evaluation order."""

    def __init__(self, lowering: Lowering, stmt: cst.BaseStatement, shapes: Evaluator):
        self.l, self.shapes = lowering, shapes
        self.line = origin_of(stmt)
        self.nests: list[cst.BaseStatement | Nest] = []

    # -- what is worth lowering -----------------------------------------------------------------------------

    def worth(self, node: cst.BaseExpression) -> bool:
        """Some elementwise work (or a reduction along an axis) to do; `y = x` or `y = x.copy()` is not."""
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _ELEMENTWISE_OPS):
            return True
        if isinstance(node, cst.UnaryOperation | cst.Comparison):
            return True
        if isinstance(node, cst.Call):
            return self.ufunc(node) is not None or self.is_reduction(node) or self.is_where(node) \
                or self.astype(node) is not None or self.elementwise_call(node) is not None
        return False

    def ufunc(self, node: cst.Call) -> str | None:
        name = self.l.types.calls.effect(node).name
        if name.startswith("numpy.") and isinstance(getattr(np, name[6:], None), np.ufunc) \
                and getattr(np, name[6:]).nout == 1 and all(a.keyword is None for a in node.args) \
                and len(node.args) == getattr(np, name[6:]).nin:
            return name[6:]
        return None

    def elementwise_call(self, node: cst.Call) -> str | None:
        """Calls that are elementwise NumPy functions under another name: Python's power (the front end wrote
        `a ** b` so), and the builtin `abs`."""
        name = self.l.types.calls.effect(node).name
        if all(a.keyword is None for a in node.args):
            if name == "cuvil.runtime.intrinsics.py_pow" and len(node.args) == 2:
                return "power"
            if name == "abs" and len(node.args) == 1:
                return "absolute"
        return None

    def is_where(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Call) and self.l.types.calls.effect(node).name == "numpy.where" \
            and len(node.args) == 3 and all(a.keyword is None for a in node.args)

    def astype(self, node: cst.Call) -> str | None:
        if self.l.types.calls.effect(node).name == ".astype":
            kind = self.l.types.of(node)
            return kind.dtype if isinstance(kind, Array) else None
        return None

    def is_reduction(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Call) and Reduction.parse(node, self.l.types) is not None

    # -- array results --------------------------------------------------------------------------------------

    def array(self, node: cst.BaseExpression, kind: Array, into: str | None = None) -> cst.BaseExpression:
        """Lower `node` into a fresh array (named `into`, else a temporary); the expression naming it after."""
        if isinstance(node, cst.Call) and self.is_reduction(node):
            return self.reduction(node, kind, into)
        shape = self.shapes.expr(node)
        if shape is not None and len(shape) != kind.ndim:
            raise NotLowered
        extents = [self.l.fresh("_d") for _ in range(kind.ndim)]
        variables = [self.l.fresh("_i") for _ in range(kind.ndim)]
        pre: Stmts = []
        element = _Element(self, node, kind.ndim, variables, pre)
        value = element.build(node)
        keys = element.extents(shape, extents, pre)
        value = element.finish(value)
        out = into or self.l.fresh("_t")
        numpy = self.l.numpy()
        shape_tuple = cst.Tuple([cst.Element(cst.Name(e)) for e in extents])
        empty = cst.Call(cst.Attribute(cst.Name(numpy), cst.Name("empty")),
                         [cst.Arg(shape_tuple), cst.Arg(_dtype(numpy, kind.dtype))])
        allocation = assign(cst.Name(out), empty, self.line)
        store = line(cst.Assign([cst.AssignTarget(subscript(cst.Name(out), [cst.Name(v) for v in variables]))],
                                value), self.line)
        body: Stmts = [store]
        for var, extent in reversed(list(zip(variables[1:], extents[1:]))):
            body = [loop(var, cst.Name(extent), body, self.line)]
        alloc = Alloc(out, tuple(cst.Name(e) for e in extents), kind.dtype, allocation, tuple(keys))
        self.nests.append(Nest(self.line, [*pre, allocation], [alloc], variables[0], cst.Name(extents[0]),
                               keys[0], body, [], {out, *extents, *_bound(pre)}))
        return cst.Name(out)

    # -- reductions -----------------------------------------------------------------------------------------

    def reduction(self, node: cst.BaseExpression, kind: Type, into: str | None = None) -> cst.BaseExpression:
        assert isinstance(node, cst.Call)
        found = Reduction.parse(node, self.l.types)
        if found is None or found.op not in REDUCTIONS:
            raise NotLowered
        operand = found.operand
        operand_kind = self.l.types.of(operand)
        if not isinstance(operand_kind, Array) or operand_kind.ndim == 0:
            raise NotLowered
        shape = self.shapes.expr(operand)
        ndim = operand_kind.ndim
        axis = found.axis if found.axis is None or found.axis >= 0 else found.axis + ndim
        if axis is not None and not 0 <= axis < ndim:
            raise NotLowered
        if axis is not None and ndim == 1:
            axis = None  # along the only axis: the whole array (keepdims keeps it as one element)
        extents = [self.l.fresh("_d") for _ in range(ndim)]
        variables = [self.l.fresh("_i") for _ in range(ndim)]
        pre: Stmts = []
        element = _Element(self, operand, ndim, variables, pre)
        value = element.build(operand)
        keys = element.extents(shape, extents, pre)
        value = element.finish(value)
        numpy = self.l.numpy()
        spec = REDUCTIONS[found.op]
        result_dtype = kind.dtype if isinstance(kind, Scalar | Array) else None
        if result_dtype is None:
            raise NotLowered
        if axis is None:
            return self.whole(spec, value, variables, extents, keys, pre, result_dtype, numpy, into,
                              found.keepdims)
        return self.along(spec, found, value, variables, extents, keys, pre, axis, result_dtype, numpy, into)

    def whole(self, spec, value, variables, extents, keys, pre, dtype, numpy, into,
              keepdims=False) -> cst.BaseExpression:
        acc = self.l.fresh("_acc")
        pieces = spec.pieces(acc, value, dtype, numpy, self.l.fresh, self.line, self.l.intrinsic,
                             _product(extents))
        body: Stmts = pieces.update
        for var, extent in reversed(list(zip(variables[1:], extents[1:]))):
            body = [loop(var, cst.Name(extent), body, self.line)]
        result = into or self.l.fresh("_r")
        value_of = pieces.result
        if keepdims:  # NumPy keeps every dim, as 1: an array of one element
            ones = cst.Tuple([cst.Element(cst.Integer("1")) for _ in variables])
            value_of = cst.Call(cst.Attribute(cst.Name(numpy), cst.Name("full")),
                                [cst.Arg(ones), cst.Arg(value_of), cst.Arg(_dtype(numpy, dtype))])
        post = [*pieces.finish, assign(cst.Name(result), value_of, self.line)]
        self.nests.append(Nest(self.line, [*pre, *pieces.check, *pieces.init], [], variables[0],
                               cst.Name(extents[0]), keys[0], body, post,
                               {result, acc, *extents, *pieces.names, *_bound(pre)}))
        return cst.Name(result)

    def along(self, spec, found, value, variables, extents, keys, pre, axis, dtype, numpy,
              into) -> cst.BaseExpression:
        """Along one axis: the output's loops outside (the first one fused and parallelized), the reduced
        axis innermost, a private accumulator per output element."""
        acc = self.l.fresh("_acc")
        kept = [k for k in range(len(variables)) if k != axis]
        if not kept:
            raise NotLowered
        pieces = spec.pieces(acc, value, dtype, numpy, self.l.fresh, self.line, self.l.intrinsic,
                             cst.Name(extents[axis]), serial=True)
        out = into or self.l.fresh("_t")
        out_dims = [cst.Name(extents[k]) if k != axis else cst.Integer("1") for k in range(len(extents))] \
            if found.keepdims else [cst.Name(extents[k]) for k in kept]
        shape_tuple = cst.Tuple([cst.Element(d) for d in out_dims])
        empty = cst.Call(cst.Attribute(cst.Name(numpy), cst.Name("empty")),
                         [cst.Arg(shape_tuple), cst.Arg(_dtype(numpy, dtype))])
        allocation = assign(cst.Name(out), empty, self.line)
        index: list[cst.BaseExpression] = [cst.Name(variables[k]) if k != axis else cst.Integer("0")
                                           for k in range(len(variables))] \
            if found.keepdims else [cst.Name(variables[k]) for k in kept]
        store = assign(subscript(cst.Name(out), index), pieces.result, self.line)
        inner: Stmts = [loop(variables[axis], cst.Name(extents[axis]), pieces.update, self.line)]
        body: Stmts = [*pieces.init, *inner, *pieces.finish, store]
        for k in reversed(kept[1:]):
            body = [loop(variables[k], cst.Name(extents[k]), body, self.line)]
        first = kept[0]
        out_keys = [keys[k] if k != axis else "1" for k in range(len(keys))] if found.keepdims \
            else [keys[k] for k in kept]
        alloc = Alloc(out, tuple(out_dims), dtype, allocation, tuple(out_keys))
        self.nests.append(Nest(self.line, [*pre, *pieces.check, allocation], [alloc], variables[first],
                               cst.Name(extents[first]), keys[first], body, [], {out, *extents, *_bound(pre)}))
        return cst.Name(out)


def _product(extents: list[str]) -> cst.BaseExpression:
    return _product_of([cst.Name(e) for e in extents])


def _product_of(factors: list[cst.BaseExpression]) -> cst.BaseExpression:
    out = factors[0]
    for factor in factors[1:]:
        out = cst.BinaryOperation(out, cst.Multiply(), factor)
    return out


def _bound(stmts: Stmts) -> set[str]:
    return {name for s in stmts for name in assigned_names(s)}


def _dtype(numpy: str, dtype: str) -> cst.Attribute:
    return cst.Attribute(cst.Name(numpy), cst.Name("bool_" if dtype == "bool" else dtype))


class _Element:
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
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _ELEMENTWISE_OPS):
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

    def operands(self, nodes: Sequence[cst.BaseExpression]) -> list[cst.BaseExpression]:
        """The elements of an operation's operands; the operation recorded for the broadcast checks."""
        built, refs = [], []
        for node in nodes:
            built.append(self.build(node))
            refs.append(self.last)
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
        if power is not None:
            base = _paren(self.build(node.left))
            out: cst.BaseExpression = base
            for _ in range(power - 1):
                out = cst.BinaryOperation(out, cst.Multiply(), base)
            return out.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        left, right = self.operands([node.left, node.right])
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
            args = [cst.Arg(e) for e in self.operands([a.value for a in node.args])]
            return cst.Call(cst.Attribute(cst.Name(self.s.l.numpy()), cst.Name(ufunc)), args)
        other = self.s.elementwise_call(node)
        if other == "power":  # NumPy's meaning on arrays: runtime/elementwise.py
            power = self.s.l.intrinsic("cuvil.runtime.elementwise", "power")
            return cst.Call(cst.Name(power), [cst.Arg(e) for e in self.operands([a.value for a in node.args])])
        if other is not None:
            args = [cst.Arg(e) for e in self.operands([a.value for a in node.args])]
            return cst.Call(cst.Attribute(cst.Name(self.s.l.numpy()), cst.Name(other)), args)
        if self.s.is_where(node):
            cond, yes, no = self.operands([a.value for a in node.args])
            return cst.IfExp(test=_paren(cond), body=_paren(yes), orelse=_paren(no),
                             lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        dtype = self.s.astype(node)
        if dtype is not None and isinstance(node.func, cst.Attribute):
            inner = self.build(node.func.value)
            return cst.Call(_dtype(self.s.l.numpy(), dtype), [cst.Arg(inner)])
        return None

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
        """The element with each leaf placeholder replaced by the leaf's subscript (known after `extents`)."""
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
