"""The lowering stage over the whole generated module: from the front end's functions to their Plans.

Runs after the last rewrite of the front end (compiler.py), on every function the module holds:
  1. types (analysis/type_rules.py): the entry from its arguments, each helper from the types its call sites
     pass, a helper called with several signatures copied once per signature (lower/signatures.py; a
     recursive one keeps Numba's own typing);
  2. whole-array code to fused loop nests (lower/arrays.py, fuse.py), typed anew;
  3. conversions that make Numba compute NumPy's and CPython's dtypes (lower/casts.py), and half precision as
     uint16 storage with float32 values around them (lower/precision.py, analysis/precision.py);
  4. summaries callees first and parallel-loop decisions (cfg/program.py);
  5. a Plan per function (lower/plan.py), which a target prints.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Mapping

import libcst as cst

from ..analysis import shapes
from ..analysis.precision import Precision, PrecisionError
from ..analysis.type_rules import Types
from ..analysis.types import UNKNOWN, Array, Scalar, Tuple, Type, of_value, unify
from ..cfg.build import all_statements
from ..cfg.effects import Calls, Global
from ..cfg.program import analyze_program
from ..cfg.uses import calls_in
from ..errors import CuvilTypeError
from ..normalize.names import Fresh, all_names, assigned_names
from ..normalize.origins import origin_of
from ..options import Options
from . import library_raises
from . import precision as half
from .arrays import Lowering
from .blocks import lower_arrays
from .casts import Casts
from .checks import BoundsChecks
from .constants import refuse_constant_writes
from .division_into import UntypedDivisions
from .divmods import Divmods
from .located import Located
from .overflow import OverflowChecks
from .plan import Plan, build_plan
from .pypow import PythonPowers, powers
from .pyscalars import PythonScalars, wanted
from .returns import SeveralReturns, kinds
from .signatures import one_signature_each
from .zerodivision import ZeroDivision


@dataclasses.dataclass(frozen=True)
class Lowered:
    plans: dict[str, Plan]  # by the function's name in the generated module
    loops: list[str]  # per function and range loop: parallel or serial, and why
    writes: tuple[str, ...]  # the entry's parameters it may write into
    result: str = ""  # the entry's result type where it holds half-precision arrays or values (else "")
    several_returns: bool = False  # the entry returns (which, slot, slot, …): lower/returns.py
    numpy_bools: object = False  # where the result holds an np.bool_ (Numba boxes a Python bool): _numpy_bools
    copies: dict[str, str] = dataclasses.field(default_factory=dict)  # helper copy → the helper it copies


Stage = Callable[[str], contextlib.AbstractContextManager[None]]
Intrinsic = Callable[[str, str], str]  # (module, name) → its name in the generated module; ("numpy", ""): numpy


@dataclasses.dataclass(frozen=True)
class Program:
    """What the lowering is given: the functions (entry first, by their names in the generated module), the
    module's globals as the analyses see them (`globals`, and the types of the constants among them in
    `values`), and what the variant knows of the entry's arguments."""

    functions: dict[str, cst.FunctionDef]
    entry: str
    params: tuple[str, ...]
    args: tuple[Type, ...]
    shapes: tuple[tuple[int | None, ...] | None, ...]
    globals: Callable[[], Mapping[str, Global]]  # called again after the lowering bound names of its own
    values: Mapping[str, Type]
    filenames: Mapping[str, str] = dataclasses.field(default_factory=dict)  # each function's user file
    clone: Callable[[str], str] | None = None  # a new module name for a copy of a helper (lower/signatures.py)


