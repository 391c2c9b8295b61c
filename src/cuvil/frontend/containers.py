"""Which names hold a dict or a set, read off the syntax: every assignment of the name builds one (a literal, a
comprehension, `dict()`, `set()`, `{}`). The types know no dicts or sets (Numba types them); the front end and
the normalizer need to know them where they differ from arrays: a set's iteration order is CPython's hash
table's, which compiled code does not promise (frontend/subset.py refuses it), and a dict is iterated through a
list of its keys or items (normalize/for_in.py), not by index.
"""

from __future__ import annotations

import libcst as cst

from .walk import walk

_BUILT = {cst.Dict: "dict", cst.DictComp: "dict", cst.Set: "set", cst.SetComp: "set"}


def _kind(value: cst.BaseExpression | None) -> str | None:
    if value is None:
        return None
    kind = _BUILT.get(type(value))
    if kind is not None:
        return kind
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("dict", "set") \
            and not value.args:
        return value.func.value
    return None


def containers(fn: cst.FunctionDef) -> dict[str, str]:
    """name → "dict" or "set", for the names every binding of which makes one (parameters excluded)."""
    kinds: dict[str, set[str | None]] = {}

    class Bindings(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    kinds.setdefault(target.target.value, set()).add(_kind(node.value))
                else:
                    for name in bound(target.target):
                        kinds.setdefault(name, set()).add(None)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            for name in bound(node.target):
                kinds.setdefault(name, set()).add(None)

        def visit_For(self, node: cst.For) -> None:
            for name in bound(node.target):
                kinds.setdefault(name, set()).add(None)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            for name in bound(node.target):
                kinds.setdefault(name, set()).add(None)

    walk(fn.body, Bindings())
    params = {p.name.value for p in fn.params.params}
    return {name: next(iter(found)) for name, found in kinds.items()  # type: ignore[misc]
            if name not in params and len(found) == 1 and None not in found}


def bound(target: cst.BaseExpression) -> list[str]:
    """The names an assignment target binds (`d[k] = v` binds none)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, cst.Tuple | cst.List):
        return [n for e in target.elements for n in bound(e.value)]
    if isinstance(target, cst.StarredElement):
        return bound(target.value)
    return []
