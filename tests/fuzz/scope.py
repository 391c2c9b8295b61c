"""What a generated function can see while it is being written: its variables with their bounds, its arrays
with the length each one shares, its helpers, and per block (`Ctx`) which arrays are known nonempty, which loop
indices are valid for which arrays, and which names an enclosing loop owns."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")

INT_VAR = 2**36  # |int variable| stays below this (see expressions.py for why it cannot grow past it)
FLOAT_VAR = 1e30
AUG_STEP = {"i": 2**16, "f": 1e20}  # the most one `+=` may add; times MAX_TRIPS it stays far below *_VAR
MAX_TRIPS = 4000  # executions of one statement in one call, loops and helper calls included
VAR_BOUND = {"i": INT_VAR, "f": FLOAT_VAR}


@dataclasses.dataclass(frozen=True)
class Array:
    name: str
    kind: str  # element kind, "i" or "f"
    group: str  # arrays of one group have one length ("a", "b", "L5", a 2-D array's name + ".rows")
    writable: bool
    bound: float
    shape: tuple[int, ...] = ()  # literal shape of fixed-size (and all 2-D) arrays

    @property
    def ndim(self) -> int:
        return len(self.shape) if len(self.shape) > 1 else 1


@dataclasses.dataclass(frozen=True)
class Helper:
    name: str
    param_names: tuple[str, ...]
    params: tuple[str, ...]  # kinds: "i", "f", "array"
    default: str | None  # a literal default for the last parameter
    returns: str  # "i", "f", "pair" (a float and an int), "writer" (fills its array, returns nothing)
    bound: float
    cost: int  # executions of a statement inside the helper per call, at most


@dataclasses.dataclass(frozen=True)
class Ctx:
    nonempty: frozenset[str] = frozenset()
    indices: tuple[tuple[str, frozenset[str]], ...] = ()  # loop index → groups it indexes in bounds
    loop: bool = False
    protected: frozenset[str] = frozenset()  # loop indices, loop elements and while counters in scope
    trips: int = 1  # executions of a statement here per call
    depth: int = 0


class Scope:
    def __init__(self, draw: Callable[[st.SearchStrategy[Any]], Any], max_trips: int = MAX_TRIPS):
        self.draw = draw
        self.max_trips = max_trips
        self.bounds: dict[str, tuple[str, float]] = {}  # scalar name → (kind, bound)
        self.assignable: set[str] = set()
        self.inits: dict[str, str] = {}  # name → its initial value, emitted first in the body
        self.arrays: dict[str, Array] = {}
        self.helpers: list[Helper] = []
        self.constants_: list[tuple[str, str, float]] = []
        self.tuple_const: tuple[str, tuple[int, ...]] | None = None
        self.stmts_left = 0
        self.counts: list[str] = ["3"]  # small nonnegative loop counts this function can compute (`min(n, 6)`)

    # ------------------------------------------------------------- choices

    def pick(self, options: Sequence[T]) -> T:
        """One of `options`; shrinking moves towards the first."""
        return options[self.draw(st.integers(0, len(options) - 1))]

    def coin(self, p: float) -> bool:
        """True with probability about `p`; shrinks to False."""
        return bool(self.draw(st.integers(0, 99)) >= 100 - round(100 * p))

    def literal(self, kind: str) -> str:
        if kind == "i":
            return self.pick(["0", "1", "2", "-1", "3", "5", "-7", "10", "100", "-1000"])
        return self.pick(["0.0", "1.0", "0.5", "-2.25", "3.5", "0.001", "-100.0", "0.1"])

    # ---------------------------------------------------------------- names

    def declare(self, name: str, kind: str, init: str, bound: float | None = None, assignable: bool = True) -> None:
        self.bounds[name] = (kind, VAR_BOUND[kind] if bound is None else bound)
        self.inits.setdefault(name, init)
        if assignable:
            self.assignable.add(name)

    def bound_of(self, name: str) -> float:
        return self.bounds[name][1]

    def readable(self, kind: str, ctx: Ctx) -> list[str]:
        return [n for n, (k, _) in self.bounds.items() if k == kind]

    def targets(self, kind: str, ctx: Ctx) -> list[str]:
        return [n for n in self.readable(kind, ctx) if n in self.assignable and n not in ctx.protected]

    def constants(self, kind: str) -> list[tuple[str, float]]:
        return [(n, b) for n, k, b in self.constants_ if k == kind]

    def arrays_of(self, kind: str | None, ctx: Ctx) -> list[Array]:
        return [a for a in self.arrays.values() if kind is None or a.kind == kind]

    def index(self, arr: Array, ctx: Ctx) -> str | None:
        """An in-bounds index for `arr` here, or None when `arr` might be empty."""
        scalars = self.readable("i", ctx) + [self.literal("i")]
        if arr.ndim == 2:
            rows, cols = arr.shape
            return f"{self.pick(scalars)} % {rows}, {self.pick(scalars)} % {cols}"
        options = []
        for name, groups in ctx.indices:
            if arr.group in groups:
                options += [name, f"{name} - len({arr.name})"]  # a negative index counts from the end
        if arr.group in ctx.nonempty:
            k = self.pick(scalars)
            options += [f"{k} % len({arr.name})", f"-1 - {k} % len({arr.name})", "0", "-1", f"len({arr.name}) - 1"]
        return self.pick(options) if options else None
