"""A jitted function's variants and their Plans, for fingerprints, diffs and the cost model.

A variant keeps its generated module and the Plan's text (runtime/cache.py Meta), not the Plan itself: a warm
start loads the module from the disk and never runs the front end (DESIGN §4, "warm starts stay light"). So the
Plan of a variant is generated again here from what the variant was compiled for — each argument's type and
which dims are static — and checked against the Plan text the variant recorded, so an inspection never
describes other code than the code that runs.
"""

from __future__ import annotations

import dataclasses
import weakref
from typing import Any

from ..errors import CuvilError


@dataclasses.dataclass(frozen=True)
class VariantPlans:
    """The Plans of one variant (entry first, then its callees) and what it was compiled for."""

    number: int  # as cuvil.explain numbers it: #1 is the first compile
    params: tuple[str, ...]
    shapes: tuple[tuple[int | None, ...] | None, ...]  # per parameter: static sizes, None for a dynamic dim
    args: tuple[Any, ...]  # per parameter: its type (analysis/types.py)
    target: str
    plans: dict[str, Any]  # function name in the generated module → lower/plan.Plan
    text: str  # `fn.source("plan")` of this variant
    entry: str


_plans: weakref.WeakKeyDictionary[Any, dict[int, VariantPlans]] = weakref.WeakKeyDictionary()


def _require_jitted(fn: Any, what: str) -> None:
    if not getattr(fn, "__cuvil_jit__", False):
        raise TypeError(f"cuvil.{what} takes a function made by cuvil.jit, not {type(fn).__name__}")


def variant(fn: Any, number: int = -1) -> Any:
    """The dispatcher's variant `number`: #n as cuvil.explain counts them (1 is the first compile), or, when
    negative, counted back from the newest (-1)."""
    live = sorted(fn._variants, key=lambda v: v.number)  # the dispatcher keeps them newest first
    if not live:
        raise CuvilError(f"{fn.py_func.__qualname__} has no compiled variant yet: call it first, or pass argument "
                         "tuples to cuvil.diff")
    if number < 0 and -number <= len(live):
        return live[number]
    found = [v for v in live if v.number == number]
    if number == 0 or not found:
        raise CuvilError(f"{fn.py_func.__qualname__} has no variant {number}; its variants are "
                         + ", ".join(f"#{v.number}" for v in live) + " (or -1 for the newest)")
    return found[0]


def variant_for(fn: Any, args: tuple[Any, ...]) -> Any:
    """The variant a call with `args` runs — compiled if none exists yet — without running it (the arguments'
    contents are never read or written)."""
    from ..runtime import adapters

    given = tuple(args)
    target = fn._target(given)
    prepared, _ = adapters.prepare(given, fn._names, device=target == "cuda")
    for existing in fn._variants:  # newest first, as a call checks them
        if existing.guard.check(prepared):
            return existing
    return fn._compile(prepared, tuple(adapters.kind(a) for a in given), target)


def plans_of(fn: Any, number: int = -1) -> VariantPlans:
    """The Plans of variant `number` (see `variant`), generated once per variant and kept with the function."""
    _require_jitted(fn, "fingerprint")
    chosen = variant(fn, number)
    memo = _plans.setdefault(fn, {})
    if chosen.number not in memo:
        memo[chosen.number] = _generate(fn, chosen)
    return memo[chosen.number]


def plans_for(fn: Any, args: tuple[Any, ...]) -> VariantPlans:
    """The Plans of a variant for `args` with every dim dynamic, generated without compiling anything (no
    Numba, no variant added): what the cost model of a function never called, or of its general case, reads."""
    from ..compiler import Specialization, generate
    from ..runtime import adapters, guards

    prepared, _ = adapters.prepare(tuple(args), fn._names)
    found = guards.arg_guards(fn._names, prepared)
    shapes = tuple(None if a.shape is None else (None,) * len(a.shape) for a in found)
    kinds = tuple(a.kind for a in found)
    generated = generate(fn.py_func, fn.options, Specialization(shapes, kinds))
    return VariantPlans(0, tuple(fn._names), shapes, kinds, fn.options.target, dict(generated.plans),
                        generated.plan, generated.entry)


def _generate(fn: Any, chosen: Any) -> VariantPlans:
    from ..compiler import Specialization, generate

    guard = chosen.guard
    shapes = tuple(None if a.shape is None else tuple(guard.static.get((i, k)) for k in range(len(a.shape)))
                   for i, a in enumerate(guard.args))
    args = tuple(a.kind for a in guard.args)
    options = dataclasses.replace(fn.options, target=guard.target)
    recorded = chosen.meta.plan
    generated = None
    for as_written in (False, True):  # True: the dispatcher fell back to the NumPy code as written
        generated = generate(fn.py_func, options, Specialization(shapes, args, as_written))
        if not recorded or generated.plan == recorded:
            break
    assert generated is not None
    if recorded and generated.plan != recorded:
        raise CuvilError(f"variant #{chosen.number} of {fn.py_func.__qualname__} was compiled from other code than "
                         "its source gives now (a global or a callee changed since); call it again to recompile")
    return VariantPlans(chosen.number, tuple(fn._names), shapes, args, guard.target, dict(generated.plans),
                        generated.plan, generated.entry)
