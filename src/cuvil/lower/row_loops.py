"""A loop over the rows (or columns) of a 2-D array whose body is array code on that one row, as one array
computation over the whole array (issue 40): reductions of the row become reductions along the row's axis, a
value per row an array with that axis kept, the store into `out[i]` a store into all of `out`.

    for i in range(X.shape[0]):        if whole_rows(X.shape[0] > 0 and out.shape == X.shape and not overlaps(out, X)):
        row = X[i]                         _m0 = np.max(X, axis=1, keepdims=True)
        m = row.max()                      _e0 = np.exp(X - _m0)
        e = np.exp(row - m)                out[:, :] = _e0 / np.sum(_e0, axis=1, keepdims=True)
        out[i] = e / e.sum()           else:
                                           for i in range(X.shape[0]): …   (the loop as written)

The array lowering then makes of it what it makes of the axis spelling: nests in memory order, the row loop
fused and parallel, no temporary per row. Each iteration touches only row i of every array it writes, so the
two orders give the same values; what run time alone can tell is tested first, and the loop as written runs
when it fails: arrays of other shapes (their errors are the loop's, at its iteration), no rows (a reduction
without identity raises only if a row exists), and written arrays that overlap others. Only straight-line
bodies of elementwise arithmetic, NumPy ufuncs and reductions of the whole row are taken; a value the body
computes and the loop index must not be read after the loop.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar
from ..cfg.build import all_statements, statements
from ..cfg.uses import reads_in
from ..normalize.names import Fresh, assigned_names
from ..normalize.origins import origin_of, with_origin
from .reductions import Reduction

# What a value is, per iteration: a row-shaped array ("row"), a number ("number", kept as an array with the
# row's axis of length 1), an index of a row's element (argmax: only stored), or the same in every iteration
# ("same": a literal, a parameter, a 1-D array across the row ("across", rows only)).
_ROW, _NUMBER, _INDEX, _SAME, _ACROSS = "row", "number", "index", "same", "across"
_REDUCE = ("sum", "prod", "mean", "max", "min", "var", "std", "any", "all")
_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power)
_COMPARE = (cst.Equal, cst.NotEqual, cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)


class _No(Exception):
    """The loop stays as written."""


def _combine(*kinds: str) -> str:
    if _INDEX in kinds:
        raise _No
    if _ROW in kinds or (_ACROSS in kinds and _NUMBER in kinds):
        return _ROW
    if _NUMBER in kinds:
        return _NUMBER
    return _ACROSS if _ACROSS in kinds else _SAME


class _Body:
    """One loop's body, rewritten over the whole array (or `_No`)."""

    def __init__(self, loop: cst.For, types: Types, fresh: Fresh, numpy: Callable[[], str]):
        self.types, self.fresh, self.numpy = types, fresh, numpy
        target, call = loop.target, loop.iter
        if loop.orelse is not None or not isinstance(target, cst.Name) or not isinstance(call, cst.Call) \
                or not (isinstance(call.func, cst.Name) and call.func.value == "range") or len(call.args) != 1:
            raise _No
        self.var = target.value
        self.extent = call.args[0].value
        self.primary, self.axis = self._extent(self.extent)
        self.assigned = assigned_names(loop.body)
        self.names: dict[str, tuple[str, str]] = {}  # a name the body binds → (its name here, its kind)
        self.sources: set[str] = {self.primary}  # 2-D arrays read a row at a time
        self.written: dict[str, int] = {}  # arrays stored into a row at a time → their rank
        self.across: set[str] = set()
        self.reduced = False
        self.direct: dict[int, str] = {}  # stores a nest may write in place if nothing else reads the array

    def _extent(self, node: cst.BaseExpression) -> tuple[str, int]:
        """`range(X.shape[k])` or `range(len(X))` of a 2-D array X: (X, k)."""
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len" \
                and len(node.args) == 1 and isinstance(node.args[0].value, cst.Name):
            name, axis = node.args[0].value.value, 0
        elif isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) \
                and node.value.attr.value == "shape" and isinstance(node.value.value, cst.Name) \
                and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and isinstance(node.slice[0].slice.value, cst.Integer):
            name, axis = node.value.value.value, int(node.slice[0].slice.value.value)
        else:
            raise _No
        if axis not in (0, 1) or not self._matrix(cst.Name(name)):
            raise _No
        return name, axis

    def _matrix(self, node: cst.Name) -> bool:
        kind = self.types.of(node)
        return isinstance(kind, Array) and kind.ndim == 2 and np.dtype(kind.dtype).kind in "biuf"

    # -- the row a subscript picks ----------------------------------------------------------------------

    def _row_of(self, node: cst.BaseExpression) -> str | None:
        """`X[i]`, `X[i, :]` (rows) or `X[:, i]` (columns) of a 2-D array the body does not bind: X."""
        if not (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name)):
            return None
        parts = [p.slice for p in node.slice]
        full = [isinstance(p, cst.Slice) and p.lower is None and p.upper is None and p.step is None for p in parts]
        at = [isinstance(p, cst.Index) and isinstance(p.value, cst.Name) and p.value.value == self.var
              for p in parts]
        picks = (len(parts) == 1 and at[0]) or (len(parts) == 2 and at[self.axis] and full[1 - self.axis])
        if not picks or (self.axis == 1 and len(parts) == 1):
            return None
        name = node.value.value
        if name in self.assigned or not self._matrix(node.value):
            raise _No
        return name

    # -- expressions ------------------------------------------------------------------------------------

    def value(self, node: cst.BaseExpression) -> tuple[cst.BaseExpression, str]:
        """The expression over the whole array, and its kind."""
        source = self._row_of(node)
        if source is not None:
            self.sources.add(source)
            return cst.Name(source), _ROW
        if isinstance(node, cst.Integer | cst.Float):
            return node, _SAME
        if isinstance(node, cst.Name):
            return self._name(node)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _OPERATORS):
            (left, a), (right, b) = self.value(node.left), self.value(node.right)
            return node.with_changes(left=left, right=right), _combine(a, b)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus | cst.Plus):
            inner, kind = self.value(node.expression)
            return node.with_changes(expression=inner), _combine(kind)
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1 \
                and isinstance(node.comparisons[0].operator, _COMPARE):
            (left, a), (right, b) = self.value(node.left), self.value(node.comparisons[0].comparator)
            return node.with_changes(left=left, comparisons=[node.comparisons[0].with_changes(comparator=right)]), \
                _combine(a, b)
        if isinstance(node, cst.Call):
            return self._call(node)
        raise _No

    def _name(self, node: cst.Name) -> tuple[cst.BaseExpression, str]:
        name = node.value
        if name == self.var:
            raise _No  # the index itself in arithmetic
        if name in self.names:
            here, kind = self.names[name]
            return cst.Name(here), kind
        if name in self.assigned:
            raise _No  # read before the body binds it: the previous iteration's value
        typed = self.types.of(node)
        if isinstance(typed, Scalar):
            return node, _SAME
        if isinstance(typed, Array) and typed.ndim == 1 and self.axis == 0:
            self.across.add(name)
            return node, _ACROSS
        raise _No

    def _call(self, node: cst.Call) -> tuple[cst.BaseExpression, str]:
        if any(a.star for a in node.args):
            raise _No
        found = Reduction.parse(node, self.types)
        if found is not None:
            return self._reduction(node, found)
        name = self.types.calls.effect(node).name
        positional = [a for a in node.args if a.keyword is None]
        ufunc = getattr(np, name[6:], None) if name.startswith("numpy.") else None
        elementwise = (isinstance(ufunc, np.ufunc) and ufunc.nout == 1 and len(positional) == ufunc.nin) \
            or (name == "numpy.where" and len(positional) == 3) or (name == "abs" and len(positional) == 1) \
            or (name == "cuvil.runtime.intrinsics.py_pow" and len(positional) == 2)
        if elementwise and len(positional) == len(node.args):
            values = [self.value(a.value) for a in node.args]
            args = [a.with_changes(value=v) for a, (v, _) in zip(node.args, values)]
            return node.with_changes(args=args), _combine(*(k for _, k in values))
        if name == ".astype" and isinstance(node.func, cst.Attribute) and len(node.args) == 1:
            inner, kind = self.value(node.func.value)
            return node.with_changes(func=node.func.with_changes(value=inner)), _combine(kind)
        raise _No

    def _reduction(self, node: cst.Call, found: Reduction) -> tuple[cst.BaseExpression, str]:
        operand, kind = self.value(found.operand)
        if kind in (_SAME, _ACROSS):
            return node, _SAME  # of an array that is the same in every iteration: as written
        if kind != _ROW or found.axis not in (None, 0, -1) or found.keepdims:
            raise _No
        if found.op not in (*_REDUCE, "argmax", "argmin"):
            raise _No
        self.reduced = True
        args = [cst.Arg(operand), cst.Arg(cst.Integer(str(1 - self.axis)), keyword=cst.Name("axis"))]
        if found.op in ("var", "std") and found.ddof:
            args.append(cst.Arg(cst.Integer(str(found.ddof)), keyword=cst.Name("ddof")))
        index = found.op in ("argmax", "argmin")
        if not index:
            args.append(cst.Arg(cst.Name("True"), keyword=cst.Name("keepdims")))
        call = cst.Call(cst.Attribute(cst.Name(self.numpy()), cst.Name(found.op)), args)
        return call, _INDEX if index else _NUMBER

    # -- statements -------------------------------------------------------------------------------------

    def statement(self, stmt: cst.BaseStatement) -> list[cst.BaseStatement]:
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
            raise _No
        small = stmt.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = small.targets[0].target
            if isinstance(target, cst.Name):
                return self._bind(stmt, target.value, small.value)
            return self._store(stmt, target, small.value)
        updates = cst.AddAssign | cst.SubtractAssign | cst.MultiplyAssign | cst.DivideAssign
        if isinstance(small, cst.AugAssign) and isinstance(small.operator, updates) \
                and isinstance(small.target, cst.Subscript):
            return self._store(stmt, small.target, small.value, small.operator)
        if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name) \
                and isinstance(small.operator, updates):
            here, kind = self.names.get(small.target.value, ("", ""))
            value, other = self.value(small.value)
            if kind != _ROW or other == _INDEX or here in (self.sources | self.across):
                raise _No  # a number updated in place may change type; a row alias writes its array
            return [stmt.with_changes(body=[small.with_changes(target=cst.Name(here), value=value)])]
        raise _No

    def _bind(self, stmt: cst.SimpleStatementLine, name: str, node: cst.BaseExpression) -> list[cst.BaseStatement]:
        source = self._row_of(node)
        if source is not None:  # `row = X[i]`: a name for the row, as the array itself
            self.sources.add(source)
            self.names[name] = (source, _ROW)
            return []
        if isinstance(node, cst.Name) and node.value in self.names:  # `e = row`: another name, the same memory
            self.names[name] = self.names[node.value]
            return []
        value, kind = self.value(node)
        if kind == _INDEX:
            raise _No
        here = self.fresh(f"_{name}")
        self.names[name] = (here, kind)
        small = cst.Assign([cst.AssignTarget(cst.Name(here))], value)
        return [stmt.with_changes(body=[small])]

    def _store(self, stmt: cst.SimpleStatementLine, target: cst.BaseExpression, node: cst.BaseExpression,
               update: cst.BaseAugOp | None = None) -> list[cst.BaseStatement]:
        """`out[i] = v` (`out[:, j] = v`) → `out[:, :] = v` over all rows; `out[i] = row.argmax()` of a 1-D
        `out` → `out[:] = np.argmax(X, axis=1)`; `out[i] += v` the same, updated."""
        if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name)):
            raise _No
        name = target.value.value
        kind = self.types.of(target.value)
        if name in self.assigned or not isinstance(kind, Array):
            raise _No
        value, got = self.value(node)
        stored = self.types.of(node)
        if got in (_NUMBER, _INDEX) and not (isinstance(stored, Scalar) and np.can_cast(
                stored.dtype, kind.dtype, "same_kind")):
            raise _No  # a number stored per row converts as a number (NaN into an int raises), an array does not
        full = cst.SubscriptElement(cst.Slice(None, None))
        if kind.ndim == 2 and self._row_of(target) == name and got in (_ROW, _NUMBER, _SAME, _ACROSS):
            self.written[name] = 2
            whole = target.with_changes(slice=[full, full])
        elif kind.ndim == 1 and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index) \
                and _is(target.slice[0].slice.value, self.var) and (got == _INDEX or got == _SAME or (
                    got == _NUMBER and isinstance(value, cst.Call) and _keepdims(value))):
            self.written[name] = 1
            whole = target.with_changes(slice=[full])
            if got == _NUMBER:  # a reduction stored per row: its value without the kept axis
                assert isinstance(value, cst.Call)
                value = value.with_changes(args=[a for a in value.args if not _is(a.keyword, "keepdims")])
        else:
            raise _No
        self.sources.discard(name)
        small = cst.Assign([cst.AssignTarget(whole)], value) if update is None else \
            cst.AugAssign(whole, update, value)
        store = stmt.with_changes(body=[small])
        if update is None and got == _ROW and name not in {n.value for n in reads_in(value)}:
            self.direct[id(store)] = name  # of the shape of the rows, which the guard makes `name`'s
        return [store]

    # -- the test that picks the whole-array branch -----------------------------------------------------

    def guard(self, overlaps: str) -> cst.BaseExpression:
        shape = lambda n: cst.Attribute(cst.Name(n), cst.Name("shape"))  # noqa: E731
        dim = lambda n, k: cst.Subscript(shape(n), [cst.SubscriptElement(cst.Index(cst.Integer(str(k))))])  # noqa: E731
        tests: list[cst.BaseExpression] = [_compare(self.extent, cst.GreaterThan(), cst.Integer("0"))]
        for name in sorted((self.sources | {n for n, r in self.written.items() if r == 2}) - {self.primary}):
            tests.append(_compare(shape(name), cst.Equal(), shape(self.primary)))
        for name in sorted(n for n, r in self.written.items() if r == 1):
            tests.append(_compare(dim(name, 0), cst.Equal(), self.extent))
        for name in sorted(self.across):
            tests.append(_compare(dim(name, 0), cst.Equal(), dim(self.primary, 1)))
        arrays = sorted(self.sources | set(self.written) | self.across)
        for written in sorted(self.written):
            for other in arrays:
                if other != written:
                    call = cst.Call(cst.Name(overlaps), [cst.Arg(cst.Name(written)), cst.Arg(cst.Name(other))])
                    tests.append(cst.UnaryOperation(cst.Not(), call))
        out = tests[0]
        for test in tests[1:]:
            out = cst.BooleanOperation(out, cst.And(), test)
        return out


