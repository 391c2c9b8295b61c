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
from ..analysis.types import UNKNOWN, Array, Scalar, Tuple, Type
from ..cfg.build import all_statements
from ..cfg.effects import Calls, Global
from ..cfg.program import analyze_program
from ..cfg.uses import calls_in
from ..errors import CuvilTypeError
from ..frontend.walk import walk
from ..normalize.names import Fresh, all_names, assigned_names
from ..normalize.origins import origin_of
from ..options import Options
from . import big_ints, dicts, float_keys, int_or_float, library_raises, masks, prints, row_loops, sequences
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
from .program_types import program_types, returned_type
from .pypow import PythonPowers, powers
from .pyscalars import PythonScalars, wanted
from .returns import SeveralReturns, kinds
from .signatures import one_signature_each
from .wrapping import Wrapping
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
    arguments = dict(zip(params, args))

    def types_of(globals: Mapping[str, Global], thorough: bool = False,
                 several: dict[str, list[Types]] | None = None) -> dict[str, Types]:
        """Every function typed as the module stands now (lower/program_types.py)."""
        return program_types(functions, entry, arguments, globals, program.values, compute, thorough, several)

    with stage("analyze"):
        for name, fn in functions.items():
            calls = Calls(program.globals(), {p.name.value for p in fn.params.params} | assigned_names(fn.body), {})
            functions[name] = fn.visit(half.Explicit(calls, precision, numpy, intrinsic,  # type: ignore[assignment]
                                                     program.filenames.get(name)))
            functions[name] = functions[name].visit(  # type: ignore[assignment]  # also as written: Numba's
                Divmods(calls, numpy, program.filenames.get(name)))  # own np.divmod can kill the process
        # thorough: every call typed, so a helper whose value no name keeps (`return h(a, x)`) is lowered too
        if program.clone is not None:
            copies, typed = one_signature_each(functions, lambda: types_of(program.globals(), True), program.clone,
                                               program.globals)
        else:
            copies, typed = {}, types_of(program.globals(), True)
        if any(big_ints.wanted(functions[name], types) for name, types in typed.items()):  # before any rewrite
            for name, types in typed.items():  # reads them: `MASK - x` of MASK = 2**64 - 1 (lower/big_ints.py)
                functions[name] = cst.ensure_type(functions[name].visit(big_ints.BigInts(
                    types, numpy, intrinsic, program.filenames.get(name), name != entry)), cst.FunctionDef)
            typed = types_of(program.globals(), True)
        for _ in range(3):  # `np.bitwise_and(mask, v)` of a tuple `mask`: an array (lower/sequences.py); again, as
            found = {name: sequences.sites(functions[name], types) for name, types in typed.items()}
            if not any(f.found for f in found.values()):  # `mask == np.bitwise_and(mask, v)`: an array only then
                break
            for name, where in found.items():
                functions[name] = cst.ensure_type(functions[name].visit(sequences.Sequences(where, numpy)),
                                                  cst.FunctionDef)
            typed = types_of(program.globals(), True)
        if copies:
            program = dataclasses.replace(program, filenames={
                **program.filenames, **{new: program.filenames[old] for new, old in copies.items()
                                        if old in program.filenames}})
        halves = any(_holds_half(functions[name], types) for name, types in typed.items())
        if halves:
            _refuse_untyped(functions, typed, entry, as_written, program.filenames)
        if options.target == "cpu" and not halves:  # an int or a float: shown and returned as Python would
            rewrites = {name: int_or_float.wanted(functions[name], types, name == entry)
                        for name, types in typed.items()}
            for name, rewrite in rewrites.items():
                if rewrite is not None:
                    functions[name] = cst.ensure_type(functions[name].visit(rewrite), cst.FunctionDef)
            if any(rewrites.values()):
                typed = types_of(program.globals(), thorough=True)
        returns = options.target == "cpu" and not halves and entry in typed and \
            kinds(functions[entry], typed[entry]) is not None
        if returns:  # numbers of several types returned: each as Python would (lower/returns.py)
            functions[entry] = functions[entry].visit(SeveralReturns(  # type: ignore[assignment]
                functions[entry], typed[entry], numpy()))
            typed = types_of(program.globals(), thorough=True)
    if options.target == "cpu" and any(prints.wanted(fn, texts=True) for fn in functions.values()):
        with stage("codegen"):  # str(x), f-strings: Python's text, by the types as the user wrote them
            for name, types in typed.items():
                functions[name] = cst.ensure_type(functions[name].visit(prints.Prints(types, intrinsic, True)),
                                                  cst.FunctionDef)
        with stage("analyze"):
            typed = types_of(program.globals(), thorough=True)
    whole: list[str] = []  # the loops over rows computed over whole arrays, for cuvil.explain
    direct: set[int] = set()  # their stores into `out` that need no temporary (Lowering.direct)
    if options.target == "cpu" and not halves and not as_written \
            and any(row_loops.wanted(fn) for fn in functions.values()):  # loops over rows: whole arrays
        with stage("codegen"):
            for name, types in typed.items():
                rows = row_loops.RowLoops(functions[name], types, Fresh(all_names(functions[name])), numpy,
                                          intrinsic)
                functions[name] = cst.ensure_type(functions[name].visit(rows), cst.FunctionDef)
                whole += [f"{name} L{line}: over whole rows (the loop as written if shapes differ or arrays overlap)"
                          for line in rows.taken]
                direct |= rows.direct
        with stage("analyze"):
            typed = types_of(program.globals(), thorough=True)
    before = {name: all_names(fn) for name, fn in functions.items()}
    with stage("codegen"):
        for name, types in typed.items() if not as_written else ():
            fn = functions[name]
            table = shapes.infer(fn, signature if name == entry else {})
            lowering = Lowering(types, table, Fresh(all_names(fn)), numpy, intrinsic, options.target == "cpu",
                                bool(options.parallel), frozenset(direct))
            functions[name] = lower_arrays(fn, lowering)
    globals = program.globals()  # with the names the lowering bound
    with stage("analyze"):  # the lowered loops are new code: typed anew
        typed = types_of(globals, True)
    if halves:
        with stage("codegen"):
            for name, types in typed.items():
                functions[name] = functions[name].visit(half.Access(  # type: ignore[assignment]
                    types, precision, intrinsic, program.filenames.get(name)))
        globals = program.globals()
        with stage("analyze"):
            typed = types_of(globals, halves)
    with stage("codegen"):
        for name, types in typed.items() if not as_written else ():
            functions[name] = functions[name].visit(  # type: ignore[assignment]
                Casts(types, numpy, intrinsic, arrays_into=options.target == "cpu", wrapping=Wrapping(
                    options.target == "cpu", options.overflow == "wrap", not options.parallel)))
        for name in functions if as_written and options.target == "cpu" else ():
            functions[name] = functions[name].visit(UntypedDivisions(intrinsic))  # type: ignore[assignment]
    globals = program.globals()

    def rewrite_each(rewrite: Callable[[Types], cst.CSTTransformer]) -> None:
        """Every typed function through one pass, typed anew (thoroughly: a call whose value no name keeps too)."""
        with stage("analyze"):
            typed = types_of(program.globals(), True)
        with stage("codegen"):
            for name, types in typed.items():
                functions[name] = cst.ensure_type(functions[name].visit(rewrite(types)), cst.FunctionDef)

    if not halves and any(wanted(fn) for fn in functions.values()):  # .item(), abs(), np.zeros(n, int); a half
        # program is typed with PrecisionWarnings, given once (and its .item() is refused)
        rewrite_each(lambda types: PythonScalars(types, numpy, intrinsic, options.target == "cpu"))
        globals = program.globals()
    if options.target == "cpu" and any(powers(fn) for fn in functions.values()):  # `x ** 2` of Python numbers:
        # CPython's errors (CUDA kernels record error codes of their own, codegen/cuda_checks.py)
        rewrite_each(lambda types: PythonPowers(types, intrinsic, options.overflow == "raise"))
        globals = program.globals()
    if options.target == "cpu" and not halves and any(masks.wanted(fn) for fn in functions.values()):
        rewrite_each(lambda types: masks.Masks(types, intrinsic))  # `a[a > 2]` of a 2-D array: NumPy's
        globals = program.globals()
    if options.target == "cpu" and not halves and any(library_raises.wanted(fn) for fn in functions.values()):
        rewrite_each(lambda types: library_raises.LibraryRaises(types, intrinsic))  # NumPy's words, the line
        globals = program.globals()
    if any(float_keys.wanted(fn) for fn in functions.values()):  # -0.0 and 0.0: one key, as in Python
        rewrite_each(float_keys.FloatKeys)
        globals = program.globals()
    if any(dicts.wanted(fn) for fn in functions.values()):  # `d = {}` read by `d.get(k, 0)`: built typed
        rewrite_each(lambda types: dicts.TypedDicts(types, intrinsic))
        globals = program.globals()
    if options.target == "cpu" and any(prints.wanted(fn) for fn in functions.values()):
        rewrite_each(lambda types: prints.Prints(types, intrinsic))  # np.float32(0.1) prints as 0.1
        globals = program.globals()
    overflow = functools.partial(OverflowChecks, boundscheck=options.boundscheck, speculate=options.target == "cpu",
                                 roundings=options.target == "cpu", spans=options.target == "cpu")
    bounds = functools.partial(BoundsChecks, versions=options.target == "cpu")  # CUDA: no loop copies (yet)
    checks = [overflow] * (options.overflow == "raise") + [bounds] * options.boundscheck
    counts: dict[str, dict[str, int]] = {}  # per function: what the checks did, for cuvil.explain
    for check in checks:  # Python's errors (issue 10), each pass on code typed anew
        several: dict[str, list[Types]] = {}
        with stage("analyze"):  # thorough: a helper whose value no name keeps (`out[j] = h(a, j)`) is checked too
            checked = types_of(globals, True, several)
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
                                                for c in calls_in(fn.body)) for fn in functions.values()):
        rewrite_each(lambda types: ZeroDivision(types, intrinsic))
        globals = program.globals()
    result = ""
    if halves:
        with stage("analyze"):
            typed = types_of(globals, halves)
            returned = returned_type(functions[entry], typed[entry]) if entry in typed else UNKNOWN
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
        retyped = types_of(globals, halves)
        numeric = {name: _numbers(types) for name, types in retyped.items()}
        analyses = analyze_program(functions, entry, globals, numbers, ranks, bool(options.parallel), numeric)
        refuse_constant_writes(functions, analyses, program.filenames)
        plans = {name: build_plan(name, fn, analyses[name].loops, retyped.get(name), analyses[name].aliases)
                 for name, fn in functions.items()}
    words = whole + [f"{name} {d.describe()}" for name in functions for d in analyses[name].loops]
    words += [_checks_in_words(name, c) for name, c in counts.items() if any(c.values())]
    writes = tuple(params[k] for k in sorted(analyses[entry].summary.writes))
    bools = _numpy_bools(returned_type(functions[entry], retyped[entry])) if entry in retyped else False
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

    walk(header, Collect())
    return found


def _numbers(types: Types) -> Callable[[cst.BaseExpression], bool]:
    return lambda node: isinstance(types.of(node), Scalar)


def _has(fn: cst.FunctionDef, *kinds: type) -> bool:
    """Whether `fn` holds a node of one of these kinds (a pass with nothing to rewrite needs no typing)."""
    found = False

    class Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal found
            found = found or isinstance(node, kinds)
            return not found

    walk(fn.body, Find())
    return found
