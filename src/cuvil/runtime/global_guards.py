"""Guards on the values a variant read from outside its arguments (frontend/captures.walk finds them).

Numba freezes globals, closure cells, module attributes and defaults at compile time, so a variant is only
valid while each of them is the value it was compiled with. Each check is a condition compiled into the
variant's `enter` function (runtime/guards.py) and true when the guard fails; they run in `walk`'s order,
so a module's identity is checked before its attributes are read from its `__dict__`:

    GD0['cfg'] is not GE0                                   # the global `cfg` is still that module
    GM1['SCALE'] is not GE1 and not same(GM1['SCALE'], GE1) # cfg.SCALE: identity first, then by value
    GO2.__defaults__ is not GE2 and not same(...)           # a callee's defaults
    'len' in GU3 or 'range' in GU3                          # no global has come to shadow a builtin
    GA4_0.flags.writeable                                   # a read-only array compiled in stays read-only

Per call each costs one dict lookup or attribute read and an identity test, ~20–25 ns; a read-only array's
flag ~95 ns (numpy builds a flags object per `.flags`): bench/guards.py measures them.
"""

from __future__ import annotations

import dataclasses
import types
import warnings
from collections.abc import Iterator

import numpy as np

from ..codegen.bindings import Literal, bind, compiled_in
from ..errors import CuvilWarning
from ..frontend.captures import MISSING, Read, walk


def same(value: object, expected: object) -> bool:
    if value is expected:
        return True
    if type(value) is not type(expected):
        return False
    a, b = bind(value), bind(expected)
    return isinstance(a, Literal) and a == b


def show(value: object) -> str:
    if value is MISSING:
        return "<unbound>"
    if isinstance(value, types.ModuleType):  # by name: an address says nothing to a reader
        return f"module {value.__name__}"
    binding = bind(value)
    if isinstance(binding, Literal):
        return binding.text
    return f"<{type(value).__name__} at {id(value):#x}>"


@dataclasses.dataclass(frozen=True)
class ValueGuard:
    """The value of one read is still the one compiled in: identity for arrays, functions and modules;
    value and type for literals (Numba compiles `K = 2` and `K = 2.0` differently)."""

    read: Read
    by_value: bool

    @property
    def path(self) -> str:
        return self.read.label

    @property
    def expected(self) -> object:
        return self.read.value

    def condition(self, j: str, env: dict[str, object]) -> str:
        read, fn = self.read, self.read.owner
        env[f"GE{j}"] = read.value
        if read.kind == "defaults":
            env[f"GO{j}"], now = fn, f"GO{j}.__defaults__"
        elif read.attrs:
            parent = Read(read.path[:-1], fn, read.kind, read.name, read.attrs[:-1], None).current()
            attr = read.attrs[-1]
            if type(parent) is types.ModuleType and attr in parent.__dict__:
                env[f"GM{j}"], now = parent.__dict__, f"GM{j}[{attr!r}]"  # valid: `parent` is guarded before
            else:  # a module `__getattr__` or a module subclass: the slow, exact way
                env[f"GP{j}"], now = parent, f"getattr(GP{j}, {attr!r}, MISSING)"
        elif read.kind == "closure":
            cell = fn.__closure__[fn.__code__.co_freevars.index(read.name)]  # type: ignore[index]
            env[f"GC{j}"], now = cell, f"GC{j}.cell_contents"
        else:
            env[f"GD{j}"], now = fn.__globals__, f"GD{j}[{read.name!r}]"
        return f"{now} is not GE{j}" + (f" and not same({now}, GE{j})" if self.by_value else "")

    def failure(self) -> str | None:
        now = self.read.current()
        if same(now, self.read.value):
            return None
        return f"{self._what()} {self.path}: {show(now)} != {show(self.read.value)}"

    def describe(self) -> str:
        return f"{self._what()} {self.path} {'==' if self.by_value else 'is'} {show(self.read.value)}"

    def _what(self) -> str:
        return "defaults" if self.read.kind == "defaults" else "global"


