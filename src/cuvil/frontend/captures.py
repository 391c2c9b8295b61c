"""What a function's free names refer to: closure cells, then module globals, then builtins.

Read from the code object (`co_names`, `co_freevars`), never from the CST, so the disk-cache key can be computed
without importing libcst. `co_names` also lists attribute names (`np.sqrt` gives `np` and `sqrt`); a name that
is only an attribute but happens to be a global too is over-counted, which can only make a key stricter.
"""

from __future__ import annotations

import builtins
import types
from collections.abc import Callable, Iterator

MISSING = object()


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


def captured(fn: types.FunctionType) -> dict[str, object]:
    """Every non-builtin value `fn` may read from outside, by name, sorted by name."""
    code = fn.__code__
    names = set(code.co_names) | set(code.co_freevars)
    found = {}
    for name in sorted(names):
        value = lookup(fn, name)
        if value is not MISSING and not is_builtin(fn, name):
            found[name] = value
    return found



def walk(
    fn: types.FunctionType, callee: Callable[[object], types.FunctionType | None], path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], types.FunctionType, str, object]]:
    """Every captured value of `fn` and, through `callee` (which says whether a value is a function that
    gets compiled too, and which), of the functions it calls: (path, owner function, name, value)."""
    seen: set[types.FunctionType] = set()

    def visit(f: types.FunctionType, prefix: tuple[str, ...]) -> Iterator:
        if f in seen:
            return
        seen.add(f)
        for name, value in captured(f).items():
            yield (*prefix, name), f, name, value
            inner = callee(value)
            if inner is not None:
                yield from visit(inner, (*prefix, name))

    return visit(fn, path)
