"""Whether compiled code draws random numbers: then the call shares the caller's random streams
(runtime/random_state.py), which costs a copy of two generators' states per call, so only such programs pay."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import libcst as cst

from ..frontend.walk import walk
from .effects import Calls, Global

_GENERATORS = ("numpy.random.", "random.")


def draws_random(functions: Iterable[cst.FunctionDef], globals: Mapping[str, Global]) -> bool:
    """Whether any of `functions` calls NumPy's legacy `np.random.*` or Python's `random.*`."""
    found = False

    class Find(cst.CSTVisitor):
        def __init__(self, calls: Calls):
            super().__init__()
            self.calls = calls

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            found = found or self.calls.effect(node).name.startswith(_GENERATORS)

    for fn in functions:
        walk(fn.body, Find(Calls(globals, {p.name.value for p in fn.params.params}, {})))
    return found