def lower_program(program: Program, options: Options, stage: Stage, intrinsic: Intrinsic,
                  as_written: bool = False) -> Lowered:
    """With `as_written` (the dispatcher's fallback when Numba refuses the lowered code), steps 2 and 3 are
    skipped: the NumPy code stays as written, for Numba's own typing."""
    functions, entry, params = dict(program.functions), program.entry, program.params
    numpy = lambda: intrinsic("numpy", "")  # noqa: E731 (bound on first use)
    signature = shapes.signature_shapes(params, program.shapes)
    try:
        precision = Precision.of(options.precision, params, program.args)
    except PrecisionError as exc:
        raise CuvilTypeError(str(exc), argument=exc.argument) from None
    args = tuple(precision.logical(a) for a in program.args)
    compute = precision.compute
    with stage("analyze"):
        for name, fn in functions.items():
            calls = Calls(program.globals(), {p.name.value for p in fn.params.params} | assigned_names(fn.body), {})
            functions[name] = fn.visit(half.Explicit(calls, precision, numpy, intrinsic,  # type: ignore[assignment]
                                                     program.filenames.get(name)))
            functions[name] = functions[name].visit(  # type: ignore[assignment]  # also as written: Numba's
                Divmods(calls, numpy, program.filenames.get(name)))  # own np.divmod can kill the process
        copies = one_signature_each(functions, lambda: _types(
            functions, entry, dict(zip(params, args)), program.globals(), program.values, compute, True),
            program.clone, program.globals) if program.clone is not None else {}
        if copies:
            program = dataclasses.replace(program, filenames={
                **program.filenames, **{new: program.filenames[old] for new, old in copies.items()
                                        if old in program.filenames}})
        # thorough: every call typed, so a helper whose value no name keeps (`return h(a, x)`) is lowered too
        typed = _types(functions, entry, dict(zip(params, args)), program.globals(), program.values, compute,
                       thorough=True)
        halves = any(_holds_half(functions[name], types) for name, types in typed.items())
        if halves:
            _refuse_untyped(functions, typed, entry, as_written, program.filenames)
        returns = options.target == "cpu" and not halves and entry in typed and \
            kinds(functions[entry], typed[entry]) is not None
        if returns:  # numbers of several types returned: each as Python would (lower/returns.py)
            functions[entry] = functions[entry].visit(SeveralReturns(  # type: ignore[assignment]
                functions[entry], typed[entry], numpy()))
            typed = _types(functions, entry, dict(zip(params, args)), program.globals(), program.values, compute,
                           thorough=True)
    before = {name: all_names(fn) for name, fn in functions.items()}
    with stage("codegen"):
        for name, types in typed.items() if not as_written else ():
            fn = functions[name]
            table = shapes.infer(fn, signature if name == entry else {})
            lowering = Lowering(types, table, Fresh(all_names(fn)), numpy, intrinsic)
            functions[name] = lower_arrays(fn, lowering)
    globals = program.globals()  # with the names the lowering bound
    with stage("analyze"):  # the lowered loops are new code: typed anew
        typed = _types(functions, entry, dict(zip(params, args)), globals, program.values, compute, True)
    if halves:
        with stage("codegen"):
            for name, types in typed.items():
                functions[name] = functions[name].visit(half.Access(  # type: ignore[assignment]
                    types, precision, intrinsic, program.filenames.get(name)))
        globals = program.globals()
        with stage("analyze"):
            typed = _types(functions, entry, dict(zip(params, args)), globals, program.values, compute, halves)
    with stage("codegen"):
        for name, types in typed.items() if not as_written else ():
            functions[name] = functions[name].visit(  # type: ignore[assignment]
                Casts(types, numpy, intrinsic, arrays_into=options.target == "cpu"))
        for name in functions if as_written and options.target == "cpu" else ():
            functions[name] = functions[name].visit(UntypedDivisions(intrinsic))  # type: ignore[assignment]
    globals = program.globals()

    def rewrite_each(rewrite: Callable[[Types], cst.CSTTransformer]) -> None:
        """Every typed function through one pass, typed anew (thoroughly: a call whose value no name keeps too)."""
        with stage("analyze"):
            typed = _types(functions, entry, dict(zip(params, args)), program.globals(), program.values, compute, True)
        with stage("codegen"):
            for name, types in typed.items():
                functions[name] = cst.ensure_type(functions[name].visit(rewrite(types)), cst.FunctionDef)

    if not halves and any(wanted(fn) for fn in functions.values()):  # .item(), abs(), np.zeros(n, int); a half
        # program is typed with PrecisionWarnings, given once (and its .item() is refused)
        rewrite_each(lambda types: PythonScalars(types, numpy, intrinsic))
        globals = program.globals()
    if options.target == "cpu" and any(powers(fn) for fn in functions.values()):  # `x ** 2` of Python numbers:
        # CPython's errors (CUDA kernels record error codes of their own, codegen/cuda_checks.py)
        rewrite_each(lambda types: PythonPowers(types, intrinsic, options.overflow == "raise"))
        globals = program.globals()
    if options.target == "cpu" and not halves and any(library_raises.wanted(fn) for fn in functions.values()):
        rewrite_each(lambda types: library_raises.LibraryRaises(types, intrinsic))  # NumPy's words, the line
        globals = program.globals()
    overflow = functools.partial(OverflowChecks, boundscheck=options.boundscheck, speculate=options.target == "cpu")
    bounds = functools.partial(BoundsChecks, versions=options.target == "cpu")  # CUDA: no loop copies (yet)
    checks = [overflow] * (options.overflow == "raise") + [bounds] * options.boundscheck
    counts: dict[str, dict[str, int]] = {}  # per function: what the checks did, for cuvil.explain
    for check in checks:  # Python's errors (issue 10), each pass on code typed anew
        several: dict[str, list[Types]] = {}
        with stage("analyze"):  # thorough: a helper whose value no name keeps (`out[j] = h(a, j)`) is checked too
            checked = _types(functions, entry, dict(zip(params, args)), globals, program.values, compute, True,
                             several)
        with stage("codegen"):
            signatures = {**{n: [t] for n, t in checked.items()}, **{n: v for n, v in several.items() if v}}
            for name, under in signatures.items():
                trusted = all_names(functions[name]) - before[name]  # the lowering's own names
                static = _static_dims(functions[name], params, program.shapes) if name == entry else {}
                variants = [check(t, intrinsic, trusted, static=static) if check is bounds else
                            check(t, intrinsic, trusted) for t in under]
                rewritten = [cst.ensure_type(functions[name].visit(rewrite), cst.FunctionDef) for rewrite in variants]
                if any(not r.deep_equals(rewritten[0]) for r in rewritten[1:]):
                    raise _differing_checks(name, functions[name], program.filenames.get(name),
                                            isinstance(variants[0], BoundsChecks))
                functions[name] = rewritten[0]
                kind = "bounds" if isinstance(variants[0], BoundsChecks) else "int"
                counts.setdefault(name, {}).update({f"{kind} {k}": v for k, v in variants[0].counts.items()})
        globals = program.globals()
    divisions = (cst.FloorDivide, cst.Modulo, cst.Divide, cst.FloorDivideAssign, cst.ModuloAssign, cst.DivideAssign)
    # CPU code; a parallel loop tests the helper's divisor before the statement (cfg/raising.py)
    if options.target == "cpu" and not halves \
            and any(_has(fn, *divisions) or any(isinstance(c.func, cst.Name) and c.func.value == "divmod"
                                                for c in _calls(fn)) for fn in functions.values()):
        rewrite_each(lambda types: ZeroDivision(types, intrinsic))
        globals = program.globals()
    result = ""
    if halves:
        with stage("analyze"):
            typed = _types(functions, entry, dict(zip(params, args)), globals, program.values, compute, halves)
            returned = _returned(functions[entry], typed[entry]) if entry in typed else UNKNOWN
            result = precision.result(returned)
        with stage("codegen"):
            for name, types in typed.items():
                functions[name] = functions[name].visit(half.Values(  # type: ignore[assignment]
                    types, precision, numpy, intrinsic, program.filenames.get(name)))
        globals = program.globals()
    if options.target == "cpu":  # the user's line for each check's helper, to raise its error at (last rewrite)
        functions = {name: cst.ensure_type(fn.visit(Located(globals)), cst.FunctionDef)
                     for name, fn in functions.items()}
    numbers = frozenset(p for p, kind in zip(params, args) if isinstance(kind, Scalar))
    ranks = {p: len(shape) for p, shape in zip(params, program.shapes) if shape is not None}
    with stage("analyze"):
        # Loops are found by node identity: nothing may rewrite a function between here and printing.
        retyped = _types(functions, entry, dict(zip(params, args)), globals, program.values, compute, halves)
        numeric = {name: _numbers(types) for name, types in retyped.items()}
        analyses = analyze_program(functions, entry, globals, numbers, ranks, bool(options.parallel), numeric)
        refuse_constant_writes(functions, analyses, program.filenames)
        plans = {name: build_plan(name, fn, analyses[name].loops, retyped.get(name), analyses[name].aliases)
                 for name, fn in functions.items()}
    words = [f"{name} {d.describe()}" for name in functions for d in analyses[name].loops]
    words += [_checks_in_words(name, c) for name, c in counts.items() if any(c.values())]
    writes = tuple(params[k] for k in sorted(analyses[entry].summary.writes))
    bools = _numpy_bools(_returned(functions[entry], retyped[entry])) if entry in retyped else False
    return Lowered(plans, words, writes, result, returns, bools, copies)


