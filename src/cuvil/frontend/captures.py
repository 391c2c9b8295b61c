"""Every value compiled code depends on besides its arguments, found from code objects.

Numba freezes what a function reads from outside — globals, closure cells, attributes of modules, the defaults
of the functions it calls — when it compiles. So the guards (runtime/guards.py) and the disk-cache key
(runtime/cache_key.py) must see each of those values, and they see them through one traversal, `walk`.

The traversal reads bytecode (`dis`: `LOAD_GLOBAL cfg` then `LOAD_ATTR SCALE` is the chain `cfg.SCALE`), never
the CST, so the key of a warm start is computed without importing libcst (DESIGN §4 "Warm starts stay light").
"""

from __future__ import annotations

import builtins
import dataclasses
import dis
import functools
import sys
import sysconfig
import types
from collections.abc import Callable, Iterator

MISSING = object()

_LIBRARY_DIRS = tuple({sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")})


def is_library_file(filename: str) -> bool:
    """Part of the stdlib or an installed package (whose values are constants to us), not the user's code."""
    return filename.startswith(_LIBRARY_DIRS)


def is_user_module(value: object) -> bool:
    """A module of the user's own code: its attributes are values the user may change, so they are guarded."""
    if not isinstance(value, types.ModuleType):
        return False
    filename = getattr(value, "__file__", None)
    if filename is None:  # built-in, frozen, or made in memory (types.ModuleType): only the last is the user's
        spec = getattr(value, "__spec__", None)
        return value.__name__ not in sys.builtin_module_names and getattr(spec, "origin", None) != "frozen"
    return not is_library_file(str(filename))


def lookup(fn: types.FunctionType, name: str) -> object:
    """The value `name` has inside `fn` right now, or `MISSING`."""
    code = fn.__code__
    if name in code.co_freevars and fn.__closure__ is not None:
        cell = fn.__closure__[code.co_freevars.index(name)]
        try:
            return cell.cell_contents
        except ValueError:  # an empty cell: assigned later in the enclosing function
            return MISSING
    value = fn.__globals__.get(name, MISSING)
    if value is MISSING:
        value = getattr(builtins, name, MISSING)
    return value


def is_builtin(fn: types.FunctionType, name: str) -> bool:
    """`name` inside `fn` is Python's own builtin (not shadowed by a global or a closure variable)."""
    value = lookup(fn, name)
    return value is not MISSING and getattr(builtins, name, MISSING) is value


@dataclasses.dataclass(frozen=True)
class Read:
    """One value compiled code depends on: `owner` reads `name`, then the attributes `attrs` of it.

    kind: "global" or "closure" (a free name, `attrs` empty or module attributes); "builtin" (a name no global
    shadowed when the variant was made: shadowing it later must be seen); "defaults" (`owner.__defaults__`,
    which Python evaluated when the `def` ran).
    """

    path: tuple[str, ...]  # from the entry function: ("helper", "cfg", "SCALE") is helper's cfg.SCALE
    owner: types.FunctionType
    kind: str
    name: str
    attrs: tuple[str, ...]
    value: object

    @property
    def label(self) -> str:
        return ".".join(self.path)

    def current(self) -> object:
        """The value read the same way now (`MISSING` if the name or an attribute is gone)."""
        if self.kind == "defaults":
            return self.owner.__defaults__
        value = lookup(self.owner, self.name)
        if self.kind == "global" and self.name not in self.owner.__globals__:
            value = MISSING  # a global deleted since: falls back to a builtin only for "builtin" reads
        for attr in self.attrs:
            value = getattr(value, attr, MISSING)
        return value


@functools.lru_cache(maxsize=4096)
def name_chains(code: types.CodeType, closure: tuple[str, ...]) -> frozenset[tuple[str, str, tuple[str, ...]]]:
    """(kind, name, attributes) for every outside name `code` loads and the attribute chain read from it
    directly after (`pkg.sub.K` → ("global", "pkg", ("sub", "K"))), nested code objects included (a
    comprehension is its own code object before Python 3.12). `closure`: the free names of the function."""
    found: set[tuple[str, str, tuple[str, ...]]] = set()
    kind, name, attrs = "", "", []  # the chain being read
    for ins in dis.get_instructions(code):
        if ins.opname == "EXTENDED_ARG":
            continue
        if ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and kind:
            attrs.append(ins.argval)
            continue
        if kind:
            found.add((kind, name, tuple(attrs)))
            kind = ""
        if ins.opname == "LOAD_GLOBAL" or (ins.opname == "LOAD_DEREF" and ins.argval in closure):
            kind, name, attrs = ("global" if ins.opname == "LOAD_GLOBAL" else "closure"), ins.argval, []
    if kind:
        found.add((kind, name, tuple(attrs)))
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= name_chains(const, closure)
    return frozenset(found)


def reads(fn: types.FunctionType, prefix: tuple[str, ...] = ()) -> list[Read]:
    """What `fn` itself reads from outside, sorted (so a module comes before its attributes). Attribute chains
    are followed through the user's modules only: a library module (numpy, math) is a constant."""
    found: dict[tuple[str, str, tuple[str, ...]], Read] = {}
    for kind, name, attrs in sorted(name_chains(fn.__code__, fn.__code__.co_freevars)):
        value = lookup(fn, name)
        if value is MISSING:
            continue  # an undefined name: the compiler reports it at its line
        if kind == "global" and name not in fn.__globals__:
            kind = "builtin"
        found.setdefault((kind, name, ()), Read((*prefix, name), fn, kind, name, (), value))
        for k in range(len(attrs)):
            if kind == "builtin" or not is_user_module(value):
                break
            value = getattr(value, attrs[k], MISSING)
            if value is MISSING:
                break
            chain = attrs[: k + 1]
            found.setdefault((kind, name, chain), Read((*prefix, name, *chain), fn, kind, name, chain, value))
    return [found[k] for k in sorted(found)]


def walk(fn: types.FunctionType, inner: Callable[[object], types.FunctionType | None]) -> Iterator[Read]:
    """Every read of `fn` and, through `inner` (which says whether a value is a function whose reads are
    compiled in too — a callee, a Numba helper — and which), of the functions it calls, each function once.
    Each function's `__defaults__` is a read too: the generated code holds the values (the entry's as well,
    for its recursive calls), not the expressions that made them."""
    seen: set[types.FunctionType] = set()

    def visit(f: types.FunctionType, prefix: tuple[str, ...]) -> Iterator[Read]:
        if f in seen:
            return
        seen.add(f)
        if f.__defaults__:
            path = (*prefix, "__defaults__") if prefix else (f.__name__, "__defaults__")
            yield Read(path, f, "defaults", "__defaults__", (), f.__defaults__)
        for read in reads(f, prefix):
            yield read
            if read.kind != "builtin":
                callee = inner(read.value)
                if callee is not None:
                    yield from visit(callee, read.path)

    return visit(fn, ())


def follow(fn: types.FunctionType, path: tuple[str, ...]) -> object:
    """The value reached from `fn` through names (`("helper", "TABLE")` is helper's global TABLE, `("mod", "ARR")`
    the attribute ARR of the module fn calls mod); an element
    `__defaults__[i]` is the i-th default of the function reached so far."""
    value: object = fn
    for name in path:
        value = getattr(value, "py_func", value)  # a @cuvil.jit or numba.njit function: its Python function
        if name.startswith("__defaults__["):
            value = value.__defaults__[int(name[len("__defaults__["):-1])]  # type: ignore[attr-defined]
        elif isinstance(value, types.ModuleType):  # `mod.ARR` (codegen/module_reads.py)
            value = getattr(value, name, MISSING)
        else:
            value = lookup(value, name)  # type: ignore[arg-type]
    return value
