"""`import numpy as np` inside a function: a no-op where the module already binds the same name to the same value.

Corpora repeat their module's imports inside functions. Compiled code reads module-level values only (they are
captured and guarded), so such an import is allowed when each name it binds already means, at module level, what
the import would bind; normalize/canonical.py then drops it. Any other import is refused at its place.
"""

from __future__ import annotations

import importlib
import types

import libcst as cst

from .captures import MISSING, lookup
from .parse import Checker, Parsed

_HINT = "import it at module level; compiled code reads the module's names"


def _dotted(node: cst.BaseExpression) -> str:
    return cst.Module([]).code_for_node(node)


def _bound(alias: cst.ImportAlias, package: str | None) -> tuple[str, object]:
    """(the name an `import` alias binds, the value it binds), importing as Python would."""
    name = _dotted(alias.name)
    if package is not None:  # from package import name
        module = importlib.import_module(package)
        value = getattr(module, name, MISSING)
        if value is MISSING:
            value = importlib.import_module(f"{package}.{name}")
        return (alias.evaluated_alias or name), value
    if alias.asname is not None:
        return alias.evaluated_alias or name, importlib.import_module(name)
    top = name.split(".")[0]
    return top, importlib.import_module(top)


class _Imports(Checker):
    def __init__(self, fn: types.FunctionType, parsed: Parsed):
        super().__init__(parsed)
        self.fn = fn

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            self.same(node, alias, None)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar) or node.relative or node.module is None:
            self.fail(node, "a relative or '*' 'import' inside a jitted function is not supported", _HINT)
        assert node.module is not None and not isinstance(node.names, cst.ImportStar)
        for alias in node.names:
            self.same(node, alias, _dotted(node.module))

    def same(self, node: cst.CSTNode, alias: cst.ImportAlias, package: str | None) -> None:
        try:
            name, value = _bound(alias, package)
        except ImportError as exc:
            self.fail(node, f"'import' inside a jitted function cannot import {exc.name or _dotted(alias.name)}",
                      _HINT)
        if lookup(self.fn, name) is not value:
            self.fail(node, f"'import' inside a jitted function must bind what the module already binds; "
                            f"'{name}' at module level is not this", _HINT)

def check_imports(fn: types.FunctionType, parsed: Parsed) -> None:
    _Imports(fn, parsed).check()
