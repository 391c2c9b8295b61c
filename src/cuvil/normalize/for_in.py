"""`for` over arrays, `enumerate` and `zip` → index loops over `range`, the only loop later stages know.
(`numba.prange` is a `range` too: whether a loop runs in parallel is the dependence analysis's decision.)

    for i, (x, y) in enumerate(zip(a, b)):        for i in range(min(len(a), len(b))):  # L5
        s += x * y                          →         x = a[i]  # L5
                                                      y = b[i]  # L5
                                                      s += x * y  # L6

An iterable that is not a plain name (or whose name the body rebinds) is evaluated once, before the loop, into
a fresh temporary, as Python does. A dict (a name frontend/containers.py knows, or `d.items()`, `.keys()`,
`.values()`) is iterated through `list(...)` of it: its keys in insertion order, as Python's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeGuard, Union

import libcst as cst

from ..frontend.containers import containers
from .names import Fresh, all_names, assigned_names
from .origins import origin_of, with_origin

# What one iteration yields: an expression, or a tuple of such (zip, enumerate), built from the index.
Element = Union[  # noqa: UP007 (a recursive alias needs the string form)
    cst.BaseExpression, tuple["Element", ...]]


@dataclasses.dataclass
class _Sequence:
    length: cst.BaseExpression
    element: Callable[[cst.BaseExpression], Element]


def _call(name: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name(name), [cst.Arg(a) for a in args])


def _is_call(expr: cst.BaseExpression, name: str) -> TypeGuard[cst.Call]:
    return (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Name)
        and expr.func.value == name
        and not any(a.keyword or a.star for a in expr.args)
    )


def _is_prange(expr: cst.BaseExpression) -> TypeGuard[cst.Call]:
    """`prange(…)` or `numba.prange(…)` (any module alias): Numba's parallel range, by name."""
    if not isinstance(expr, cst.Call) or any(a.keyword or a.star for a in expr.args):
        return False
    func = expr.func
    return (isinstance(func, cst.Name) and func.value == "prange") or (
        isinstance(func, cst.Attribute) and func.attr.value == "prange" and isinstance(func.value, cst.Name))


def _is_simple(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name | cst.Integer | cst.Float)