def _numpy_bools(t: Type) -> object:
    """True for an np.bool_ result (a NumPy bool: an element, a comparison of NumPy values, `a.any()`), a tuple
    of these for a tuple, else False: runtime/adapters.py gives those back as np.bool_."""
    if isinstance(t, Tuple):
        items = tuple(_numpy_bools(item) for item in t.items)
        return items if any(items) else False
    return isinstance(t, Scalar) and t.dtype == "bool" and not t.weak


def _static_dims(fn: cst.FunctionDef, params: tuple[str, ...],
                 shapes: tuple[tuple[int | None, ...] | None, ...]) -> dict[str, dict[int, int]]:
    """The entry's static dims (codegen/specialize.py made them constants) of parameters it never rebinds."""
    rebound = assigned_names(fn.body)
    return {p: {k: d for k, d in enumerate(shape) if d is not None}
            for p, shape in zip(params, shapes) if shape is not None and p not in rebound}


def _differing_checks(name: str, fn: cst.FunctionDef, filename: str | None, bounds: bool) -> CuvilTypeError:
    """A helper called with several argument types is checked once for all of them (one function in the
    generated module): where its checks would differ between the types, it cannot be checked, and running it
    unchecked could give a wrong number — refused."""
    line = origin_of(fn.body.body[0]) if fn.body.body else None
    what, opt_out = ("index checks", "boundscheck=False") if bounds else ("Python-int checks", 'overflow="wrap"')
    return half.Located(filename, line).error(
        f"'{name}' is called with several argument types that need different {what}; call it with one type (convert "
        f"the arguments first), or pass {opt_out} to cuvil.jit")