@dataclasses.dataclass(frozen=True)
class UnshadowedGuard:
    """No global of the module has come to shadow a builtin the code calls (`len = my_len` after the first
    call): Python would call the global, the compiled code calls the builtin. One `in` per name (~20 ns;
    `keys().isdisjoint(names)` measured slower, 60 ns for one name)."""

    owner: types.FunctionType
    names: tuple[str, ...]

    def condition(self, j: str, env: dict[str, object]) -> str:
        env[f"GU{j}"] = self.owner.__globals__
        return " or ".join(f"{name!r} in GU{j}" for name in self.names)

    def failure(self) -> str | None:
        shadowed = [n for n in self.names if n in self.owner.__globals__]
        if not shadowed:
            return None
        return f"global {shadowed[0]}: {show(self.owner.__globals__[shadowed[0]])} shadows the builtin"

    def describe(self) -> str:
        return f"builtins {', '.join(self.names)} not shadowed"


@dataclasses.dataclass(frozen=True)
class ReadOnlyGuard:
    """A read-only array compiled in as a constant (its values are frozen into the machine code) is still
    read-only, and so are the arrays it views: one made writable again may have changed."""

    path: str
    arrays: tuple[np.ndarray, ...]

    def condition(self, j: str, env: dict[str, object]) -> str:
        for k, array in enumerate(self.arrays):
            env[f"GA{j}_{k}"] = array
        return " or ".join(f"GA{j}_{k}.flags.writeable" for k in range(len(self.arrays)))

    def failure(self) -> str | None:
        if not any(a.flags.writeable for a in self.arrays):
            return None
        return f"global {self.path}: writable again (compiled in as a read-only constant)"

    def describe(self) -> str:
        return f"global {self.path} read-only"


Check = ValueGuard | UnshadowedGuard | ReadOnlyGuard


def global_guards(fn: types.FunctionType) -> tuple[Check, ...]:
    checks: list[Check] = []
    builtins_read: dict[int, tuple[types.FunctionType, list[str]]] = {}
    for read in walk(fn, compiled_in):
        if read.kind == "builtin":
            owner, names = builtins_read.setdefault(id(read.owner.__globals__), (read.owner, []))
            if read.name not in names:
                names.append(read.name)
            continue
        checks.append(ValueGuard(read, isinstance(bind(read.value), Literal)))
        chains = [chain for array in _arrays(read.value) if (chain := _frozen_chain(array))]
        if chains:
            checks.append(ReadOnlyGuard(read.label, tuple(a for chain in chains for a in chain)))
    checks += [UnshadowedGuard(owner, tuple(sorted(names))) for owner, names in builtins_read.values()]
    return tuple(checks)


def on_use(checks: tuple[Check, ...], fn: types.FunctionType) -> frozenset[int]:
    """The checks of `fn`'s own defaults, when only a call that leaves an argument out can read them: the
    dispatcher passes every argument, so the compiled code reads them only if `fn` calls itself (directly or
    through a callee), which then keeps them checked on every call."""
    reads = [g.read for g in checks if isinstance(g, ValueGuard)]
    if any(getattr(r.value, "py_func", r.value) is fn for r in reads):  # recursive
        return frozenset()
    return frozenset(j for j, g in enumerate(checks) if isinstance(g, ValueGuard) and g.read.kind == "defaults"
                     and g.read.owner is fn)


def warn_unfrozen_arrays(checks: tuple[Check, ...]) -> None:
    """Warn about each writable array compiled in: its values are frozen, so writes to it are not seen."""
    for g in checks:
        if isinstance(g, ValueGuard) and any(not _frozen_chain(a) for a in _arrays(g.expected)):
            what = f"global array '{g.path}'" if g.read.kind != "defaults" else \
                f"an array default of {g.path.rsplit('.', 1)[0]}() ({g.path})"
            name = g.path.split(".")[-1] if g.read.kind != "defaults" else "the array"
            warnings.warn(
                f"{what} is compiled in as a constant: changes made to it in place later are not seen (rebinding "
                f"the name is). Pass it as an argument, or make it read-only ({name}.flags.writeable = False) to "
                f"say it is a constant",
                CuvilWarning,
                stacklevel=5,
            )


def _arrays(value: object) -> Iterator[np.ndarray]:
    """The arrays a compiled-in value holds: itself, or the items of a tuple (defaults)."""
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _arrays(item)


def _frozen_chain(array: np.ndarray) -> tuple[np.ndarray, ...]:
    """`array` and the arrays it views, if none of them can be written (a view is only as constant as its
    base); else empty. Memory that is neither an array nor `bytes` (an mmap, a bytearray) never counts."""
    chain: list[np.ndarray] = []
    value: object = array
    while isinstance(value, np.ndarray):
        if value.flags.writeable:
            return ()
        chain.append(value)
        value = value.base
    return tuple(chain) if value is None or isinstance(value, bytes) else ()
