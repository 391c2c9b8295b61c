"""One function's stages that no argument shape and no module name changes: source, parse, subset check,
normalize and the definite-assignment checks. The compiler driver (compiler.py) runs them once per function
and keeps the result (`Generated.fronts`) for generating the function again with other shapes.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
from collections.abc import Callable
from contextlib import AbstractContextManager

import libcst as cst

from .cfg.build import build_function
from .cfg.dataflow import unassigned_reads
from .cfg.unbound import UnboundChecks
from .cfg.uses import reads_in
from .errors import CuvilSyntaxError
from .frontend.captures import is_builtin
from .frontend.imports import check_imports
from .frontend.parse import Parsed, parse
from .frontend.raises import check_raises
from .frontend.source import Source, get_source
from .frontend.subset import check_subset
from .normalize.names import Fresh, Rename, all_names, assigned_names
from .normalize.origins import origin_of
from .normalize.pipeline import Normalized, normalize


@dataclasses.dataclass(frozen=True)
class Front:
    """One function's source through parse, subset check, normalize and the assignment checks: what its
    generation does before anything reads the argument shapes or the module's names."""

    source: Source
    originals: dict[str, str]  # _unreserve's names: new → the user's
    norm: Normalized
    function: cst.FunctionDef  # norm's function with the run-time checks of check_assignments


def front_end(fn: types.FunctionType, stage: Callable[[str], AbstractContextManager[None]]) -> Front:
    """`fn` through the front stages, each timed by `stage(name)`."""
    with stage("parse"):
        source = get_source(fn)
        checked = _checked(source)
        check_raises(fn, checked)
        check_imports(fn, checked)
        parsed, originals = _unreserve(fn, checked)
    with stage("normalize"):
        norm = normalize(parsed)
    with stage("analyze"):
        function = check_assignments(norm, source)
    return Front(source, originals, norm, function)


def validate(fn: types.FunctionType) -> None:
    """Decoration-time check: the source exists, parses, and stays inside the subset."""
    parsed = _checked(get_source(fn))
    check_raises(fn, parsed)
    check_imports(fn, parsed)


@functools.lru_cache(maxsize=64)
def _checked(source: Source) -> Parsed:
    """`source` parsed and inside the subset. Kept for the function's first generation, which follows its
    decoration: a pure function of the (frozen) text, and libcst's trees are immutable."""
    parsed = parse(source)
    check_subset(parsed)
    return parsed


def check_assignments(norm: Normalized, source: Source) -> cst.FunctionDef:
    """Reads no path assigns first are compile-time errors; reads only some paths leave unassigned get
    Python's runtime check (cfg/unbound.py). Returns the function with those checks."""
    fn = norm.function
    locals_ = ({p.name.value for p in fn.params.params} | assigned_names(fn.body)) - norm.synthetic
    found = unassigned_reads(build_function(fn), locals_)
    never = [r for r in found if r.never]
    if never:
        first = min(never, key=lambda r: origin_of(r.stmt) or 0)
        name, line = first.name.value, origin_of(first.stmt) or source.first_line
        text = source.line(line)
        match = re.search(rf"\b{re.escape(name)}\b", text)
        raise CuvilSyntaxError(
            f"'{name}' is used before it is assigned",
            source.filename,
            line,
            (match.start() if match else 0) + 1,
            text,
            hint="assign it first (Python would raise UnboundLocalError here)",
        )
    if not found:
        return fn
    checked = fn.visit(UnboundChecks(found))
    assert isinstance(checked, cst.FunctionDef)
    return checked


# Builtins the generated code calls itself (normalize/for_in.py's `range(min(len(a), len(b)))`, lower/casts.py's
# `int`, the lowering's `max`, `abs`): in the generated module they must be Python's. A user's own value of one of
# these names (a global `min`, a local `len = 3`) is renamed before normalization, and no module-level name of
# the generated module takes one (else zip's loop stopped at the user's `min(...)`).
RESERVED = frozenset({"len", "range", "min", "max", "abs", "int"})


def _unreserve(fn: types.FunctionType, parsed: Parsed) -> tuple[Parsed, dict[str, str]]:
    """`parsed` with the user's own (non-builtin) uses of `RESERVED` names renamed in the body, and the new
    names' originals. A parameter keeps its name (its callers may pass it by keyword)."""
    function = parsed.function
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params)}
    local = assigned_names(function.body)
    used = {n.value for n in reads_in(function.body)} | local
    own = sorted(n for n in RESERVED & used - params if n in local or not is_builtin(fn, n))
    if not own:
        return parsed, {}
    fresh = Fresh(all_names(function))
    renames = {n: fresh(f"{n}_", numbered=False) for n in own}
    renamed = function.with_changes(body=function.body.visit(Rename(renames)))
    module = parsed.module.with_changes(body=[renamed if s is function else s for s in parsed.module.body])
    return dataclasses.replace(parsed, module=module), {new: old for old, new in renames.items()}


def free_names(fn: cst.FunctionDef) -> dict[str, cst.Name]:
    """Names `fn` reads but never binds, each with its first occurrence."""
    local = {p.name.value for p in fn.params.params} | assigned_names(fn.body)
    found: dict[str, cst.Name] = {}
    for name in reads_in(fn.body):  # defaults are values already (_Module.bind_defaults), not names
        if name.value not in local:
            found.setdefault(name.value, name)
    return found