def _checks_in_words(name: str, c: dict[str, int]) -> str:
    """What Python's error checks cost a function, as cuvil.explain shows it (issue 10 §4)."""
    parts = []
    if "bounds checked" in c:
        parts.append(f"{c['bounds checked']} index checks, {c['bounds hoisted']} hoisted out of loops, "
                     f"{c['bounds proved']} proved in bounds and removed")
    if "int checked" in c:
        parts.append(f"{c['int checked']} Python-int checks, {c['int elided']} proved unneeded and removed")
    return f"checks {name}: " + "; ".join(parts)


def _holds_half(fn: cst.FunctionDef, types: Types) -> bool:
    """Whether anything in `fn` is a half-precision array or value (NumPy also makes them from small integers:
    `np.exp(uint8_array)` is float16)."""
    if any("float16" in str(t) for t in types.names.values()):
        return True
    return any(isinstance(kind, Scalar | Array) and kind.dtype == "float16"
               for stmt in all_statements(fn.body) for node in _expressions(stmt) for kind in (types.of(node),))


def _refuse_untyped(functions: Mapping[str, cst.FunctionDef], typed: Mapping[str, Types], entry: str,
                    as_written: bool, filenames: Mapping[str, str]) -> None:
    """Half precision is written out per expression from the types: code without them (a helper called with
    several signatures, or the NumPy code as written) would read the bits as integers."""
    missing = [name for name in functions if name not in typed]
    if as_written or missing:
        name = missing[0] if missing else entry
        line = origin_of(functions[name].body.body[0]) if functions[name].body.body else None
        why = f"'{name}' is called with several argument types" if missing else \
            "Numba refused the lowered code (please report this bug)"
        raise half.Located(filenames.get(name), line).error(
            f"half precision needs every function typed, and {why}; call it with one signature, or convert the "
            "halves outside the function")


def _expressions(stmt: cst.BaseStatement) -> list[cst.BaseExpression]:
    """The expressions a statement evaluates itself (a compound statement: its header)."""
    found: list[cst.BaseExpression] = []
    header = stmt.test if isinstance(stmt, cst.If | cst.While) else stmt.iter if isinstance(stmt, cst.For) \
        else stmt if isinstance(stmt, cst.SimpleStatementLine) else None
    if header is None:
        return found

    class Collect(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, cst.BaseExpression):
                found.append(node)
            return True

    header.visit(Collect())
    return found


def _numbers(types: Types) -> Callable[[cst.BaseExpression], bool]:
    return lambda node: isinstance(types.of(node), Scalar)


