"""The random numbers compiled code draws: whether a call must share the caller's random streams
(runtime/random_state.py, which costs a copy of two generators' states per call, so only such programs pay),
and which draws take another stream than NumPy's or CPython's for the same seed (Numba's own algorithms), for a
warning at the user's line."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import libcst as cst

from ..errors import CuvilWarning
from ..frontend.walk import walk
from ..normalize.origins import origin_of
from .build import all_statements
from .effects import Calls, Global

_GENERATORS = ("numpy.random.", "random.")
# Drawn by other algorithms than NumPy's legacy RandomState / CPython's random (checked number by number over
# seeds): the distribution is right, the numbers for a seed are not NumPy's. docs/semantics.md lists both kinds.
OTHER_STREAM = frozenset({
    "numpy.random.gamma", "numpy.random.standard_gamma", "numpy.random.beta", "numpy.random.chisquare",
    "numpy.random.standard_t", "numpy.random.negative_binomial", "numpy.random.vonmises", "numpy.random.pareto",
    "numpy.random.f", "numpy.random.dirichlet", "numpy.random.noncentral_f", "random.gauss", "random.normalvariate",
})


def draws(fn: cst.FunctionDef, globals: Mapping[str, Global]) -> list[tuple[str, int | None]]:
    """Each call of `fn` to NumPy's legacy `np.random.*` or Python's `random.*`: (its qualified name, the
    user's line)."""
    calls = Calls(globals, {p.name.value for p in fn.params.params}, {})
    found: list[tuple[str, int | None]] = []

    class Find(cst.CSTVisitor):
        def __init__(self, line: int | None):
            super().__init__()
            self.line = line

        def visit_Call(self, node: cst.Call) -> None:
            name = calls.effect(node).name
            if name.startswith(_GENERATORS):
                found.append((name, self.line))

    for stmt in all_statements(fn.body):
        parts = [stmt] if isinstance(stmt, cst.SimpleStatementLine) else \
            [getattr(stmt, field) for field in ("test", "iter") if hasattr(stmt, field)]
        for part in parts:
            walk(part, Find(origin_of(stmt)))
    return found


def shared(units: Sequence[Any], globals: Mapping[str, Global]) -> bool:
    """Whether the compiled functions (`units`: codegen/cpu.FunctionUnit) draw random numbers; each draw whose
    numbers differ from NumPy's or CPython's for the same seed warns at its line, once per compile."""
    found = False
    for unit in units:
        for name, line in draws(unit.function, globals):
            found = True
            if name in OTHER_STREAM:
                shown = name.replace("numpy.", "np.", 1)
                warnings.warn_explicit(
                    f"{shown} draws from the right distribution but by Numba's algorithm, not "
                    f"{'NumPy' if shown.startswith('np.') else 'CPython'}'s: after the same seed it gives other "
                    "numbers than the plain function (docs/semantics.md lists the draws that match)",
                    CuvilWarning, unit.filename, line or 0)
    return found