def _is(node: cst.CSTNode | None, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _keepdims(call: cst.Call) -> bool:
    return any(_is(a.keyword, "keepdims") for a in call.args)


def _compare(left: cst.BaseExpression, operator: cst.BaseCompOp, right: cst.BaseExpression) -> cst.Comparison:
    return cst.Comparison(left, [cst.ComparisonTarget(operator, right)])


class RowLoops(cst.CSTTransformer):
    """Every loop of one function that `_Body` takes, as `if <its test>: <whole arrays> else: <the loop>`."""

    def __init__(self, fn: cst.FunctionDef, types: Types, fresh: Fresh, numpy: Callable[[], str],
                 intrinsic: Callable[[str, str], str]):
        super().__init__()
        self.types, self.fresh, self.numpy, self.intrinsic = types, fresh, numpy, intrinsic
        self.reads = Counter(n.value for n in reads_in(fn.body))
        self.taken: list[int | None] = []  # the lines of the loops taken, for cuvil.explain
        self.direct: set[int] = set()  # ids of the stores the array lowering writes in place (Lowering.direct)

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.BaseStatement:
        if not updated.deep_equals(original):
            return updated  # a loop inside was rewritten: this one's body is not straight-line anyway
        try:
            body = _Body(original, self.types, self.fresh, self.numpy)
            inside = Counter(n.value for n in reads_in(original))
            if any(self.reads[n] > inside[n] for n in body.assigned | {body.var}):
                raise _No  # read after the loop (or before it, as another value): Python's values are the loop's
            lowered = [s for stmt in statements(original.body) for s in body.statement(stmt)]
            if set(body.written) & body.across:
                raise _No  # a 1-D array read whole while it is filled a row at a time
            if not body.written or not (body.reduced or body.axis == 1):
                raise _No  # elementwise over rows: the loop as written is as fast
        except _No:
            return updated
        line = origin_of(original)
        self.taken.append(line)
        rewritten = [with_origin(s, origin_of(s) or line) for s in lowered]
        for before, after in zip(lowered, rewritten):
            name = body.direct.get(id(before))
            others = {n.value for s in rewritten if s is not after for n in reads_in(s)}
            if name is not None and name not in others:
                self.direct.add(id(after))  # the store is all the branch does with `name`: no temporary
        test = cst.Call(cst.Name(self.intrinsic("cuvil.runtime.parallel", "whole_rows")),
                        [cst.Arg(body.guard(self.intrinsic("cuvil.runtime.parallel", "overlaps")))])
        branch = cst.If(test, cst.IndentedBlock(rewritten),
                        orelse=cst.Else(cst.IndentedBlock([original])))
        return with_origin(branch, line)


def wanted(fn: cst.FunctionDef) -> bool:
    return any(isinstance(stmt, cst.For) for stmt in all_statements(fn.body))