class ForInToIndex(cst.CSTTransformer):
    def __init__(self) -> None:
        super().__init__()
        self.fresh = Fresh(set())
        self.dicts: set[str] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.fresh = Fresh(all_names(node))
        self.dicts = {name for name, kind in containers(node).items() if kind == "dict"}

    def leave_For(
        self, original: cst.For, updated: cst.For
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if _is_prange(updated.iter):  # the user's own `numba.prange`: a range; parallel is decided later
            updated = updated.with_changes(iter=updated.iter.with_changes(func=cst.Name("range")))
        if _is_call(updated.iter, "range"):
            return updated
        line = origin_of(updated)
        rebound = assigned_names(updated.body)
        hoisted: list[cst.BaseStatement] = []

        def once(expr: cst.BaseExpression) -> cst.BaseExpression:
            if _is_simple(expr) and not (isinstance(expr, cst.Name) and expr.value in rebound):
                return expr
            name = cst.Name(self.fresh("_it"))
            assign = cst.Assign(targets=[cst.AssignTarget(name)], value=expr)
            hoisted.append(with_origin(cst.SimpleStatementLine([assign]), line))
            return name

        seq = self._sequence(updated.iter, once)
        target = updated.target
        index = _user_index(updated)
        if index is not None:  # the user's own index name reads best
            element = seq.element(index)
            assert isinstance(element, tuple) and isinstance(target, cst.Tuple)
            bindings = _bind(target.elements[1].value, element[1])
        else:
            index = cst.Name(self.fresh("_i"))
            bindings = _bind(target, seq.element(index))
        prologue = [with_origin(s, line) for s in bindings]
        body = updated.body.with_changes(body=[*prologue, *updated.body.body])
        loop = updated.with_changes(target=index, iter=_call("range", seq.length), body=body)
        return cst.FlattenSentinel([*hoisted, loop]) if hoisted else loop

    def _sequence(self, expr: cst.BaseExpression, once: Callable) -> _Sequence:
        expr = _start_positional(expr)
        if _is_call(expr, "zip") and expr.args:
            parts = [self._sequence(a.value, once) for a in expr.args]
            length = parts[0].length if len(parts) == 1 else _call("min", *(p.length for p in parts))
            return _Sequence(length, lambda i: tuple(p.element(i) for p in parts))
        if _is_call(expr, "enumerate") and 1 <= len(expr.args) <= 2:
            inner = self._sequence(expr.args[0].value, once)
            start = once(expr.args[1].value) if len(expr.args) == 2 else None

            def counted(i: cst.BaseExpression) -> Element:
                number = i if start is None else cst.BinaryOperation(i, cst.Add(), start)
                return (number, inner.element(i))

            return _Sequence(inner.length, counted)
        if _is_call(expr, "range"):
            args = [once(a.value) for a in expr.args]
            start = args[0] if len(args) >= 2 else None
            step = args[2] if len(args) == 3 else None

            def nth(i: cst.BaseExpression) -> Element:
                value: cst.BaseExpression = i
                if step is not None:
                    value = cst.BinaryOperation(value, cst.Multiply(), step)
                if start is not None:
                    value = cst.BinaryOperation(start, cst.Add(), value)
                return value

            return _Sequence(_call("len", _call("range", *args)), nth)
        if isinstance(expr, cst.Name) and expr.value in self.dicts or _dict_view(expr):
            expr = _call("list", expr)  # a dict: a list of its keys (or items, values), indexed
        array = once(expr)
        return _Sequence(
            _call("len", array),
            lambda i: cst.Subscript(array, [cst.SubscriptElement(cst.Index(i))]),
        )


def _dict_view(expr: cst.BaseExpression) -> bool:
    """`d.items()`, `d.keys()`, `d.values()`: no array has these methods."""
    return isinstance(expr, cst.Call) and not expr.args and isinstance(expr.func, cst.Attribute) \
        and expr.func.attr.value in ("items", "keys", "values")


def _start_positional(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`enumerate(xs, start=k)`, `enumerate(iterable=xs)`, `enumerate(start=k, iterable=xs)` as `enumerate(xs, k)`
    (else the call was taken for an array, and the loop failed to compile with an internal error). A `start`
    written before the iterable is moved only when one of the two is a name or a number: the order they are
    evaluated in then changes nothing."""
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "enumerate"
            and 1 <= len(expr.args) <= 2 and not any(a.star for a in expr.args)):
        return expr
    given: dict[str, cst.BaseExpression] = {}
    for position, arg in enumerate(expr.args):
        key = arg.keyword.value if arg.keyword is not None else ("iterable", "start")[position]
        if key in given or key not in ("iterable", "start"):
            return expr  # Python's TypeError: left for the later stages to report
        given[key] = arg.value
    if "iterable" not in given or (list(given) == ["start", "iterable"]
                                   and not (_is_simple(given["start"]) or _is_simple(given["iterable"]))):
        return expr
    return expr.with_changes(args=[cst.Arg(given[k]) for k in ("iterable", "start") if k in given])


def _user_index(loop: cst.For) -> cst.Name | None:
    """`i` of `for i, x in enumerate(xs)` (no start): it can serve as the loop's index itself."""
    target, it = loop.target, loop.iter
    if isinstance(target, cst.Tuple) and len(target.elements) == 2 and _is_call(it, "enumerate"):
        first = target.elements[0].value
        if isinstance(first, cst.Name) and isinstance(it, cst.Call) and len(it.args) == 1:
            return first
    return None


def _bind(target: cst.BaseExpression, element: Element) -> list[cst.SimpleStatementLine]:
    """Assignments that give the loop's target the element, destructuring tuples as far as they match."""
    if isinstance(element, tuple):
        if isinstance(target, cst.Tuple | cst.List) and len(target.elements) == len(element):
            return [line for t, e in zip(target.elements, element) for line in _bind(t.value, e)]
        element = _tuple(element)
    assert isinstance(target, cst.BaseAssignTargetExpression), "a for target is assignable"
    assign = cst.Assign(targets=[cst.AssignTarget(target.with_changes(lpar=(), rpar=()))], value=element)
    return [cst.SimpleStatementLine([assign])]


def _tuple(element: Element) -> cst.BaseExpression:
    if not isinstance(element, tuple):
        return element
    return cst.Tuple([cst.Element(_tuple(e)) for e in element])