def _types(functions: Mapping[str, cst.FunctionDef], entry: str, params: dict[str, Type],
           globals: Mapping[str, Global], values: Mapping[str, Type], compute: str | None = None,
           thorough: bool = False, several: dict[str, list[Types]] | None = None) -> dict[str, Types]:
    """Types of the entry and of each helper typed with one signature only (else Numba's typing decides).
    Helpers are found as the names' types need them; `thorough` types every call (a call whose value no name
    keeps, `out[i] = h(x[i])`, too): half precision needs every function typed. `several` receives, per
    helper called with several signatures, its types under each (the check passes check all of them)."""
    signatures: dict[str, set[tuple[Type, ...]]] = {}
    memo: dict[tuple[str, tuple[Type, ...]], Types | None] = {}
    recursive: set[tuple[str, tuple[Type, ...]]] = set()
    assumed: dict[tuple[str, tuple[Type, ...]], Type] = {}  # a recursive call's type while its function is typed

    def typed(name: str, arguments: dict[str, Type]) -> Types | None:
        key = (name, tuple(arguments.values()))
        if key not in memo:
            memo[key] = None  # recursion: the inner call's type is `assumed`, UNKNOWN at first
            fn = functions[name]
            local = {p.name.value for p in fn.params.params} | assigned_names(fn.body)

            def make() -> Types:
                types = Types(fn, arguments, values, Calls(globals, local, {}), helper, compute)
                if thorough:
                    for call in _calls(fn):
                        types.of(call)
                return types

            memo[key] = first = make()
            guess = _base_case(fn, first, name) if key in recursive else None
            for _ in range(3):  # `return 1` … `return n * fact(n - 1)`: assume the base case's type, then
                if guess is None:  # what typing under it returns, until the two agree (a fixed point)
                    break
                assumed[key], memo[key] = guess, None
                again = make()
                returned = _returned(fn, again)
                memo[key] = again if returned == guess else first
                guess = None if returned == guess or returned == UNKNOWN else returned
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
        if types is None:
            key = (name, tuple(dict(zip(names, arguments)).values()))
            recursive.add(key)
            return assumed.get(key, UNKNOWN)
        return _returned(fn, types)

    out: dict[str, Types] = {}
    top = typed(entry, params)
    if top is not None:
        out[entry] = top
    for name, seen in signatures.items():
        names = [p.name.value for p in functions[name].params.params]
        if name != entry and len(seen) == 1:
            (only,) = seen
            if len(only) == len(names):
                found = memo.get((name, only))
                if found is not None:
                    out[name] = found
        elif name != entry and several is not None:
            several[name] = [t for sig in sorted(seen, key=str) if len(sig) == len(names)
                             for t in (memo.get((name, sig)),) if t is not None]
    return out


def _has(fn: cst.FunctionDef, *kinds: type) -> bool:
    """Whether `fn` holds a node of one of these kinds (a pass with nothing to rewrite needs no typing)."""
    found = False

    class Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal found
            found = found or isinstance(node, kinds)
            return not found

    fn.body.visit(Find())
    return found


def _calls(fn: cst.FunctionDef) -> list[cst.Call]:
    found: list[cst.Call] = []

    class Collect(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found.append(node)

    fn.body.visit(Collect())
    return found


def _base_case(fn: cst.FunctionDef, types: Types, name: str) -> Type | None:
    """The type of what `fn` returns without calling itself (the values bound to its one returned name, or
    returned directly, that hold no call of `name`), when they agree on a known type."""
    returned: list[cst.Return] = []
    found: list[cst.BaseExpression] = []

    class Values(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            returned.append(node)

    fn.body.visit(Values())
    if len(returned) != 1 or returned[0].value is None:
        return None
    value = returned[0].value
    if isinstance(value, cst.Name):
        variable = value.value

        class Binds(cst.CSTVisitor):
            def visit_Assign(self, node: cst.Assign) -> None:
                if any(isinstance(t.target, cst.Name) and t.target.value == variable for t in node.targets):
                    found.append(node.value)

        fn.body.visit(Binds())
    else:
        found.append(value)
    base = [v for v in found if not any(isinstance(c.func, cst.Name) and c.func.value == name for c in calls_in(v))]
    if not base:
        return None
    kind: Type | None = None
    for v in base:
        kind = unify(kind, types.of(v))
    return kind if isinstance(kind, Scalar | Tuple) else None


def _returned(fn: cst.FunctionDef, types: Types) -> Type:
    found: list[Type] = []

    class Returns(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            found.append(types.of(node.value) if node.value is not None else of_value(None))

    fn.body.visit(Returns())
    return found[0] if len(found) == 1 else UNKNOWN
