"""The lowering stage over the whole generated module: types, dtype conversions, parallel loops.

Runs after the last rewrite of the front end (compiler.py), on every function the module holds:
  1. types (analysis/type_rules.py): the entry from its arguments, each helper from the types its call sites
     pass — when they all agree; a helper called with several signatures keeps Numba's own typing;
  2. whole-array code to fused loop nests (lower/arrays.py, fuse.py), typed anew;
  3. conversions that make Numba compute NumPy's and CPython's dtypes (lower/casts.py);
  4. summaries callees first and parallel-loop decisions (cfg/program.py), printed as prange loops
     (codegen/parallel.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Mapping, Sequence

import libcst as cst
import numpy as np

from ..analysis import shapes
from ..analysis.type_rules import Types
from ..analysis.types import UNKNOWN, Scalar, Type, of_value
from ..cfg.effects import Calls, Global
from ..cfg.program import analyze_program
from ..codegen.bindings import Binding, Callee, Import, Injected, Literal
from ..codegen.cpu import FunctionUnit
from ..codegen.parallel import parallel_loop
from ..normalize.names import Fresh, all_names, assigned_names
from ..options import Options
from .arrays import Lowering
from .blocks import lower_arrays
from .casts import Casts


@dataclasses.dataclass(frozen=True)
class Lowered:
    units: list[FunctionUnit]
    loops: list[str]  # per function and range loop: parallel or serial, and why
    writes: tuple[str, ...]  # the entry's parameters it may write into


Stage = Callable[[str], contextlib.AbstractContextManager[None]]
Intrinsic = Callable[[str, str], str]  # (module, name) → its name in the generated module; ("numpy", ""): numpy


def lower_program(units: Sequence[FunctionUnit], params: Sequence[str], args: Sequence[Type],
                  shapes_in: Sequence[tuple[int | None, ...] | None], names: Mapping[str, Binding],
                  options: Options, stage: Stage, intrinsic: Intrinsic) -> Lowered:
    """`units` entry first; `args` and `shapes` describe the entry's arguments; `names` the module's globals."""
    entry = units[0].name
    globals = {name: _global(name, binding) for name, binding in names.items()}
    values = {name: _value_type(binding) for name, binding in names.items()}
    functions = {u.name: u.function for u in units}
    numpy = lambda: intrinsic("numpy", "")  # noqa: E731 (bound on first use)
    signature = shapes.signature_shapes(params, shapes_in)
    with stage("analyze"):
        typed = _types(functions, entry, dict(zip(params, args)), globals, values)
    with stage("codegen"):
        for name, types in typed.items():
            fn = functions[name]
            table = shapes.infer(fn, signature if name == entry else {})
            lowering = Lowering(types, table, Fresh(all_names(fn)), numpy, intrinsic)
            functions[name] = lower_arrays(fn, lowering)
    globals = {name: _global(name, binding) for name, binding in names.items()}  # with the lowering's own
    with stage("analyze"):  # the lowered loops are new code: typed anew
        typed = _types(functions, entry, dict(zip(params, args)), globals, values)
    with stage("codegen"):
        for name, types in typed.items():
            functions[name] = functions[name].visit(Casts(types, numpy))  # type: ignore[assignment]
    numbers = frozenset(p for p, kind in zip(params, args) if isinstance(kind, Scalar))
    ranks = {p: len(shape) for p, shape in zip(params, shapes_in) if shape is not None}
    with stage("analyze"):
        # Loops are found by node identity: nothing may rewrite a function between here and printing.
        analyses = analyze_program(functions, entry, globals, numbers, ranks, bool(options.parallel),
                                   options.boundscheck)
    words: list[str] = []
    out: list[FunctionUnit] = []
    with stage("codegen"):
        for unit in units:
            function = functions[unit.name]
            decisions = analyses[unit.name].loops
            words += [f"{unit.name} {d.describe()}" for d in decisions]
            parallel = {d.loop: d for d in decisions if d.parallel}
            if parallel:
                printer = _ParallelLoops(parallel, Fresh(all_names(function)),
                                         lambda name: intrinsic("cuvil.runtime.parallel", name))
                function = function.visit(printer)  # type: ignore[assignment]
            out.append(dataclasses.replace(unit, function=function, parallel=bool(parallel)))
    writes = tuple(params[k] for k in sorted(analyses[entry].summary.writes))
    return Lowered(out, words, writes)


def _types(functions: Mapping[str, cst.FunctionDef], entry: str, params: dict[str, Type],
           globals: Mapping[str, Global], values: Mapping[str, Type]) -> dict[str, Types]:
    """Types of the entry and of each helper typed with one signature only (else Numba's typing decides)."""
    signatures: dict[str, set[tuple[Type, ...]]] = {}
    memo: dict[tuple[str, tuple[Type, ...]], Types | None] = {}

    def typed(name: str, arguments: dict[str, Type]) -> Types | None:
        key = (name, tuple(arguments.values()))
        if key not in memo:
            memo[key] = None  # recursion: the inner call is not typed
            fn = functions[name]
            local = {p.name.value for p in fn.params.params} | assigned_names(fn.body)
            memo[key] = Types(fn, arguments, values, Calls(globals, local, {}), helper)
        return memo[key]

    def helper(name: str, arguments: tuple[Type, ...]) -> Type:
        if name not in functions:
            return UNKNOWN
        signatures.setdefault(name, set()).add(arguments)
        fn = functions[name]
        names = [p.name.value for p in fn.params.params]
        if len(arguments) > len(names):
            return UNKNOWN
        types = typed(name, dict(zip(names, arguments)))
        return _returned(fn, types) if types is not None else UNKNOWN

    out: dict[str, Types] = {}
    top = typed(entry, params)
    if top is not None:
        out[entry] = top
    for name, seen in signatures.items():
        if name != entry and len(seen) == 1:
            names = [p.name.value for p in functions[name].params.params]
            (only,) = seen
            if len(only) == len(names):
                found = memo.get((name, only))
                if found is not None:
                    out[name] = found
    return out


def _returned(fn: cst.FunctionDef, types: Types) -> Type:
    found: list[Type] = []

    class Returns(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            found.append(types.of(node.value) if node.value is not None else of_value(None))

    fn.body.visit(Returns())
    return found[0] if len(found) == 1 else UNKNOWN


def _value_type(binding: Binding) -> Type:
    if isinstance(binding, Literal):
        try:
            return of_value(eval(binding.text, {"float": float, "complex": complex}))  # noqa: S307 (our own text)
        except Exception:  # noqa: BLE001
            return UNKNOWN
    if isinstance(binding, Injected):
        return of_value(binding.value)
    return UNKNOWN


def _global(name: str, binding: Binding) -> Global:
    """A generated module's name as the analyses see it."""
    if isinstance(binding, Import):
        return Global("module", binding.module) if binding.attr is None else \
            Global("function", f"{binding.module}.{binding.attr}")
    if isinstance(binding, Callee):
        return Global("helper", name)
    if isinstance(binding, Injected) and isinstance(binding.value, np.ndarray):
        return Global("constant")
    if isinstance(binding, Injected) and not isinstance(binding.value, np.generic):
        return Global("opaque")  # a numba.njit function: Cuvil cannot see what it does
    return Global("value")


class _ParallelLoops(cst.CSTTransformer):
    def __init__(self, decisions: dict, fresh: Fresh, intrinsic: Callable[[str], str]):
        super().__init__()
        self.decisions, self.fresh, self.intrinsic = decisions, fresh, intrinsic

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.BaseStatement | cst.FlattenSentinel:
        decision = self.decisions.get(original)
        if decision is None:
            return updated
        return cst.FlattenSentinel(parallel_loop(original, decision, self.fresh, self.intrinsic))
