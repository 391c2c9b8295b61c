"""What a function reads through a module (`mod.helper(x)`, `mod.ARR`, `pkg.sub.K`), bound as names of the
generated module, as after `from mod import helper`: Numba knows no attribute `helper` of a module, and its
inliner fails on `mod.ARR.sum()`. A function becomes a helper compiled into the module; an array, a NumPy
scalar or a Python number a global the analyses type and lower like any other (a Python number as NumPy 2's
weak scalar: `uint8_array + cfg.K` stays uint8, where Numba's frozen attribute is a strong int64). Anything else
stays as written (Numba freezes it).
"""

from __future__ import annotations

import types
from collections.abc import Callable

import libcst as cst
import numpy as np

from .bindings import Binding, Callee, Injected, Literal, bind

Path = tuple[str, ...]  # the names as the user wrote them: ("pkg", "sub", "ARR")


class ModuleReads(cst.CSTTransformer):
    """`module_of(name)`: the module a free name holds (None for anything else); `callee(function, path)` and
    `constant(binding, path)` return the generated module's name for what the path reaches."""

    def __init__(self, module_of: Callable[[str], object], callee: Callable[[types.FunctionType, Path], str],
                 constant: Callable[[Binding, object, Path], str]):
        super().__init__()
        self.module_of, self.callee, self.constant = module_of, callee, constant

    def _reached(self, node: cst.BaseExpression) -> tuple[Path, object] | None:
        """(the path, the value) of `mod.attr` or `pkg.sub.attr`; None for anything else."""
        chain: list[str] = []
        while isinstance(node, cst.Attribute):
            chain.insert(0, node.attr.value)
            node = node.value
        if not chain or not isinstance(node, cst.Name):
            return None
        owner = self.module_of(node.value)
        for attr in chain[:-1]:
            owner = getattr(owner, attr, None) if isinstance(owner, types.ModuleType) else None
        if not isinstance(owner, types.ModuleType):
            return None
        return (node.value, *chain), getattr(owner, chain[-1], None)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        found = self._reached(updated.func)
        binding = bind(found[1]) if found is not None and found[1] is not None else None
        if found is None or not isinstance(binding, Callee):
            return updated
        return updated.with_changes(func=cst.Name(self.callee(binding.function, found[0])))

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        found = self._reached(updated)
        if found is None:
            return updated
        if isinstance(found[1], bool | int | float | complex) and not isinstance(found[1], np.generic):
            # a Python number, typed as a global: `x + cfg.K` keeps x's uint8 (np.float64 is a float too: below)
            binding = bind(found[1])
            return cst.Name(self.constant(binding, found[1], found[0])) if isinstance(binding, Literal) else updated
        if not isinstance(found[1], np.ndarray | np.generic):
            return updated
        binding = bind(found[1])
        if not isinstance(binding, Injected):  # an object array, say: Numba's own error
            return updated
        return cst.Name(self.constant(binding, found[1], found[0]))
