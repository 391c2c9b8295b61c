"""Indirect indices checked once per loop (issue 10 §1): `a[idx[i]]`, with `idx` an integer array and `i` the
loop's variable, reads `a` where the data says — no range analysis can prove it in bounds, and a check at each
access kept the bench's gather at 0.61–0.68× Numba. So the loop is run twice over, chosen before it starts:

    if within(idx, 0, n, 1, a.shape[0]) and not overlaps(idx, out):
        for i in range(n): out[i] = a[idx[i]]                                 # unchecked
    else:
        for i in range(n): out[i] = a[index(idx[i], a.shape[0], 0)]          # checked at each access

`within` (runtime/checks.py) reads every value the loop could read from `idx` (all of `idx[start:stop:step]`,
a superset of what a loop that breaks early reads) and says whether each lies in 0 … n-1. Anything else —
a negative value (which must wrap, or raise at its own iteration), one past the end, a loop range reaching
outside `idx` — takes the checked copy, so Python's answer, exception, message and line are unchanged; the
test only chooses the faster copy when it cannot matter. It holds for the whole loop only if `idx` does not
change during it: the names involved are not rebound in the loop, and nothing the loop writes shares memory
with `idx` (tested at run time, as `np.may_share_memory` would: `idx` may be a view of the output).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import Array
from ..frontend.walk import walk

_INTEGERS = ("int", "uint")
MODULE = "cuvil.runtime.checks"


def source_of(types: Types, index: cst.BaseExpression) -> tuple[cst.Name, str] | None:
    """`idx[v]` with `idx` a 1-D integer array named by a name: (idx, v)."""
    if not (isinstance(index, cst.Subscript) and isinstance(index.value, cst.Name) and len(index.slice) == 1):
        return None
    inner = index.slice[0].slice
    if not isinstance(inner, cst.Index) or not isinstance(inner.value, cst.Name):
        return None
    kind = types.of(index.value)
    if not isinstance(kind, Array) or kind.ndim != 1 or not kind.dtype.startswith(_INTEGERS):
        return None
    return index.value, inner.value.value


def written_arrays(types: Types, body: cst.CSTNode) -> list[cst.Name] | None:
    """The arrays a loop body may write, by name (a subscript's or view's base), or None when one of them is
    not a name bound outside it can be tested against (`f(x)[0] = …`): then the loop keeps its checks. A helper
    Cuvil compiles may write any array it is given; a library call writes what library/numpy.py says."""
    found: list[cst.BaseExpression] = []

    class Find(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            found.extend(_subscripted(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            found.extend(_subscripted(node.target) or [node.target])  # `x += 1` on an array writes it

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            found.extend(_subscripted(node.target))

        def visit_Call(self, node: cst.Call) -> None:
            effect = types.calls.effect(node)
            found.extend(effect.args if effect.name.startswith("helper") else effect.writes)

    walk(body, Find())
    names: list[cst.Name] = []
    for expr in found:
        base = _base(expr)
        if not isinstance(types.of(expr), Array) and not (base is not None and isinstance(types.of(base), Array)):
            continue  # a scalar, a list: never an array's memory
        if base is None:
            return None
        if not any(base.deep_equals(n) for n in names):
            names.append(base)
    return names


def _subscripted(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(target, cst.Subscript):
        return [target]
    if isinstance(target, cst.Tuple | cst.List):
        return [t for e in target.elements for t in _subscripted(e.value)]
    return []


def _base(expr: cst.BaseExpression) -> cst.Name | None:
    """The name whose memory `expr` lies in: `out` of `out[i, 1:]` or `out.T`."""
    while isinstance(expr, cst.Subscript | cst.Attribute):
        expr = expr.value
    return expr if isinstance(expr, cst.Name) else None


class Unchecked(cst.CSTTransformer):
    """`index(i, n, axis)` → `i` for the calls this loop's versioning made (by identity)."""

    def __init__(self, calls: set[int]):
        super().__init__()
        self.calls = calls

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        return updated.args[0].value if id(original) in self.calls else updated


def versioned(loop: cst.For, calls: set[int], span: Sequence[cst.BaseExpression],
              reads: Sequence[tuple[cst.Name, cst.BaseExpression]], writes: Sequence[cst.Name],
              intrinsic: Callable[[str, str], str]) -> cst.If:
    """The loop as `if <tests>: <loop without the checks in calls> else: <loop>`: `reads` are (idx, the size its
    values index) per indirect index, `span` the loop's (start, stop, step), `writes` what the loop writes."""
    within = cst.Name(intrinsic(MODULE, "within"))
    tests: list[cst.BaseExpression] = [
        cst.Call(within, [cst.Arg(source), *(cst.Arg(r) for r in span), cst.Arg(size)]) for source, size in reads]
    sources: list[cst.Name] = []
    for source, _ in reads:
        if not any(source.deep_equals(s) for s in sources):
            sources.append(source)
    overlaps = cst.Name(intrinsic("cuvil.runtime.parallel", "overlaps"))
    tests += [cst.UnaryOperation(cst.Not(), cst.Call(overlaps, [cst.Arg(s), cst.Arg(w)]))
              for s in sources for w in writes]
    test = tests[0]
    for more in tests[1:]:
        test = cst.BooleanOperation(test, cst.And(), more)
    unchecked = loop.visit(Unchecked(calls))
    assert isinstance(unchecked, cst.For)
    return cst.If(test, cst.IndentedBlock([unchecked]), orelse=cst.Else(cst.IndentedBlock([loop])))
