"""Declared dims (issue 17 §4): `cuvil.jit(dims=...)` and `cuvil.Array[...]` annotations.

    @cuvil.jit(dims={"B": (1, 32)})
    def norms(x: cuvil.Array["B", 3, 64]): ...     # B ranges over 1..32; 3 and 64 are static

    @cuvil.jit(dims={"x.shape[0]": (1, 32)})           # the same range, without an annotation
    def norms(x): ...

- A range `(low, high)` (integers, 0 <= low <= high) makes one variant serve every size in it: the dim is
  dynamic in the compiled code and the variant's guard checks `low <= size <= high`. A size outside compiles
  another variant, as the `dynamic` policy says, and `cuvil.explain` gives the reason
  (`x.shape[0]: 40 outside the declared range 1..32`).
- An integer (in an annotation, or `dims={"x.shape[1]": 3}`) is a static dim: compiled in as a constant, whatever
  its size (the policy makes only dims up to 16 static). A call with another size compiles another variant.
- A name in an annotation without a range is a dynamic dim: never compiled in. A name shared by several dims
  gives each the same declaration (their sizes are not required to be equal).

Keys of `dims` are `"<parameter>.shape[<k>]"` or a name used in a `cuvil.Array` annotation; a misspelt key, an
unknown parameter or a malformed range is a `CuvilError` when the decorator runs. `cuvil.Array[...]` is an
ordinary object: the function keeps running as plain Python (`fn.py_func`, `CUVIL_DISABLE_JIT=1`).
"""

from __future__ import annotations

import inspect
import re
import types
from typing import Any

from .errors import CuvilError

Declared = dict[tuple[int, int], "tuple[int, int] | int | None"]  # (argument, axis) → range, size, or dynamic
_DIM_KEY = re.compile(r"([A-Za-z_]\w*)\.shape\[(\d+)\]")


class Array:
    """`cuvil.Array["B", 3, 64]`: an array argument's dims, each a size (static) or a name (a range from
    `dims=`, else dynamic). Only an annotation: Python ignores it, Cuvil reads it when the decorator runs."""

    def __init__(self, dims: tuple[str | int, ...]):
        for d in dims:
            if isinstance(d, bool) or not (isinstance(d, int) and d >= 0 or isinstance(d, str) and d.isidentifier()):
                raise CuvilError(f"cuvil.Array[...] takes sizes (integers >= 0) and names (identifiers), not {d!r}")
        self.dims = dims

    def __class_getitem__(cls, dims: Any) -> Array:
        return cls(dims if isinstance(dims, tuple) else (dims,))

    def __repr__(self) -> str:
        return f"cuvil.Array[{', '.join(repr(d) for d in self.dims)}]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Array) and other.dims == self.dims

    def __hash__(self) -> int:
        return hash(self.dims)


def normalized(dims: Any) -> tuple[tuple[str, tuple[int, int] | int], ...]:
    """The `dims` option as sorted (key, value) pairs (hashable: part of the cache key), each value checked."""
    if dims is None:
        return ()
    if isinstance(dims, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in dims):
        dims = dict(dims)
    if not isinstance(dims, dict):
        raise CuvilError(f"dims must be a dict such as {{'x.shape[0]': (1, 32)}}, not {type(dims).__name__}")
    pairs = []
    for key, value in dims.items():
        if not isinstance(key, str):
            raise CuvilError(f"dims keys are strings ('x.shape[0]' or a cuvil.Array name), not {key!r}")
        pairs.append((key, _value(key, value)))
    return tuple(sorted(pairs))


def _value(key: str, value: Any) -> tuple[int, int] | int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, tuple | list) and len(value) == 2 and \
            all(isinstance(v, int) and not isinstance(v, bool) for v in value) and 0 <= value[0] <= value[1]:
        return (value[0], value[1])
    raise CuvilError(f"dims[{key!r}] is {value!r}: a range is (low, high), integers with 0 <= low <= high "
                     "(or one integer for a static size)")


def declared(fn: types.FunctionType, dims: tuple[tuple[str, tuple[int, int] | int], ...]) -> Declared:
    """What `fn`'s annotations and the `dims` option declare, per (argument index, axis)."""
    names = list(inspect.signature(fn).parameters)
    found: Declared = {}
    symbols: dict[str, list[tuple[int, int]]] = {}
    for i, name in enumerate(names):
        annotation = _annotation(fn, name)
        for k, d in enumerate(annotation.dims if annotation else ()):
            if isinstance(d, int):
                found[(i, k)] = d
            else:
                found[(i, k)] = None
                symbols.setdefault(d, []).append((i, k))
    for key, value in dims:
        match = _DIM_KEY.fullmatch(key)
        if match:
            if match[1] not in names:
                raise CuvilError(f"dims[{key!r}]: {fn.__qualname__} has no parameter {match[1]!r} "
                                 f"(its parameters: {', '.join(names) or 'none'})")
            where = [(names.index(match[1]), int(match[2]))]
        elif key in symbols:
            where = symbols[key]
        elif key.isidentifier():
            raise CuvilError(f"dims[{key!r}]: no cuvil.Array annotation of {fn.__qualname__} names {key!r} "
                             f"(name a dim as 'x.shape[0]', or annotate x: cuvil.Array[{key!r}, ...])")
        else:
            raise CuvilError(f"dims[{key!r}]: a key is '<parameter>.shape[<axis>]' or a name from a "
                             "cuvil.Array annotation")
        for at in where:
            if isinstance(found.get(at), int):
                raise CuvilError(f"dims[{key!r}]: {names[at[0]]}.shape[{at[1]}] is annotated as the static size "
                                 f"{found[at]}")
            found[at] = value
    return found


def _annotation(fn: types.FunctionType, name: str) -> Array | None:
    """The parameter's annotation if it is a cuvil.Array (a string annotation, under `from __future__ import
    annotations`, is evaluated in the function's globals when it mentions Array)."""
    value = fn.__annotations__.get(name)
    if isinstance(value, str) and "Array[" in value:
        try:
            value = eval(value, fn.__globals__)  # noqa: S307 (the user's own annotation, as typing does)
        except Exception as exc:
            raise CuvilError(f"the annotation of {name!r} in {fn.__qualname__} ({value}) cannot be evaluated: "
                             f"{exc}") from None
    return value if isinstance(value, Array) else None
