"""Bounds checks with Python's (NumPy's) IndexError, by default, at little cost (issue 10 §1).

Numba reads and writes past the end of an array without a word (its own checks are opt-in and stop loops from
vectorizing), so every integer index of an array gets one of three treatments:

    proved     `for i in range(x.shape[0]): x[i]`, and every index of the lowering's own loops: nothing
    hoisted    `for i in range(n): out[i + 1] = …`  →  tested once, before the loop:
                   if 0 < n and outside(0 + 1, n - 1 + 1, out.shape[0]):
                       for i in range(n): out[index(i + 1, out.shape[0], 0)] = …     # checked copy
                   else:
                       for i in range(n): out[i + 1] = …
    checked    `out[idx[i]]`  →  `out[index(idx[i], out.shape[0], 0)]`

`index` (runtime/checks.py) raises NumPy's "index 3 is out of bounds for axis 0 with size 3" and lets -n … n-1
through, as Python does. An affine index `v ± c` of a range with a literal step runs monotonically from one end
to the other, so testing its two ends before the loop covers every iteration — provided the statement runs in
every iteration: it stands directly in the loop's body, the body has no `break`, `continue`, `return` or
`raise`, and nothing in the body rebinds the array or `c`. When an end is outside, some iteration will fail,
and the checked copy runs: it fails where Python does, after the iterations before it have written what they
write, and with whatever exception Python meets first (an earlier iteration's ZeroDivisionError, another
index's IndexError). The copy is serial (cfg/dependence.py): it runs only to raise. A CUDA kernel has no
copies: it tests both ends with `index` before the loop (codegen/cuda_checks.py records the first failure).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar, Tuple
from ..frontend.walk import walk
from ..normalize.names import assigned_names
from ..normalize.origins import origin_of, with_origin
from .again import hoistable
from .indirect import Unchecked, source_of, versioned, written_arrays
from .loop_ranges import LoopRange, paren
from .reductions import Intrinsic

MODULE = "cuvil.runtime.checks"
_PURE = ("cuvil.runtime.pyint.", "cuvil.runtime.wrapping.")  # Python ints' checked and wrapping arithmetic


def _names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Find(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

    walk(node, Find())
    return found


def _dim(array: cst.BaseExpression, axis: int) -> cst.Subscript:
    return cst.Subscript(cst.Attribute(array, cst.Name("shape")),
                         [cst.SubscriptElement(cst.Index(cst.Integer(str(axis))))])


def _same(a: cst.CSTNode, b: cst.CSTNode) -> bool:
    return a.deep_equals(b)


class BoundsChecks(cst.CSTTransformer):
    """Rewrites a typed function (`types` keyed by its nodes as they are now); `trusted` names (the lowering's
    loop variables) index in bounds by construction."""

    def __init__(self, types: Types, intrinsic: Intrinsic, trusted: set[str], versions: bool = True,
                 static: dict[str, dict[int, int]] | None = None):
        super().__init__()
        self.static = static or {}  # the variant's static dims of parameters never rebound: a loop to 3 over
        # an axis of size 3 (codegen/specialize.py wrote `range(x.shape[1])` so) stays in bounds
        self.types, self.intrinsic, self.trusted = types, intrinsic, trusted
        self.versions = versions  # loops may be copied (the CPU): a checked copy and a fast one
        self.copies: dict[int, tuple[cst.If, cst.For]] = {}  # per versioned loop's `if`: its checked copy
        self.loops: list[LoopRange] = []
        self.statements: list[cst.CSTNode] = []  # the statements being visited, outermost first
        self.counts = {"proved": 0, "hoisted": 0, "checked": 0}  # per index, for cuvil.explain (issue 10 §4)
        self.targets = 0  # inside an assignment's target: Python evaluates it after the value
        self.lists: set[str] = set()  # names that only ever hold a list (_list_names)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.targets += 1

    def leave_AssignTarget(self, original: cst.AssignTarget, updated: cst.AssignTarget) -> cst.AssignTarget:
        self.targets -= 1
        return updated

    def visit_For(self, node: cst.For) -> None:
        self.loops.append(LoopRange(node, lambda call: self.types.calls.effect(call).name.startswith(_PURE)))

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.BaseStatement | cst.FlattenSentinel:
        loop = self.loops.pop()
        line = origin_of(original)
        checked = self.checked(updated) if loop.tests or loop.unchecked else updated
        fast = cst.ensure_type(updated.visit(Unchecked(loop.fast)), cst.For) if loop.fast else updated
        result: cst.BaseStatement = fast
        if loop.unchecked:
            assert loop.range is not None
            reads = [(source, _dim(array, axis)) for source, array, axis in loop.indirect]
            result = with_origin(versioned(fast, loop.unchecked, loop.range, reads, loop.writes or [],
                                           self.intrinsic), line)
        if loop.tests:
            assert loop.nonempty is not None
            test: cst.BaseExpression = loop.tests[0]
            for more in loop.tests[1:]:
                test = cst.BooleanOperation(test, cst.Or(), more)
            test = cst.BooleanOperation(loop.nonempty, cst.And(), paren(test))
            result = with_origin(cst.If(test, cst.IndentedBlock([checked]),
                                        orelse=cst.Else(cst.IndentedBlock([result]))), line)
        if result is not updated:
            assert isinstance(result, cst.If)
            self.copies[id(result)] = (result, checked)
        if not loop.hoisted:
            return result
        assert loop.nonempty is not None
        guard = with_origin(cst.If(loop.nonempty, cst.IndentedBlock(loop.hoisted)), origin_of(original))
        return cst.FlattenSentinel([guard, result])

    def checked(self, loop: cst.For) -> cst.For:
        """`loop` checked at every access: the loops nested in it as their checked copies (a copy of each
        copy would double the code at every level of a nest, for loops that run only to raise)."""
        copies = self.copies

        class Checked(cst.CSTTransformer):
            def leave_If(self, original: cst.If, updated: cst.If) -> cst.BaseStatement:
                return copies[id(original)][1] if id(original) in copies else updated

        return cst.ensure_type(loop.visit(Checked()), cst.For)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.statements.append(node)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine,
                                  updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        self.statements.pop()
        for loop in self.loops:  # `out[i] = a[i + 1]`: a[i + 1]'s check first, as Python reads before it stores
            loop.hoisted += [c for c in loop.stores if not any(c.deep_equals(h) for h in loop.hoisted)]
            loop.stores = []
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.loops or self.statements:
            return False  # only the function itself, not nested ones
        self.lists = _list_names(node)
        return True

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        kind = self.types.of(original.value)
        if self.versions and isinstance(original.value, cst.Name) and original.value.value in self.lists \
                and len(original.slice) == 1 and isinstance(original.slice[0].slice, cst.Index):
            return self._listed(original, updated)
        if not isinstance(kind, Array) or not hoistable(original.value):
            return updated
        if (spread := self._spread(original, kind)) is not None:
            return spread
        indices = [e.slice.value for e in original.slice if isinstance(e.slice, cst.Index)]
        kinds = [self.types.of(i) for i in indices]
        if len(original.slice) > kind.ndim or any(not isinstance(k, Scalar) or k.dtype == "bool" for k in kinds) \
                or any(i.deep_equals(cst.Name("None")) for i in indices):
            return updated  # an array index (NumPy's own checks), a bool mask, a new axis: not ours
        elements = []
        for axis, (orig, new) in enumerate(zip(original.slice, updated.slice)):
            if not isinstance(orig.slice, cst.Index):
                elements.append(new)
                continue
            if self._proved(original.value, axis, orig.slice.value):
                self.counts["proved"] += 1
            elif (loop := self._hoisted(original.value, axis, orig.slice.value)) is not None:
                self.counts["hoisted"] += 1
                if self.versions:  # checked in the checked copy only
                    assert isinstance(new.slice, cst.Index)
                    checked = self._call(new.slice.value, original.value, axis)
                    loop.fast.add(id(checked))
                    new = new.with_changes(slice=new.slice.with_changes(value=checked))
            else:
                self.counts["checked"] += 1  # in the checked copy, when a loop is versioned for it
                assert isinstance(new.slice, cst.Index)
                checked = self._call(new.slice.value, original.value, axis)
                self._version(original.value, axis, orig.slice.value, checked)
                new = new.with_changes(slice=new.slice.with_changes(value=checked))
            elements.append(new)
        return updated.with_changes(slice=elements)

    def _listed(self, original: cst.Subscript, updated: cst.Subscript) -> cst.Subscript:
        """`xs[i]` of a list: runtime/checks.list_index tests `i` with Python's words, at the user's line."""
        index = updated.slice[0].slice
        kind = self.types.of(cst.ensure_type(original.slice[0].slice, cst.Index).value)
        if not isinstance(index, cst.Index) or not (isinstance(kind, Scalar) and kind.dtype != "bool"):
            return updated
        args = [cst.Arg(original.value), cst.Arg(index.value)] + ([cst.Arg(cst.Name("True"))] if self.targets else [])
        checked = cst.Call(cst.Name(self.intrinsic(MODULE, "list_index")), args)
        return updated.with_changes(slice=[updated.slice[0].with_changes(slice=index.with_changes(value=checked))])

    def _spread(self, original: cst.Subscript, kind: Array) -> cst.Subscript | None:
        """`x[t]` with `t` a tuple variable (`t = i, 0`; a tuple argument) indexes as `x[t[0], t[1]]`: each
        integer in it gets its check (Numba's tuple index has none: past the end it read and wrote anywhere)."""
        if len(original.slice) != 1 or not isinstance(original.slice[0].slice, cst.Index):
            return None
        held = original.slice[0].slice.value
        items = self.types.of(held)
        if not isinstance(items, Tuple) or not isinstance(held, cst.Name) or len(items.items) > kind.ndim:
            return None
        elements = []
        for axis, item in enumerate(items.items):
            element: cst.BaseExpression = cst.Subscript(held, [cst.SubscriptElement(cst.Index(cst.Integer(str(axis))))])
            if isinstance(item, Scalar) and item.dtype == "bool":
                return None  # a mask in a tuple: NumPy's own indexing
            if isinstance(item, Scalar):
                self.counts["checked"] += 1
                element = self._call(element, original.value, axis)
            elements.append(cst.SubscriptElement(cst.Index(element)))
        return original.with_changes(slice=elements)

    def _call(self, index: cst.BaseExpression, array: cst.BaseExpression, axis: int) -> cst.Call:
        return cst.Call(cst.Name(self.intrinsic(MODULE, "index")),
                        [cst.Arg(index), cst.Arg(_dim(array, axis)), cst.Arg(cst.Integer(str(axis)))])

    def _version(self, array: cst.BaseExpression, axis: int, index: cst.BaseExpression, check: cst.Call) -> None:
        """`a[idx[v]]` in a loop over `v`: its check is left out of an unchecked copy of the loop, which runs
        when every value of `idx` the loop may read is in bounds (lower/indirect.py)."""
        found = source_of(self.types, index) if self.versions else None
        if found is None:
            return
        source, var = found
        loop = next((lp for lp in reversed(self.loops) if lp.var == var), None)
        if loop is None or loop.range is None or ({var, source.value} | _names(array)) & loop.assigned:
            return
        if not loop.indirect:
            loop.writes = written_arrays(self.types, loop.node.body)
        if loop.writes is None or any(w.value in loop.assigned for w in loop.writes):
            return
        loop.indirect.append((source, array, axis))
        loop.unchecked.add(id(check))

    def _proved(self, array: cst.BaseExpression, axis: int, index: cst.BaseExpression) -> bool:
        names = _names(index)
        if names and names <= self.trusted:
            return True
        if not isinstance(index, cst.Name):
            return False
        loop = next((lp for lp in reversed(self.loops) if lp.var == index.value), None)
        if loop is None or loop.stop is None or index.value in loop.assigned:
            return False
        start_ok = isinstance(loop.start, cst.Integer) and int(loop.start.value) >= 0
        size = self.static.get(array.value, {}).get(axis) if isinstance(array, cst.Name) else None
        own = any(_same(stop, _dim(array, axis)) or (axis == 0 and _same(stop, cst.Call(
            cst.Name("len"), [cst.Arg(array)]))) or (size is not None and isinstance(stop, cst.Integer)
                                                     and int(stop.value, 0) <= size)
                  for stop in _bounds(loop.stop, self._builtin_min))
        return start_ok and own and not (_names(array) & loop.assigned)

    def _builtin_min(self, call: cst.Call) -> bool:
        return self.types.calls.effect(call).name == "min"

    def _hoisted(self, array: cst.BaseExpression, axis: int, index: cst.BaseExpression) -> LoopRange | None:
        """The innermost loop around the statement, when its test before that loop is sound: an index that
        follows the loop's variable (`v ± c`, at both ends) or does not change in the loop (`i` of an outer
        loop), in a statement that runs in every iteration."""
        if not self.loops or not self.statements:
            return None
        loop = self.loops[-1]
        if not loop.plain or id(self.statements[-1]) not in loop.body or _names(array) & loop.assigned:
            return None
        assert loop.last is not None and loop.var is not None
        offset = _affine(index)
        names = _names(index)
        if offset is not None and offset[0] == loop.var and loop.var not in loop.assigned \
                and not (_names(offset[2]) & (loop.assigned | {loop.var})):  # `i += 1` in the body: not the range's
            _, sign, amount = offset
            ends = [cst.BinaryOperation(paren(end), sign, paren(amount)) if sign is not None else end
                    for end in (loop.start, loop.last)]
        elif not names & (loop.assigned | {loop.var}) and hoistable(index):
            ends = [index, index]
        else:
            return None
        if self.versions:
            test = cst.Call(cst.Name(self.intrinsic(MODULE, "outside")),
                            [cst.Arg(ends[0]), cst.Arg(ends[1]), cst.Arg(_dim(array, axis))])
            if not any(test.deep_equals(t) for t in loop.tests):
                loop.tests.append(test)
            return loop
        line = origin_of(self.statements[-1])
        into = loop.stores if self.targets else loop.hoisted
        for end in ends[:1] if ends[0] is ends[1] else ends:  # a CUDA kernel records the first failing check
            check = with_origin(cst.SimpleStatementLine([cst.Expr(self._call(end, array, axis))]), line)
            if not any(check.deep_equals(h) for h in loop.hoisted + loop.stores):
                into.append(check)
        return loop


def _list_names(fn: cst.FunctionDef) -> set[str]:
    """Names every assignment of which is a list: a literal, `[...] * n`, `list(...)` or `sorted(...)` (the
    comprehensions' `_l0 = []`). The types know no lists; Numba checks their indices in its own words."""
    values: dict[str, list[cst.BaseExpression | None]] = {}

    class Assigned(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    values.setdefault(target.target.value, []).append(node.value)
                else:
                    for name in assigned_names(target):
                        values.setdefault(name, []).append(None)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            for name in assigned_names(cst.AssignTarget(node.target)):
                values.setdefault(name, []).append(None)

        def visit_For(self, node: cst.For) -> None:
            for name in assigned_names(cst.AssignTarget(node.target)):
                values.setdefault(name, []).append(None)

    walk(fn.body, Assigned())
    params = {p.name.value for p in fn.params.params}
    return {name for name, found in values.items() if name not in params and all(_a_list(v) for v in found)}


def _a_list(value: cst.BaseExpression | None) -> bool:
    if isinstance(value, cst.List):
        return True
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        return isinstance(value.left, cst.List) or isinstance(value.right, cst.List)
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("list", "sorted")


def _affine(index: cst.BaseExpression) -> tuple[str, cst.BaseBinaryOp | None, cst.BaseExpression] | None:
    """`v`, `v + c` or `v - c` with `c` an integer literal or a name: (v, operator, c)."""
    if isinstance(index, cst.Name):
        return index.value, None, cst.Integer("0")
    if isinstance(index, cst.BinaryOperation) and isinstance(index.operator, cst.Add | cst.Subtract) \
            and isinstance(index.left, cst.Name) and isinstance(index.right, cst.Integer | cst.Name):
        return index.left.value, index.operator, index.right
    return None


def _bounds(stop: cst.BaseExpression, builtin_min: Callable[[cst.Call], bool]) -> list[cst.BaseExpression]:
    """What a loop's stop is at most: itself, and each argument of the builtin `min(...)` (zip's loops stop at
    `min(len(a), len(b))`, below each array's length)."""
    if isinstance(stop, cst.Call) and isinstance(stop.func, cst.Name) and stop.func.value == "min" \
            and len(stop.args) >= 2 and not any(a.keyword or a.star for a in stop.args) and builtin_min(stop):
        return [stop, *(b for a in stop.args for b in _bounds(a.value, builtin_min))]
    return [stop]

