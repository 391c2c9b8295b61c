"""A compiled function's effects on its parameters, as its callers' analyses see a call to it.

Computed from the function's own body, callees first (compiler.py orders them), so effects are known
transitively: a helper that writes `a[i + 1]` of its argument makes the caller's argument written, and a helper
that may raise makes a parallel loop calling it serial (a raise inside a parallel loop would be lost).
"""

from __future__ import annotations

import libcst as cst

from ..frontend.walk import walk
from .accesses import Collector
from .aliases import Aliases
from .build import all_statements, statements
from .effects import Summary
from .raising import Opaque, statement_checks


def _returned(fn: cst.FunctionDef) -> list[cst.BaseExpression]:
    found: list[cst.BaseExpression] = []

    class Returns(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            if node.value is not None:
                found.append(node.value)

    walk(fn.body, Returns())
    return found


def summarize(fn: cst.FunctionDef, aliases: Aliases) -> Summary:
    params = tuple(p.name.value for p in fn.params.params)
    collected = Collector(aliases).statements(statements(fn.body))
    writes = {k for k, p in enumerate(params) for a in collected.accesses if a.write and f"arg:{p}" in a.roots}
    returned = frozenset().union(*(aliases.roots(v) for v in _returned(fn)))
    views = {k for k, p in enumerate(params) if f"arg:{p}" in returned}
    raises = ordered = None
    for site in collected.calls:
        if site.effect.ordered:
            ordered = f"L{site.line}: {site.effect.name}"
            break
    for stmt in all_statements(fn.body):
        try:
            checks = statement_checks(stmt, aliases.calls)
        except Opaque as why:
            raises = str(why)
            break
        if checks:
            raises = f"L{checks[0].line}: {checks[0].exception}"
            break
    return Summary(params, frozenset(writes), frozenset(views), raises, ordered,
                   tuple(p.default for p in fn.params.params))
