"""Guards: what a compiled variant assumed, checked on every call.

A variant assumes, per argument, its exact Numba type (dtype, rank, layout, scalar kind: the fingerprint
Numba's own dispatcher computes) and the size of each dim it specialized on; and every value it read from
outside its arguments — globals, closure cells, module attributes, defaults, also those of its callees —
is the one compiled in (runtime/global_guards.py). Numba dispatches on types only and freezes those values at
its first compile, so without these checks a changed module constant would silently give stale results.

The check runs on the hottest path there is, so each variant's guard and its call into Numba are compiled
into one small Python function (one frame per call, no more):

    def enter(args):
        try:
            a0, a1 = args
            if fp(a0) != F0 or fp(a1) != F1: return MISS
            if a0.shape[1] != 3: return MISS
            if GD0['K'] is not GE0 and not same(GD0['K'], GE0): return MISS     # runtime/global_guards.py
        except (TypeError, ValueError, AttributeError, IndexError):
            return MISS
        return impl(a0, a1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numba
from numba._dispatcher import compute_fingerprint

from ..frontend.captures import MISSING
from .global_guards import Check, global_guards, same, warn_unfrozen_arrays  # noqa: F401 (re-exported)


@dataclasses.dataclass(frozen=True)
class ArgGuard:
    name: str
    numba_type: Any
    fingerprint: bytes
    shape: tuple[int, ...] | None  # for arrays: the sizes seen when the variant was made


def arg_guards(names: Sequence[str], args: Sequence[object]) -> tuple[ArgGuard, ...]:
    out = []
    for name, value in zip(names, args):
        shape = tuple(value.shape) if hasattr(value, "shape") and hasattr(value, "dtype") else None
        out.append(ArgGuard(name, numba.typeof(value), compute_fingerprint(value), shape))  # type: ignore[arg-type]
    return tuple(out)


@dataclasses.dataclass
class Guard:
    args: tuple[ArgGuard, ...]
    static: dict[tuple[int, int], int]  # (argument index, axis) → size this variant is compiled for
    globals: tuple[Check, ...]  # on the values read from outside the arguments: runtime/global_guards.py

    def check(self, args: Sequence[object]) -> bool:
        return self.failure(args) is None

    def entry(self, impl: Callable[..., Any]) -> Callable[[tuple[Any, ...]], Any]:
        """`enter(args)`: `impl(*args)` if `args` pass this guard, else `MISS`."""
        return _compile_entry(self, impl)

    def items(self) -> list[str]:
        """The guard in words, for `cuvil.explain`."""
        lines = [f"{a.name}: {a.numba_type}" for a in self.args]
        lines += [f"{self.args[i].name}.shape[{k}] == {v}" for (i, k), v in sorted(self.static.items())]
        lines += [g.describe() for g in self.globals]
        return lines

    def failure(self, args: Sequence[object]) -> str | None:
        """Why `args` fail this guard, as a sentence naming the first failed item; None if they pass."""
        if len(args) != len(self.args):
            return f"{len(args)} arguments != {len(self.args)}"
        for spec, value in zip(self.args, args):
            reason = _type_failure(spec, value)
            if reason:
                return reason
        for (i, k), size in sorted(self.static.items()):
            now = args[i].shape[k]  # type: ignore[attr-defined]
            if now != size:
                return f"{self.args[i].name}.shape[{k}]: {now} != {size}"
        for g in self.globals:
            reason = g.failure()
            if reason:
                return reason
        return None


def _type_failure(spec: ArgGuard, value: object) -> str | None:
    try:
        if compute_fingerprint(value) == spec.fingerprint:  # type: ignore[arg-type]
            return None
    except (TypeError, ValueError):
        pass
    now = numba.typeof(value)
    was = spec.numba_type
    for attr in ("dtype", "ndim", "layout"):
        if hasattr(now, attr) and hasattr(was, attr) and getattr(now, attr) != getattr(was, attr):
            return f"{spec.name}.{attr}: {getattr(now, attr)} != {getattr(was, attr)}"
    return f"{spec.name}: {now} != {was}"


MISS = object()  # what `enter` returns when the guard fails (None is a legitimate result)


def _compile_entry(guard: Guard, impl: Callable[..., Any]) -> Callable[[tuple[Any, ...]], Any]:
    env: dict[str, object] = {"fp": compute_fingerprint, "same": same, "MISSING": MISSING, "MISS": MISS,
                              "impl": impl}
    n = len(guard.args)
    names = ", ".join(f"a{i}" for i in range(n))
    lines = ["def enter(args):", "    try:"]
    if n:
        lines.append(f"        {names}{',' if n == 1 else ''} = args")
        for i, spec in enumerate(guard.args):
            env[f"F{i}"] = spec.fingerprint
        lines.append("        if " + " or ".join(f"fp(a{i}) != F{i}" for i in range(n)) + ": return MISS")
    else:
        lines.append("        if args: return MISS")
    for (i, k), size in sorted(guard.static.items()):
        dim = f"len(a{i})" if k == 0 else f"a{i}.shape[{k}]"  # len() builds no shape tuple
        lines.append(f"        if {dim} != {size}: return MISS")
    for j, g in enumerate(guard.globals):
        lines.append(f"        if {g.condition(j, env)}: return MISS")
    lines += ["    except (TypeError, ValueError, AttributeError, IndexError, KeyError):",
              "        return MISS", f"    return impl({names})"]
    exec("\n".join(lines), env)
    return env["enter"]  # type: ignore[return-value]
