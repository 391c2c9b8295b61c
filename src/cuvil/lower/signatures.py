"""A helper called with several argument types becomes one copy per signature (`h`, `h_1`, …), each call site
calling the copy of its argument types, so every copy is typed and lowered with its own types.

The lowering types a helper only under one signature; one called as `h(int8_array, …)` and as
`h(float32_array, …)` went to Numba as written, whose typing computes `int8 + int8` in int64: `a.max() + x`
returned 254 where NumPy wraps to -2. Each copy is what Numba itself would compile per signature, so the
generated code grows only by the functions Numba compiled anyway. Recursive helpers are left as they are (a
copy's recursive call would need its own copy, without end); the check passes refuse them where the
signatures' checks differ (lower/program.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import libcst as cst

from ..analysis.type_rules import Types
from ..cfg.effects import Global
from ..frontend.walk import walk

Retype = Callable[[], dict[str, Types]]  # the functions typed anew (thoroughly), the single-signature ones
Signature = tuple[object, ...]  # a call's argument types: positional ones, then (keyword, type) pairs


def one_signature_each(functions: dict[str, cst.FunctionDef], retype: Retype, clone: Callable[[str], str],
                       globals: Callable[[], Mapping[str, Global]]) -> tuple[dict[str, str], dict[str, Types]]:
    """Copies helpers of `functions` (in place) until each is typed under one signature; returns the copies
    made, copy → original, and the functions' types as they stand then (the lowering's first typing).
    `clone(name)` binds a new module name for a copy of the helper `name`."""
    copies: dict[str, str] = {}
    for _ in range(8):  # each round reaches one more level of helpers below the entry
        typed = retype()
        calls = _helper_calls(functions, typed)
        several = {h: sorted(sigs, key=str) for h, sigs in calls.items()
                   if len(sigs) > 1 and h not in typed and not _recursive(h, functions, globals())}
        if not several:
            return copies, typed
        names: dict[tuple[str, Signature], str] = {}
        for helper, sigs in several.items():
            names[(helper, sigs[0])] = helper
            for sig in sigs[1:]:
                new = clone(copies.get(helper, helper))
                functions[new] = functions[helper].with_changes(name=cst.Name(new))
                copies[new] = copies.get(helper, helper)
                names[(helper, sig)] = new
        for caller, types in typed.items():
            functions[caller] = cst.ensure_type(functions[caller].visit(_CallCopies(types, names)), cst.FunctionDef)
    return copies, retype()


def _signature(types: Types, call: cst.Call) -> tuple[str, Signature] | None:
    """The helper a call calls and its argument types as the call passes them (positional, then keywords by
    name): calls that bind to one set of parameter types the same way are typed once (lower/program_types.bind)."""
    effect = types.calls.effect(call)
    if not effect.name.startswith("helper "):
        return None
    positional = tuple(types.of(a.value) for a in call.args if a.keyword is None)
    keywords = tuple(sorted((a.keyword.value, types.of(a.value)) for a in call.args if a.keyword is not None))
    return effect.name[7:], positional + keywords


def _helper_calls(functions: Mapping[str, cst.FunctionDef], typed: dict[str, Types]) \
        -> dict[str, set[Signature]]:
    """The signatures each helper is called with from the typed functions."""
    found: dict[str, set[Signature]] = {}

    class Calls(cst.CSTVisitor):
        def __init__(self, types: Types):
            super().__init__()
            self.types = types

        def visit_Call(self, node: cst.Call) -> None:
            signature = _signature(self.types, node)
            if signature is not None:
                found.setdefault(signature[0], set()).add(signature[1])

    for name, types in typed.items():
        walk(functions[name].body, Calls(types))
    return found


def _recursive(name: str, functions: Mapping[str, cst.FunctionDef], globals: Mapping[str, Global]) -> bool:
    """Whether `name` may call itself, directly or through other helpers."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        for callee in _callees(functions[todo.pop()], globals, functions):
            if callee == name:
                return True
            if callee not in seen:
                seen.add(callee)
                todo.append(callee)
    return False


def _callees(fn: cst.FunctionDef, globals: Mapping[str, Global], functions: Mapping[str, cst.FunctionDef]) -> set[str]:
    found: set[str] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name):
                where = globals.get(node.func.value)
                if where is not None and where.kind == "helper" and where.qualname in functions:
                    found.add(where.qualname)

    walk(fn.body, Calls())
    return found


class _CallCopies(cst.CSTTransformer):
    def __init__(self, types: Types, names: dict[tuple[str, Signature], str]):
        super().__init__()
        self.types, self.names = types, names

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        signature = _signature(self.types, original)
        new = self.names.get(signature) if signature is not None else None
        if new is None or not isinstance(updated.func, cst.Name) or new == updated.func.value:
            return updated
        return updated.with_changes(func=cst.Name(new))
