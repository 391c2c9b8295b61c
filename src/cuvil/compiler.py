"""The compiler driver: one user function (and every function it calls) → one generated module's source.

Runs the stages in order for each function — source, parse, subset check, normalize (front.py), analyze,
codegen — and times them. Callees are found by resolving the free names each function reads: a `@cuvil.jit` or
plain user function becomes another function in the same module, so a user decorates only the entry point.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import time
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import libcst as cst
import numpy as np

from .analysis import shapes
from .analysis.types import UNKNOWN, Type, of_value
from .cfg import random_draws
from .cfg.annotate import cfg_source
from .cfg.build import all_statements
from .cfg.effects import Global
from .cfg.uses import reads
from .codegen.bindings import Binding, Callee, Import, Injected, Literal, bind
from .codegen.cpu import FunctionUnit, PythonPow, line_map, module_source, print_plan
from .codegen.module_reads import ModuleReads
from .codegen.specialize import StaticDims
from .codegen.updates import INTRINSICS, InplaceUpdates, ufunc_arity
from .errors import (
    CuvilAxisError,
    CuvilError,
    CuvilIndexError,
    CuvilInternalError,
    CuvilNameError,
    CuvilShapeError,
    CuvilSyntaxError,
    CuvilTypeError,
)
from .front import RESERVED, Front, free_names, front_end
from .frontend.captures import MISSING, is_builtin, lookup
from .frontend.source import Source
from .lower import returns
from .lower.plan import ParallelNest, Plan
from .lower.program import Program, lower_program
from .normalize.names import Rename, all_names, assigned_names
from .normalize.origins import origin_of
from .normalize.pipeline import Normalized
from .options import Options

if TYPE_CHECKING:  # the CUDA printer is imported when a CUDA variant is generated, not for the CPU
    from .codegen.cuda_module import CudaModule

STAGES = ("parse", "normalize", "analyze", "codegen")


@dataclasses.dataclass(frozen=True)
class Generated:
    source: str  # the module's text
    entry: str  # the entry function's name in it
    line_map: list[tuple[str, int] | None]
    injected: dict[str, tuple[str, ...]]  # module name → path of captured names from the entry function
    normalized: str  # `fn.source("normalized")` of the entry function
    cfg: str  # `fn.source("cfg")`
    seconds: dict[str, float]
    loops: list[str]  # per function and range loop: parallel or serial, and why (for cuvil.explain)
    writes: tuple[str, ...] = ()  # the entry's parameters it may write into (its summary, cfg/summary.py)
    plan: str = ""  # `fn.source("plan")`: each function's Plan (lower/plan.py)
    # The Plans themselves, callees after the entry, for cuvil.inspect (fingerprints, diffs, the cost model);
    # not part of a cache entry: a warm start has none, and cuvil.inspect generates them again.
    plans: dict[str, Plan] = dataclasses.field(default_factory=dict, compare=False, repr=False)
    # Each function's stages that no Specialization changes (Front), for generating it again with other
    # shapes (runtime/cache.py decides the static dims so); not part of a cache entry either.
    fronts: dict[types.FunctionType, Front] = dataclasses.field(default_factory=dict, compare=False, repr=False)
    substituted: bool = False  # a static dim became a constant in the entry (codegen/specialize.read_dims)


@dataclasses.dataclass(frozen=True)
class Specialization:
    """What a variant is compiled for, beyond Numba's types: per parameter its shape, each dim a size the
    variant specializes on (static) or None (dynamic); None for parameters that are not arrays."""

    shapes: tuple[tuple[int | None, ...] | None, ...] = ()
    args: tuple[Type, ...] = ()  # per parameter: the argument's type (analysis/types.py), Python numbers weak
    as_written: bool = False  # keep NumPy code as written: no array lowering, no dtype conversions (a fallback)

    def static(self, params: list[str]) -> dict[str, dict[int, int]]:
        return {
            name: {k: d for k, d in enumerate(shape) if d is not None}
            for name, shape in zip(params, self.shapes)
            if shape is not None
        }


class _Timer:
    def __init__(self) -> None:
        self.seconds = dict.fromkeys(STAGES, 0.0)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        except CuvilError:
            raise
        except Exception as exc:  # a bug of ours: say where, keep the cause
            raise CuvilInternalError(name, f"{type(exc).__name__}: {exc}") from exc
        finally:
            self.seconds[name] += time.perf_counter() - start


class _Module:
    """The generated module being assembled: its names, its functions, and the work list of callees."""

    def __init__(self, options: Options, timer: _Timer, spec: Specialization,
                 fronts: dict[types.FunctionType, Front]):
        self.options, self.timer, self.spec, self.fronts = options, timer, spec, fronts
        self.names_in: dict[int, tuple[cst.CSTNode, set[str]]] = {}  # free_name's all_names, by node
        self.names: dict[str, Binding] = {"numba": bind(__import__("numba"))}  # type: ignore[dict-item]
        self.emitted: dict[types.FunctionType, str] = {}
        self.paths: dict[types.FunctionType, tuple[str, ...]] = {}
        self.injected: dict[str, tuple[str, ...]] = {}
        self.units: list[FunctionUnit] = []
        self.todo: list[types.FunctionType] = []
        self.writes: tuple[str, ...] = ()  # set by lower()
        self.plan = ""  # set by lower()
        self.plans: dict[str, Plan] = {}  # set by lower(): the Plan objects, for cuvil.inspect
        self.substituted = False  # set by specialize()
        self.sources: dict[str, Source] = {}  # by the function's name in the module
        self.originals: dict[types.FunctionType, dict[str, str]] = {}  # front.py's renames: new → the user's
        self.cuda: CudaModule | None = None  # the CUDA target's module (codegen/cuda_module.py), set by lower()

    def claim(self, wanted: str, binding: Binding) -> str:
        """A module-level name for `binding`: `wanted` unless another value holds it already."""
        name, n = wanted, 0
        while name in RESERVED or (name in self.names and self.names[name] != binding):
            n += 1
            name = f"{wanted}_{n}"
        self.names[name] = binding
        return name

    def add_function(self, fn: types.FunctionType, path: tuple[str, ...]) -> str:
        if fn not in self.emitted:
            self.emitted[fn] = self.claim(fn.__name__, Callee(fn))
            self.paths[fn] = path
            self.todo.append(fn)
        return self.emitted[fn]

    def compile_one(self, fn: types.FunctionType) -> Normalized:
        front = self.fronts.get(fn)
        if front is None:
            front = self.fronts[fn] = front_end(fn, self.timer.stage)
        source, norm = front.source, front.norm
        self.originals[fn] = front.originals
        with self.timer.stage("analyze"):
            function = self.bind_defaults(fn, front.function, source)
            renames = self.resolve(fn, function, source)
            function = function.visit(Rename(renames)) if renames else function  # type: ignore[assignment]
            function = self.module_callees(fn, function, renames)
            function = self.specialize(function, source, entry=not self.units)
            function = self.python_pow(function)
        self.units.append(FunctionUnit(self.emitted[fn], function, source.filename, False))
        self.sources[self.emitted[fn]] = source
        return norm

    def lower(self, params: list[str]) -> list[str]:
        """The program-level stage (lower/program.py) over every function compiled so far, then each Plan
        printed for the CPU (codegen/cpu.py)."""
        program = Program({u.name: u.function for u in self.units}, self.units[0].name, tuple(params),
                          self.spec.args, self.spec.shapes,
                          lambda: {name: _global(name, b) for name, b in self.names.items()},
                          {name: _value_type(b) for name, b in self.names.items()},
                          {u.name: u.filename for u in self.units}, self.copy_helper)
        options = self.options
        if options.target == "cuda" and options.parallel is None:  # a GPU runs nothing well serially
            options = dataclasses.replace(options, parallel=True)
        lowered = lower_program(program, options, self.timer.stage, self.runtime_name, self.spec.as_written)
        for copy, original in lowered.copies.items():  # next to the helper it copies, printed from its own Plan
            k = next(i for i, u in enumerate(self.units) if u.name == original)
            self.units.insert(k + 1, dataclasses.replace(self.units[k], name=copy, function=self.units[k].function
                                                         .with_changes(name=cst.Name(copy))))
            self.sources[copy] = self.sources[original]
        if lowered.result:  # which results are half precision, for runtime/adapters.py (in the module: cached)
            self.names["CUVIL_HALVES"] = Literal(repr(lowered.result))
        if lowered.several_returns:  # the entry returns (which, slot, …): runtime/adapters.py picks the slot
            self.names[returns.MARK] = Literal("True")
        if lowered.numpy_bools:  # which results are np.bool_ (Numba returns Python bools)
            self.names["CUVIL_NUMPY_BOOLS"] = Literal(repr(lowered.numpy_bools))
        if random_draws.shared(self.units, program.globals()):  # compiled code draws from the caller's streams
            self.names["CUVIL_RANDOM"] = Literal("True")
        self.writes = lowered.writes
        self.plan = "\n".join(lowered.plans[u.name].text() for u in self.units)
        self.plans = {u.name: lowered.plans[u.name] for u in self.units}
        if options.target == "cuda":
            from .codegen.cuda_module import generate_cuda

            with self.timer.stage("codegen"):
                self.cuda = generate_cuda(lowered.plans, self.units, self.sources, program, self.names,
                                          cache=options.cache)
            return lowered.loops + self.cuda.notes
        with self.timer.stage("codegen"):
            for k, unit in enumerate(self.units):
                plan = lowered.plans[unit.name]
                printed = print_plan(plan, self.runtime_name)
                parallel = any(isinstance(r, ParallelNest) for r in plan.walk())
                self.units[k] = dataclasses.replace(unit, function=printed, parallel=parallel)
        return lowered.loops

    def copy_helper(self, name: str) -> str:
        """A new module name for a copy of the helper `name`, typed under another signature (lower/signatures.py)."""
        fn = next(f for f, n in self.emitted.items() if n == name)
        copy = self.free_name(name, self.units[0].function)
        self.names[copy] = Callee(fn)
        return copy

    def runtime_name(self, module: str, name: str) -> str:
        """The generated module's name for a helper of `module` (or, with no name, `module` itself)."""
        binding = Import(module, name or None)
        found = next((n for n, b in self.names.items() if b == binding), None)
        if found is None:
            found = self.free_name({"numpy": "np"}.get(module, module) if not name else name, self.units[0].function)
            self.names[found] = binding
        return found

    def specialize(self, function: cst.FunctionDef, source: Source, entry: bool) -> cst.FunctionDef:
        """Refuse certain shape contradictions, give in-place updates NumPy's and Python's meaning, then make
        static dims constants. Only the entry function's argument shapes are known, and only it runs for
        certain: a callee gets run-time checks only."""
        params = [p.name.value for p in function.params.params]
        known = shapes.signature_shapes(params, self.spec.shapes) if entry else {}
        checked = shapes.check(function, known, certain=entry)
        error = checked.error
        if error is not None:
            line = error.line or source.first_line
            kind = CuvilIndexError if error.index else CuvilAxisError if error.axis else CuvilShapeError
            raise kind(error.message, source.filename, line, source.line(line), error.argument)
        names = {n: self.intrinsic(n, function, used=False) for n in INTRINSICS}
        updates = InplaceUpdates(function, checked.inplace, names, arity=ufunc_arity(self.names))
        updated = function.visit(updates)
        for name in sorted(updates.used):
            self.intrinsic(name, function)  # the name chosen above, before the calls used it
        function = updated  # type: ignore[assignment]
        if not entry:
            return function
        ranks = {n: len(s) for n, s in zip(params, self.spec.shapes) if s is not None}
        static = StaticDims(self.spec.static(params), ranks)
        out = function.visit(static)
        assert isinstance(out, cst.FunctionDef)
        self.substituted = static.substituted
        return out

    def intrinsic(self, name: str, function: cst.FunctionDef, used: bool = True,
                  module: str = "cuvil.runtime.intrinsics") -> str:
        """The module-level name of one of `module`'s helpers; imported into the generated module if used."""
        binding = Import(module, name)
        found = next((n for n, b in self.names.items() if b == binding), None) or self.free_name(name, function)
        if used:
            self.names[found] = binding
        return found

    def python_pow(self, function: cst.FunctionDef) -> cst.FunctionDef:
        local = {p.name.value for p in function.params.params} | assigned_names(function.body)
        rewrite = PythonPow(self.intrinsic("py_pow", function, used=False), "pow" not in set(self.names) | local)
        out = function.visit(rewrite)
        assert isinstance(out, cst.FunctionDef)
        if rewrite.used:
            self.intrinsic("py_pow", function)
        return out

    def free_name(self, wanted: str, function: cst.FunctionDef) -> str:
        """A module-level name no binding and no function (compiled so far, or `function`) uses."""
        taken = self.all_names(function).union(*(self.all_names(u.function) for u in self.units))
        name, n = wanted, 0
        while name in self.names or name in taken:
            n += 1
            name = f"{wanted}_{n}"
        return name

    def all_names(self, node: cst.CSTNode) -> set[str]:
        """normalize.names.all_names, once per tree: free_name asks for every unit's at every new name."""
        found = self.names_in.get(id(node))
        if found is None:  # the node is kept with its names: its id cannot be reused meanwhile
            found = self.names_in[id(node)] = (node, all_names(node))
        return found[1]

    def bind_defaults(self, fn: types.FunctionType, function: cst.FunctionDef, source: Source) -> cst.FunctionDef:
        """Each default as the value Python computed when the `def` ran (`fn.__defaults__`), not as its
        expression: `def h(x, k=D0)` keeps the D0 of then however D0 changes since, and a `__defaults__`
        changed later is seen by the guards (frontend/captures.walk reads it)."""
        values = fn.__defaults__ or ()
        params = list(function.params.params)
        values = values[max(0, len(values) - len(params)):]
        first = len(params) - len(values)  # Python gives the defaults to the last parameters
        out = []
        for i, param in enumerate(params):
            if i < first:
                out.append(param.with_changes(default=None, equal=cst.MaybeSentinel.DEFAULT))
                continue
            k, value = i - first, values[i - first]
            binding = bind(value)
            if binding is None:
                line = source.first_line
                raise CuvilTypeError(
                    f"the default of '{param.name.value}' is a {type(value).__name__}, which compiled code "
                    "cannot use; pass it as an argument", source.filename, line, source.line(line))
            path = (*self.paths[fn], f"__defaults__[{k}]")
            if isinstance(binding, Literal):
                expression: cst.BaseExpression = cst.parse_expression(binding.text)
            elif isinstance(binding, Callee):
                expression = cst.Name(self.add_function(binding.function, path))
            else:
                name = self.free_name(f"_{fn.__name__}_{param.name.value}_default", function)
                self.names[name] = binding
                if isinstance(binding, Injected):
                    self.injected[name] = path
                expression = cst.Name(name)
            out.append(param.with_changes(default=expression))
        return function.with_changes(params=function.params.with_changes(params=out))

    def resolve(self, fn: types.FunctionType, tree: cst.FunctionDef, source: Source) -> dict[str, str]:
        renames = {}
        originals = self.originals.get(fn, {})
        for name, node in sorted(free_names(tree).items()):
            if name in RESERVED or is_builtin(fn, name):  # front.py left only Python's own under these names
                continue
            value = lookup(fn, originals.get(name, name))
            line = self._line_of(tree, node, source)
            if value is MISSING:
                raise CuvilNameError(f"name '{originals.get(name, name)}' is not defined", source.filename, line,
                                     source.line(line))
            binding = bind(value)
            if binding is None:
                raise CuvilTypeError(
                    f"global '{originals.get(name, name)}' is a {type(value).__name__}, which compiled code cannot "
                    "use; pass numbers and arrays as arguments or module constants",
                    source.filename, line, source.line(line),
                )
            if isinstance(binding, Callee):
                _refuse_lambda(name, binding.function, source, line)
                module_name = self.add_function(binding.function, (*self.paths[fn], name))
            else:
                module_name = self.claim(name, binding)
                if isinstance(binding, Injected):
                    self.injected[module_name] = (*self.paths[fn], name)
            if module_name != name:
                renames[name] = module_name
        return renames

    def module_callees(self, fn: types.FunctionType, tree: cst.FunctionDef, renames: dict[str, str]) \
            -> cst.FunctionDef:
        """What `fn` reads through a module, bound as names of the generated module (codegen/module_reads.py)."""
        free, originals = free_names(tree), self.originals.get(fn, {})
        back = {new: old for old, new in renames.items()}

        def module_of(name: str) -> object:
            user = back.get(name, name)
            return lookup(fn, originals.get(user, user)) if name in free else None

        def constant(binding: Binding, value: object, path: tuple[str, ...]) -> str:
            same = next((n for n, b in self.names.items() if isinstance(b, Injected) and b.value is value
                         or isinstance(binding, Literal) and b == binding), None)
            if same is None:
                same = self.free_name(path[-1], tree)
                self.names[same] = binding
                if isinstance(binding, Injected):
                    self.injected[same] = (*self.paths[fn], back.get(path[0], path[0]), *path[1:])
            return same

        reads = ModuleReads(module_of, lambda callee, path: self.add_function(
            callee, (*self.paths[fn], back.get(path[0], path[0]), *path[1:])), constant)
        return cst.ensure_type(tree.visit(reads), cst.FunctionDef)

    @staticmethod
    def _line_of(tree: cst.FunctionDef, node: cst.Name, source: Source) -> int:
        for stmt in all_statements(tree):
            if any(n is node for n in reads(stmt)):
                return origin_of(stmt) or source.first_line
        return source.first_line


