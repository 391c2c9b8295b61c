"""`max(xs, key=lambda v: ...)` (or `key=abs`, a function's name) and min, which normalize/keyed_extremes.py
writes as CPython's loop: admitted where the call is a statement's whole value (`best = max(...)`), over an
indexable sequence or a range, its key a lambda of one plain parameter or a function's name.
"""

from __future__ import annotations

import libcst as cst

from .nested_defs import Fail
from .walk import walk


def keyed_call(small: cst.BaseSmallStatement) -> cst.Call | None:
    """`max(xs, key=lambda v: ...)` (or min) as the whole value of this statement, or None."""
    value = small.value if isinstance(small, cst.Assign | cst.AugAssign | cst.Return | cst.Expr) else None
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("max", "min")):
        return None
    keys = [a for a in value.args if a.keyword is not None and a.keyword.value == "key"]
    return value if keys and isinstance(keys[0].value, cst.Lambda | cst.Name | cst.Attribute) else None


def _smalls(fn: cst.FunctionDef) -> list[cst.BaseSmallStatement]:
    found: list[cst.BaseSmallStatement] = []

    class Lines(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
            found.extend(node.body)

    walk(fn.body, Lines())
    return found


def _keyed(fn: cst.FunctionDef) -> list[cst.Call]:
    """Every call of max or min with a lambda for its key."""
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value in ("max", "min") and any(
                    a.keyword is not None and a.keyword.value == "key"
                    and isinstance(a.value, cst.Lambda | cst.Name | cst.Attribute) for a in node.args):
                found.append(node)

    walk(fn.body, Calls())
    return found


def check_keys(fn: cst.FunctionDef, fail: Fail) -> set[int]:
    """The key lambdas normalize/keyed_extremes.py may write as a loop (their ids); fails (through `fail`) at any
    other `max(xs, key=...)` or min: one not a statement's whole value, over what cannot be indexed."""
    whole = {id(c) for small in _smalls(fn) if (c := keyed_call(small)) is not None}
    admitted: set[int] = set()
    for call in _keyed(fn):
        lam = next(a.value for a in call.args if a.keyword is not None and a.keyword.value == "key")
        name = call.func.value  # type: ignore[attr-defined]
        if id(call) not in whole:
            fail(call, f"{name}(..., key=...) is supported only as a statement's whole value",
                      f"assign it first: best = {name}(xs, key=lambda v: ...)")
        positional = [a for a in call.args if a.keyword is None]
        if len(positional) != 1 or positional[0].star or len(call.args) != 2:
            fail(call, f"{name}(..., key=...) takes one iterable and no other keyword here",
                      "pass the sequence alone: max(xs, key=lambda v: ...)")
        iterable = positional[0].value
        if isinstance(iterable, cst.GeneratorExp) or isinstance(iterable, cst.Call) and isinstance(
                iterable.func, cst.Name) and iterable.func.value in ("zip", "enumerate", "map", "filter",
                                                                      "reversed", "iter"):
            fail(iterable, f"{name}(..., key=...) needs a sequence it can index (an array, a list, a "
                                "range)", "build a list first, or write the loop")
        if not isinstance(lam, cst.Lambda):
            continue  # a function's name: `max(xs, key=abs)`
        params = lam.params
        if len(params.params) != 1 or params.star_arg is not cst.MaybeSentinel.DEFAULT \
                or params.kwonly_params or params.star_kwarg or params.posonly_params \
                or params.params[0].default is not None:
            fail(lam, "a key function takes one plain parameter", "write key=lambda v: ...")
        admitted.add(id(lam))
    return admitted
