"""Guards: what a compiled variant assumed, checked on every call.

A variant assumes, per argument, its exact Numba type (dtype, rank, layout, scalar kind: the fingerprint
Numba's own dispatcher computes) and the size of each dim it specialized on; and, per captured global, its
value (identity for arrays, functions and modules). Numba dispatches on types only and freezes globals at
its first compile, so without these checks a changed module constant would silently give stale results.

The check runs on the hottest path there is, so each variant's guard and its call into Numba are compiled
into one small Python function (one frame per call, no more):

    def enter(args):
        try:
            a0, a1 = args
            if fp(a0) != F0 or fp(a1) != F1: return MISS
            if a0.shape[1] != 3: return MISS
            if D0.get('K', MISSING) is not E0 and not same(D0.get('K', MISSING), E0): return MISS
        except (TypeError, ValueError, AttributeError, IndexError):
            return MISS
        return impl(a0, a1)
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Sequence
from typing import Any

import numba
from numba._dispatcher import compute_fingerprint

from ..codegen.bindings import Literal, bind, callee_function
from ..frontend.captures import MISSING, walk


@dataclasses.dataclass(frozen=True)
class ArgGuard:
    name: str
    numba_type: Any
    fingerprint: bytes
    shape: tuple[int, ...] | None  # for arrays: the sizes seen when the variant was made


@dataclasses.dataclass(frozen=True)
class GlobalGuard:
    path: str  # "K", or "helper.K" for a callee's global
    owner: types.FunctionType
    name: str
    expected: object
    by_value: bool  # literals compare by value; arrays, functions and modules by identity

    def current(self) -> object:
        code = self.owner.__code__
        if self.name in code.co_freevars and self.owner.__closure__ is not None:
            cell = self.owner.__closure__[code.co_freevars.index(self.name)]
            try:
                return cell.cell_contents
            except ValueError:
                return MISSING
        return self.owner.__globals__.get(self.name, MISSING)


def same(value: object, expected: object) -> bool:
    if value is expected:
        return True
    if type(value) is not type(expected):
        return False
    a, b = bind(value), bind(expected)
    return isinstance(a, Literal) and a == b


def global_guards(fn: types.FunctionType) -> tuple[GlobalGuard, ...]:
    guards = []
    for path, owner, name, value in walk(fn, callee_function):
        by_value = isinstance(bind(value), Literal)
        guards.append(GlobalGuard(".".join(path), owner, name, value, by_value))
    return tuple(guards)


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
    globals: tuple[GlobalGuard, ...]

    def check(self, args: Sequence[object]) -> bool:
        return self.failure(args) is None

    def entry(self, impl: Callable[..., Any]) -> Callable[[tuple[Any, ...]], Any]:
        """`enter(args)`: `impl(*args)` if `args` pass this guard, else `MISS`."""
        return _compile_entry(self, impl)

    def items(self) -> list[str]:
        """The guard in words, for `cuvil.explain`."""
        lines = [f"{a.name}: {a.numba_type}" for a in self.args]
        lines += [f"{self.args[i].name}.shape[{k}] == {v}" for (i, k), v in sorted(self.static.items())]
        lines += [f"global {g.path} {'==' if g.by_value else 'is'} {_show(g.expected)}" for g in self.globals]
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
            if not same(g.current(), g.expected):
                return f"global {g.path}: {_show(g.current())} != {_show(g.expected)}"
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


def _show(value: object) -> str:
    if value is MISSING:
        return "<unbound>"
    binding = bind(value)
    if isinstance(binding, Literal):
        return binding.text
    return f"<{type(value).__name__} at {id(value):#x}>"


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
        env[f"E{j}"], env[f"G{j}"] = g.expected, g
        code = g.owner.__code__
        if g.name in code.co_freevars:
            read = f"G{j}.current()"
        else:
            env[f"D{j}"] = g.owner.__globals__
            read = f"D{j}.get({g.name!r}, MISSING)"
        test = f"{read} is not E{j}" + (f" and not same({read}, E{j})" if g.by_value else "")
        lines.append(f"        if {test}: return MISS")
    lines += ["    except (TypeError, ValueError, AttributeError, IndexError):",
              "        return MISS", f"    return impl({names})"]
    exec("\n".join(lines), env)
    return env["enter"]  # type: ignore[return-value]
