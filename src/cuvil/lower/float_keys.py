"""A dict's float keys are one key where Python's are: `-0.0` and `0.0` (equal, and of one hash in CPython).

Numba's typed dict compares the keys' bits: `d[0.0] = 1; d[-0.0] = 2` made two entries (`len(d)` 2, Python 1)
and `{0.0: 1}[-0.0]` raised KeyError. Every float key a dict is given or asked for passes through `k + 0.0`,
which is `k` for every float but -0.0 (then 0.0):

    d[k] = d.get(k, 0) + 1    →    d[(k + 0.0)] = d.get((k + 0.0), 0) + 1

The key a dict keeps is then 0.0 where Python keeps the -0.0 inserted first (`list(d)`, printing it): the
entries, lookups and counts are Python's, the sign of that one zero key is not. NaN keys stay apart as in
Numba (Python's are one key only when they are one object). Sets already compare floats by value.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import Scalar
from ..frontend.containers import bound, containers
from ..frontend.walk import walk

_KEYED = ("get", "pop", "setdefault")


def wanted(fn: cst.FunctionDef) -> bool:
    return "dict" in containers(fn).values()


class FloatKeys(cst.CSTTransformer):
    def __init__(self, types: Types):
        super().__init__()
        self.types = types
        self.dicts: set[str] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.dicts = _dicts(node)

    def _key(self, original: cst.BaseExpression, updated: cst.BaseExpression) -> cst.BaseExpression:
        t = self.types.of(original)
        if not (isinstance(t, Scalar) and t.dtype in ("float32", "float64")):
            return updated
        key = updated.with_changes(lpar=[], rpar=[]) if _atom(updated) else \
            updated.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return cst.BinaryOperation(key, cst.Add(), cst.Float("0.0"), lpar=[cst.LeftParen()], rpar=[cst.RightParen()])

    def _a_dict(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Name) and node.value in self.dicts

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.Subscript:
        if not self._a_dict(original.value) or len(original.slice) != 1 \
                or not isinstance(original.slice[0].slice, cst.Index):
            return updated
        key = self._key(original.slice[0].slice.value, updated.slice[0].slice.value)  # type: ignore[attr-defined]
        return updated.with_changes(slice=[updated.slice[0].with_changes(
            slice=updated.slice[0].slice.with_changes(value=key))])

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.Comparison:
        if len(original.comparisons) != 1 or not isinstance(original.comparisons[0].operator, cst.In | cst.NotIn) \
                or not self._a_dict(original.comparisons[0].comparator):
            return updated
        return updated.with_changes(left=self._key(original.left, updated.left))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        func = original.func
        if not (isinstance(func, cst.Attribute) and self._a_dict(func.value) and func.attr.value in _KEYED
                and original.args and original.args[0].keyword is None and not original.args[0].star):
            return updated
        first = updated.args[0].with_changes(value=self._key(original.args[0].value, updated.args[0].value))
        return updated.with_changes(args=[first, *updated.args[1:]])

    def leave_DictElement(self, original: cst.DictElement, updated: cst.DictElement) -> cst.DictElement:
        return updated.with_changes(key=self._key(original.key, updated.key))

    def leave_DictComp(self, original: cst.DictComp, updated: cst.DictComp) -> cst.DictComp:
        return updated.with_changes(key=self._key(original.key, updated.key))


def _atom(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name | cst.Float | cst.Integer | cst.Subscript | cst.Call | cst.Attribute)


def _dicts(fn: cst.FunctionDef) -> set[str]:
    """The names that hold a dict: built as one (frontend/containers.py), or bound only to such names (a
    comprehension is built into a temporary first: `d = _d0`)."""
    dicts = {name for name, kind in containers(fn).items() if kind == "dict"}
    values: dict[str, list[cst.BaseExpression | None]] = {}

    class Bindings(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                single = isinstance(target.target, cst.Name) and len(node.targets) == 1
                for name in bound(target.target):
                    values.setdefault(name, []).append(node.value if single else None)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            for name in bound(node.target):
                values.setdefault(name, []).append(None)

        def visit_For(self, node: cst.For) -> None:
            for name in bound(node.target):
                values.setdefault(name, []).append(None)

    walk(fn.body, Bindings())
    params = {p.name.value for p in fn.params.params}
    changed = True
    while changed:
        aliases = {name for name, found in values.items() if name not in dicts and name not in params and all(
            isinstance(v, cst.Name) and v.value in dicts for v in found)}
        changed = bool(aliases)
        dicts |= aliases
    return dicts
