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
`x ** k` for k = 2, 3, 4 is multiplied out. Reductions (`sum prod mean max min any all`, whole or along one literal
axis, `keepdims`) accumulate in a loop, float32 sums in float64.

What cannot be lowered is left as it was, for Numba: a statement is lowered only when every operand's type
and rank are known and it does some elementwise work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import libcst as cst
import numpy as np

from ..analysis.shape_eval import Evaluator, State
from ..analysis.shape_rules import Contradiction
from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar, Type
from ..cfg.uses import calls_in, reads_in
from ..normalize.names import Fresh, assigned_names
from ..normalize.origins import origin_of
from .across import across
from .element import ELEMENTWISE_OPS, Element, NotLowered, dtype_attr
from .nest import Alloc, Nest, Stmts, assign, line, loop, subscript
from .reductions import ORDERED, Reduction, spec_of


class Lowering:
    """Lowers the array statements of one function (typed by `types`, shapes in `shapes` per statement)."""

    def __init__(self, types: Types, shapes: dict[int, State], fresh: Fresh, numpy: Callable[[], str],
                 intrinsic: Callable[[str, str], str], cpu: bool = True, parallel: bool = False,
                 direct: frozenset[int] = frozenset()):
        self.types, self.shapes, self.fresh, self.numpy, self.intrinsic = types, shapes, fresh, numpy, intrinsic
        self.cpu = cpu  # reductions along a leading axis in memory order (lower/across.py); CUDA: a lane a thread
        self.chunks = 16 if parallel else 1  # stretches of a leading reduced axis (lower/across.py)
        self.parallel = parallel
        self.direct = direct  # ids of stores the nest may write in place (lower/row_loops.py proved them safe)
        self.loops = 0  # how many of the user's loops the statement being lowered is in (lower/blocks.py)

    def vectorized(self) -> bool:
        """Whether a whole-array reduction's loop runs serially (so in the form LLVM vectorizes, `acc =
        add_any_order(acc, v)`) rather than as a Numba parfor reduction (`acc += v`): always without
        `parallel=True`, and inside a loop of the user's, whose iterations are the work to share (a parallel
        region per iteration costs more than it gains: the row loop of a per-row softmax)."""
        return self.cpu and (not self.parallel or self.loops > 0)

    def statement(self, stmt: cst.BaseStatement) -> list[cst.BaseStatement | Nest] | None:
        """The statement as nests (and plain statements around them), or None to keep it as written."""
        if not isinstance(stmt, cst.SimpleStatementLine) or id(stmt) not in self.shapes:
            return None
        small = stmt.body[0]
        if isinstance(small, cst.AugAssign):
            return self.augmented(stmt, small)
        value = small.value if isinstance(small, cst.Assign | cst.Return) else None
        if isinstance(value, cst.Tuple) and (isinstance(small, cst.Return) or (
                isinstance(small, cst.Assign) and len(small.targets) == 1)):
            return self.tuple(stmt, small, value)
        if value is None or (isinstance(small, cst.Assign) and (
                len(small.targets) != 1 or not isinstance(small.targets[0].target, cst.Name | cst.Subscript))):
            return None
        kind = self.types.of(value)
        builder = _Statement(self, stmt, Evaluator(self.shapes[id(stmt)]))
        into = None  # the nest writes straight into the assigned name when the value does not read it
        existing = False  # into an array that exists (the target's), not a fresh one
        if isinstance(small, cst.Assign):
            target = small.targets[0].target
            if isinstance(target, cst.Subscript) and not (isinstance(kind, Array) and kind.ndim > 0) \
                    and not builder.is_reduction(value):
                return None  # `a[i] = x * y` of numbers; `a[1:] = b + c` goes through a temporary, as in NumPy
            if isinstance(target, cst.Name) and target.value not in {n.value for n in reads_in(value)}:
                into = target.value
            existing = id(stmt) in self.direct and isinstance(target, cst.Subscript) \
                and isinstance(target.value, cst.Name) and not builder.is_reduction(value)
            if existing:  # lower/row_loops.py's `out[:, :] = v`, of v's shape, overlapping nothing v reads
                into = cast(cst.Name, cast(cst.Subscript, target).value).value
        try:
            if isinstance(kind, Array) and kind.ndim > 0 and builder.worth(value):
                result = builder.array(value, kind, into, existing)
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


    def augmented(self, stmt: cst.SimpleStatementLine, small: cst.AugAssign) -> list[cst.BaseStatement | Nest] | None:
        """`e /= e.sum(axis=1, keepdims=True)`: a value holding a reduction is lowered into a temporary first
        (NumPy computes the whole value before it updates `e`, so this is its order), then `e /= _t`. Numba
        has no `keepdims` and no `axis` on max and min, so left as written this would fail in Numba's typing.
        Other updates stay as written: Numba runs `x += a * b` without a temporary."""
        builder = _Statement(self, stmt, Evaluator(self.shapes[id(stmt)]))
        value = small.value
        if not any(builder.is_reduction(node) for node in calls_in(value)):
            return None
        wrapper = value if isinstance(value, cst.Call) and len(value.args) == 2 \
            and self.types.calls.effect(value).name.endswith(".inplace_value") else None
        if wrapper is not None:  # `e -= inplace_value(e, v)` (operands that may overlap, compiler.py): lower v
            value = wrapper.args[1].value
        kind = self.types.of(value)
        try:
            if isinstance(kind, Array) and kind.ndim > 0:
                result = builder.array(value, kind)
            elif isinstance(kind, Scalar) and builder.is_reduction(value):
                result = builder.reduction(value, kind)
            else:
                return None
        except (NotLowered, Contradiction):
            return None
        for nest in builder.nests:
            if isinstance(nest, Nest):
                nest.sources.append(stmt)
        if wrapper is not None:
            result = wrapper.with_changes(args=[wrapper.args[0], wrapper.args[1].with_changes(value=result)])
        return [*builder.nests, stmt.with_changes(body=[small.with_changes(value=result)])]

    def tuple(self, stmt: cst.SimpleStatementLine, small: cst.BaseSmallStatement,
              value: cst.Tuple) -> list[cst.BaseStatement | Nest] | None:
        """`return a + b, np.max(x, axis=0)`: each element lowered on its own, in order, into a temporary. An
        element that is not lowered but evaluated before one that is (`return x[0], x + 1`: an index that may
        raise) is assigned to a temporary first, keeping Python's order."""
        builder = _Statement(self, stmt, Evaluator(self.shapes[id(stmt)]))
        elements: list[cst.BaseElement] = []
        waiting: list[int] = []  # elements kept as written whose evaluation a lowered one must not pass
        changed = False
        for element in value.elements:
            kind = self.types.of(element.value)
            starred = isinstance(element, cst.StarredElement)
            array = not starred and isinstance(kind, Array) and kind.ndim > 0 and builder.worth(element.value)
            reduction = not starred and isinstance(kind, Scalar) and builder.is_reduction(element.value)
            if not (array or reduction):
                if not isinstance(element.value, cst.Name | cst.Integer | cst.Float | cst.Attribute):
                    waiting.append(len(elements))
                elements.append(element)
                continue
            for at in waiting:
                temporary = cst.Name(self.fresh("_e"))
                builder.nests.append(assign(temporary, elements[at].value, origin_of(stmt)))
                elements[at] = elements[at].with_changes(value=temporary)
            waiting.clear()
            try:
                lowered = builder.array(element.value, kind) if isinstance(kind, Array) and array \
                    else builder.reduction(element.value, kind)
            except (NotLowered, Contradiction):
                return None
            elements.append(element.with_changes(value=lowered))
            changed = True
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
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, ELEMENTWISE_OPS):
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
        `a ** b` so), the builtin `abs`, and `np.round` of a bool array (NumPy's `rint`)."""
        name = self.l.types.calls.effect(node).name
        if all(a.keyword is None for a in node.args):
            if name == "cuvil.runtime.intrinsics.py_pow" and len(node.args) == 2:
                return "power"
            if name == "abs" and len(node.args) == 1:
                return "absolute"
            if name in ("numpy.round", "numpy.around") and len(node.args) == 1 \
                    and getattr(self.l.types.of(node.args[0].value), "dtype", None) == "bool":
                return "rint"  # NumPy's round with decimals 0: a float16 of a bool (runtime/rounding.py: others)
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

    def array(self, node: cst.BaseExpression, kind: Array, into: str | None = None,
              existing: bool = False) -> cst.BaseExpression:
        """Lower `node` into a fresh array (named `into`, else a temporary), or with `existing` into the array
        `into` as it is; the expression naming it after."""
        if isinstance(node, cst.Call) and self.is_reduction(node):
            return self.reduction(node, kind, into)
        shape = self.shapes.expr(node)
        if shape is not None and len(shape) != kind.ndim:
            raise NotLowered
        extents = [self.l.fresh("_d") for _ in range(kind.ndim)]
        variables = [self.l.fresh("_i") for _ in range(kind.ndim)]
        pre: Stmts = []
        element = Element(self, node, kind.ndim, variables, pre)
        value = element.build(node)
        keys = element.extents(shape, extents, pre)
        value = element.finish(value)
        out = into or self.l.fresh("_t")
        numpy = self.l.numpy()
        shape_tuple = cst.Tuple([cst.Element(cst.Name(e)) for e in extents])
        empty = cst.Call(cst.Attribute(cst.Name(numpy), cst.Name("empty")),
                         [cst.Arg(shape_tuple), cst.Arg(dtype_attr(numpy, kind.dtype))])
        allocation = assign(cst.Name(out), empty, self.line)
        store = line(cst.Assign([cst.AssignTarget(subscript(cst.Name(out), [cst.Name(v) for v in variables]))],
                                value), self.line)
        body: Stmts = [store]
        for var, extent in reversed(list(zip(variables[1:], extents[1:]))):
            body = [loop(var, cst.Name(extent), body, self.line)]
        if existing:
            self.nests.append(Nest(self.line, pre, [], variables[0], cst.Name(extents[0]), keys[0], body, [],
                                   {*extents, *_bound(pre)}, flags=tuple(element.flags)))
            return cst.Name(out)
        alloc = Alloc(out, tuple(cst.Name(e) for e in extents), kind.dtype, allocation, tuple(keys))
        self.nests.append(Nest(self.line, [*pre, allocation], [alloc], variables[0], cst.Name(extents[0]),
                               keys[0], body, [], {out, *extents, *_bound(pre)}, flags=tuple(element.flags)))
        return cst.Name(out)

    # -- reductions -----------------------------------------------------------------------------------------

    def reduction(self, node: cst.BaseExpression, kind: Type, into: str | None = None) -> cst.BaseExpression:
        assert isinstance(node, cst.Call)
        found = Reduction.parse(node, self.l.types)
        if found is None:
            raise NotLowered
        operand = found.operand
        operand_kind = self.l.types.of(operand)
        if not isinstance(operand_kind, Array) or operand_kind.ndim == 0:
            raise NotLowered
        if found.op in ORDERED and operand_kind.dtype.startswith("complex"):
            raise NotLowered  # NumPy orders complex numbers by real part, then imaginary: Numba's own max
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
        element = Element(self, operand, ndim, variables, pre)
        value = element.build(operand)
        keys = element.extents(shape, extents, pre)
        value = element.finish(value)
        numpy = self.l.numpy()
        lanes = self.l.cpu and axis is not None and axis < ndim - 1  # lanes inside, the reduced axis outside
        position = variables[axis] if axis is not None else variables[0] if ndim == 1 else ""
        spec = spec_of(found, axis, position, lanes, operand_kind.dtype)
        result_dtype = kind.dtype if isinstance(kind, Scalar | Array) else None
        if spec is None or result_dtype is None:
            raise NotLowered
        if axis is None:
            nest = self.whole(spec, value, variables, extents, keys, pre, result_dtype, numpy, into,
                              found.keepdims)
        else:
            nest = self.along(spec, found, value, variables, extents, keys, pre, axis, result_dtype, numpy, into,
                              lanes)
        nest.flags = tuple(element.flags)
        self.nests.append(nest)
        return cst.Name(nest.result)

    def whole(self, spec, value, variables, extents, keys, pre, dtype, numpy, into,
              keepdims=False) -> Nest:
        acc = self.l.fresh("_acc")
        pieces = spec.pieces(acc, value, dtype, numpy, self.l.fresh, self.line, self.l.intrinsic,
                             _product(extents), serial=self.l.vectorized())
        body: Stmts = pieces.update
        for var, extent in reversed(list(zip(variables[1:], extents[1:]))):
            body = [loop(var, cst.Name(extent), body, self.line)]
        result = into or self.l.fresh("_r")
        value_of = pieces.result
        if keepdims:  # NumPy keeps every dim, as 1: an array of one element
            ones = cst.Tuple([cst.Element(cst.Integer("1")) for _ in variables])
            value_of = cst.Call(cst.Attribute(cst.Name(numpy), cst.Name("full")),
                                [cst.Arg(ones), cst.Arg(value_of), cst.Arg(dtype_attr(numpy, dtype))])
        again: Stmts = [*pieces.between, loop(variables[0], cst.Name(extents[0]), pieces.again, self.line)] \
            if pieces.again else []  # argmax of a 1-D array: the first index holding the extreme
        post = [*again, *pieces.finish, assign(cst.Name(result), value_of, self.line)]
        return Nest(self.line, [*pre, *pieces.check, *pieces.init], [], variables[0], cst.Name(extents[0]),
                    keys[0], body, post, {result, acc, *extents, *pieces.names, *_bound(pre)}, result=result)

    def along(self, spec, found, value, variables, extents, keys, pre, axis, dtype, numpy,
              into, lanes: bool) -> Nest:
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
                         [cst.Arg(shape_tuple), cst.Arg(dtype_attr(numpy, dtype))])
        allocation = assign(cst.Name(out), empty, self.line)
        index: list[cst.BaseExpression] = [cst.Name(variables[k]) if k != axis else cst.Integer("0")
                                           for k in range(len(variables))] \
            if found.keepdims else [cst.Name(variables[k]) for k in kept]
        store = assign(subscript(cst.Name(out), index), pieces.result, self.line)
        out_keys = [keys[k] if k != axis else "1" for k in range(len(keys))] if found.keepdims \
            else [keys[k] for k in kept]
        alloc = Alloc(out, tuple(out_dims), dtype, allocation, tuple(out_keys))
        if lanes:
            nest = across(pieces, variables, extents, keys, axis, pre, alloc, store, numpy, self.l.fresh,
                          self.l.chunks, self.line, self.l.intrinsic)
            nest.defines |= _bound(pre)
            return nest
        inner: Stmts = [loop(variables[axis], cst.Name(extents[axis]), pieces.update, self.line)]
        if pieces.again:
            inner += [*pieces.between, loop(variables[axis], cst.Name(extents[axis]), pieces.again, self.line)]
        body: Stmts = [*pieces.init, *inner, *pieces.finish, store]
        for k in reversed(kept[1:]):
            body = [loop(variables[k], cst.Name(extents[k]), body, self.line)]
        first = kept[0]
        return Nest(self.line, [*pre, *pieces.check, allocation], [alloc], variables[first],
                    cst.Name(extents[first]), keys[first], body, [], {out, *extents, *_bound(pre)}, result=out)


def _product(extents: list[str]) -> cst.BaseExpression:
    return _product_of([cst.Name(e) for e in extents])


def _product_of(factors: list[cst.BaseExpression]) -> cst.BaseExpression:
    out = factors[0]
    for factor in factors[1:]:
        out = cst.BinaryOperation(out, cst.Multiply(), factor)
    return out


def _bound(stmts: Stmts) -> set[str]:
    return {name for s in stmts for name in assigned_names(s)}