def _refuse_lambda(name: str, callee: types.FunctionType, source: Source, line: int) -> None:
    """A lambda is outside the subset (its source is a whole line, maybe holding several): a CuvilSyntaxError
    at the line that uses it, with the `def` to write instead."""
    if callee.__name__ != "<lambda>":
        return
    text = source.line(line)
    found = re.search(rf"\b{re.escape(name)}\b", text)
    raise CuvilSyntaxError(
        f"'{name}' is a lambda, which cannot be compiled", source.filename, line,
        (found.start() if found else 0) + 1, text,
        hint=f"define it with def at module level: def {name}{inspect.signature(callee)}: return ...",
    )


def generate(fn: types.FunctionType, options: Options, spec: Specialization = Specialization(),
             again: Generated | None = None) -> Generated:
    """The generated module for `fn` (specialized as `spec` says) and its callees, with stage timings. `again`:
    a generation of the same functions to take the shape-independent stages from (`Generated.fronts`); the
    result is then only for comparing its source and Plans: no normalized and cfg texts."""
    timer = _Timer()
    module = _Module(options, timer, spec, dict(again.fronts) if again is not None else {})
    entry = module.add_function(fn, ())
    entry_norm: Normalized | None = None
    while module.todo:
        norm = module.compile_one(module.todo.pop(0))
        entry_norm = entry_norm or norm
    assert entry_norm is not None
    loops = module.lower([p.name.value for p in entry_norm.function.params.params])
    with timer.stage("codegen"):
        units = module.units[::-1]  # callees before their callers: the module reads bottom-up, like Python
        if module.cuda is not None:
            source, mapping = module.cuda.source, module.cuda.line_map
        else:
            source = module_source(entry, units, module.names, options)
            mapping = line_map(source, units)
        normalized = entry_norm.module.code if again is None else ""
        cfg = cfg_source(entry_norm.module) if again is None else ""
    return Generated(source, entry, mapping, dict(module.injected), normalized, cfg, timer.seconds, loops,
                     module.writes, module.plan, module.plans, module.fronts, module.substituted)


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


def _value_type(binding: Binding) -> Type:
    """The type of a module-level constant (literals and captured NumPy values)."""
    if isinstance(binding, Literal):
        try:
            return of_value(eval(binding.text, {"float": float, "complex": complex}))  # noqa: S307 (our own text)
        except Exception:  # noqa: BLE001
            return UNKNOWN
    if isinstance(binding, Injected):
        return of_value(binding.value)
    return UNKNOWN
