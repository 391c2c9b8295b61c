"""An empty dict read with `.get` is built typed, its key and value types the ones the function stores.

    counts = {}                                 counts = Dict.empty(types.float64, types.int64)
    for v in x:                          →      for v in x:
        counts[v] = counts.get(v, 0) + 1            counts[v] = counts.get(v, 0) + 1

Numba types an empty dict from its stores, and here the only store's value is the `.get`'s own result: its
typing failed inside Numba ("No implementation of function impl_get"). The key types are those of every key
the function indexes, tests (`in`) or gets with; the value types those of every store and `.get` default whose
type the analysis knows, promoted as NumPy promotes them. A dict holding anything but numbers, bools and strings
is left to Numba.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import UNKNOWN, Opaque, Scalar, Type
from ..frontend.containers import containers
from ..frontend.walk import walk

_NUMBA_NAMES = {"bool": "boolean"}


def _gets(fn: cst.FunctionDef, dicts: set[str]) -> set[str]:
    found: set[str] = set()

    class Gets(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "get" and isinstance(func.value, cst.Name) \
                    and func.value.value in dicts:
                found.add(func.value.value)

    walk(fn.body, Gets())
    return found


def wanted(fn: cst.FunctionDef) -> bool:
    return bool(_gets(fn, {n for n, kind in containers(fn).items() if kind == "dict"}))


class _Uses(cst.CSTVisitor):
    """The keys and values each dict meets: `d[k]`, `d[k] = v`, `k in d`, `d.get(k, default)`."""

    def __init__(self, names: set[str]):
        super().__init__()
        self.names = names
        self.keys: dict[str, list[cst.BaseExpression]] = {n: [] for n in names}
        self.values: dict[str, list[cst.BaseExpression]] = {n: [] for n in names}

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and t.value.value in self.names:
                self.values[t.value.value].append(node.value)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if isinstance(node.value, cst.Name) and node.value.value in self.names and len(node.slice) == 1 \
                and isinstance(node.slice[0].slice, cst.Index):
            self.keys[node.value.value].append(node.slice[0].slice.value)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        left = node.left
        for target in node.comparisons:
            right = target.comparator
            if isinstance(target.operator, cst.In | cst.NotIn) and isinstance(right, cst.Name) \
                    and right.value in self.names:
                self.keys[right.value].append(left)
            left = right

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "get" and isinstance(func.value, cst.Name) \
                and func.value.value in self.names and node.args:
            self.keys[func.value.value].append(node.args[0].value)
            if len(node.args) > 1:
                self.values[func.value.value].append(node.args[1].value)


def _common(types: list[Type]) -> str | None:
    """The one type a dict's keys (or values) take: NumPy's promotion of the numbers, or a string; None where
    any known one is something else, the numbers and strings mix, or none is known."""
    known = [t for t in types if isinstance(t, Scalar) or isinstance(t, Opaque) and t.what == "str"]
    if len(known) != len([t for t in types if not isinstance(t, Opaque) or t.what not in ("unknown",)]) or not known:
        return None
    if all(isinstance(t, Opaque) for t in known):
        return "unicode_type"
    if any(isinstance(t, Opaque) for t in known):
        return None
    dtype = np.result_type(*(np.dtype(t.dtype) for t in known if isinstance(t, Scalar))).name
    return None if dtype in ("float16", "bfloat16") else _NUMBA_NAMES.get(dtype, dtype)


_PLACEHOLDERS = {"int64": cst.Integer("0"), "float64": cst.Float("0.0"), "boolean": cst.Name("False")}


class _Reads(cst.CSTTransformer):
    """A store's value with each read of the dict `name` (`name.get(...)`, `name[k]`) replaced by a value of
    the type the dict is taken to hold."""

    def __init__(self, name: str, stand_in: cst.BaseExpression):
        super().__init__()
        self.name, self.stand_in = name, stand_in

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if isinstance(func, cst.Attribute) and func.attr.value == "get" and isinstance(func.value, cst.Name) \
                and func.value.value == self.name:
            return self.stand_in.deep_clone()
        return updated

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        if isinstance(original.value, cst.Name) and original.value.value == self.name:
            return self.stand_in.deep_clone()
        return updated


class TypedDicts(cst.CSTTransformer):
    def __init__(self, types: Types, intrinsic: Callable[[str, str], str]):
        super().__init__()
        self.types, self.intrinsic = types, intrinsic
        self.made: dict[str, tuple[str, str]] = {}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self.made:
            return
        uses = _Uses(_gets(node, {n for n, kind in containers(node).items() if kind == "dict"}))
        walk(node.body, uses)
        for name in uses.names:
            key = _common([self.types.of(k) for k in uses.keys[name]])
            value = self._value_type(name, uses.values[name])
            if key is not None and value is not None:
                self.made[name] = (key, value)

    def _value_type(self, name: str, values: list[cst.BaseExpression]) -> str | None:
        """The stores' and defaults' common type, the stores that read the dict (`d.get(k, 0) + 1.0`) typed
        with that type in place of the read, again until it holds (an int default with float stores: float)."""
        types = [self.types.of(v) for v in values]
        reading = [v for v, t in zip(values, types) if t == UNKNOWN]
        known = [t for t in types if t != UNKNOWN]
        common = _common(known)
        for _ in range(3):
            stand_in = _PLACEHOLDERS.get(common or "")
            if stand_in is None:
                return common
            more = [self.types.of(v.visit(_Reads(name, stand_in))) for v in reading]  # type: ignore[arg-type]
            widened = _common(known + [t for t in more if t != UNKNOWN])
            if widened == common:
                return common
            common = widened
        return common

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        if len(original.targets) != 1 or not isinstance(original.targets[0].target, cst.Name):
            return updated
        made = self.made.get(original.targets[0].target.value)
        value = original.value
        empty_literal = isinstance(value, cst.Dict) and not value.elements or isinstance(value, cst.Call) \
            and isinstance(value.func, cst.Name) and value.func.value == "dict" and not value.args
        if made is None or not empty_literal:
            return updated  # a dict written with items types itself
        empty = cst.Attribute(cst.Name(self.intrinsic("numba.typed", "Dict")), cst.Name("empty"))
        kinds = cst.Name(self.intrinsic("numba", "types"))
        return updated.with_changes(value=cst.Call(empty, [cst.Arg(cst.Attribute(kinds, cst.Name(t))) for t in made]))
