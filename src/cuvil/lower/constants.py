"""Module-level arrays are compiled in as constants (Numba freezes every global): a function that writes one is
refused at the line, before Numba sees it.

Python would change the module's array; the compiled code cannot. Numba refuses most such writes while typing
(`Cannot modify readonly array`), but in words of its own, and some it fails on inside its own code (`ARR[1:] +=
x` ends in an AttributeError), so the check is Cuvil's: a store, an in-place update, or a known library call or
helper that writes (`np.add(…, out=ARR)`, `ARR.fill(x)`), whose target may be a global array's memory, through a
view or an alias too (`a = mod.ARR[1:]; a[0] = x`), in the entry and in every helper. A call Cuvil knows nothing
about is assumed to write its arguments elsewhere (the conservative answer); here that would refuse code that
only reads, so such calls are left to Numba.
"""

from __future__ import annotations

import linecache
from collections.abc import Mapping

import libcst as cst

from ..cfg.aliases import Aliases
from ..cfg.program import FunctionAnalysis
from ..errors import CuvilTypeError
from ..frontend.walk import walk
from ..library import numpy as library
from ..normalize.origins import origin_of

WRITES_CONSTANT = ("this line writes a module-level array, which compiled code holds as a read-only constant (Python "
                   "would change the module's array); pass the array as an argument to write it")


def refuse_constant_writes(functions: Mapping[str, cst.FunctionDef], analyses: Mapping[str, FunctionAnalysis],
                           filenames: Mapping[str, str]) -> None:
    for name, fn in functions.items():
        finder = _Writes(analyses[name].aliases)
        walk(fn.body, finder)
        if finder.line is not None and finder.found:
            filename = filenames.get(name)
            text = linecache.getline(filename, finder.line) if filename else ""
            raise CuvilTypeError(WRITES_CONSTANT, filename, finder.line, text or None)


class _Writes(cst.CSTVisitor):
    """Stops at the first statement that writes a global array."""

    def __init__(self, aliases: Aliases):
        self.aliases, self.found = aliases, False
        self.line: int | None = None

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self.found:
            return False
        if isinstance(node, cst.BaseStatement):
            self.line = origin_of(node) or self.line
        return super().on_visit(node)

    def _written(self, target: cst.BaseExpression) -> None:
        while isinstance(target, cst.Subscript):
            target = target.value
        roots = self.aliases.roots(target)
        for root in roots:
            found = self.aliases.calls.global_of(root[7:]) if root.startswith("global:") else None
            if found is not None and found.kind == "constant":
                self.found = True

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Subscript):
                self._written(target.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._written(node.target)

    def visit_Call(self, node: cst.Call) -> None:
        effect = self.aliases.calls.effect(node)
        known = effect.name.startswith("helper ") or library.lookup(effect.name) is not library.UNKNOWN or (
            effect.name.startswith(".") and library.method(effect.name[1:]) is not library.UNKNOWN)
        for written in effect.writes if known else ():
            self._written(written)
