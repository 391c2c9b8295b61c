"""Programs for the parallel-soundness fuzzer: one loop nest that `cuvil.jit(parallel=True)` may turn into a
`prange`, written so that a wrong parallelization shows — views of the arguments, arguments that share memory,
index arrays, negative and wrapped indices, stepped ranges, reductions and scans, helpers that write,
allocations inside the loop, and operations that raise in some iteration (parallel_body.py writes the loop).

A program is fully determined by what hypothesis drew: the module text, how the array arguments are cut from
memory (`LAYOUTS`: `f(a, a)`, `f(m[1:], m[:-1])`, a matrix and its transpose, …), the element values (a fixed
formula, so reductions stay exact in any order for additions of these dyadic values), and the calls: each
`Run` names the size, NumPy or torch CPU tensors, the scalar arguments and the module globals during that
call, so one program also exercises guard hits, guard misses (a size, a global, the argument kind), and the
dim policy it is compiled with.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import numpy as np

INDENT = "    "
PARAMS = {"1d": ("a", "b", "idx", "d", "x"), "2d": ("m", "p", "d", "x")}


@dataclasses.dataclass(frozen=True)
class Arr:
    """An array name the loop may use, as the generator knows it."""

    name: str
    ndim: int
    kind: str  # "f" (float64) or "i" (int64)
    writable: bool


@dataclasses.dataclass(frozen=True)
class View:
    base: int  # which base buffer
    cut: str = ""  # the subscript applied to the base, in terms of the size n: "1:", "::-1", ":n", "1:, 1:"
    transpose: bool = False

    def slices(self, n: int) -> tuple[slice, ...]:
        def bound(text: str) -> int | None:
            return int(eval(text, {"n": n})) if text.strip() else None  # noqa: S307 (our own table's text)

        return tuple(slice(*(bound(p) for p in axis.split(":"))) for axis in self.cut.split(",") if self.cut)


@dataclasses.dataclass(frozen=True)
class Layout:
    """How the array arguments are cut from base buffers; a base's shape is (mult * n + add,) per axis."""

    bases: tuple[tuple[tuple[int, int], ...], ...]
    views: tuple[View, View]
    contiguous: tuple[bool, bool]  # whether each view is contiguous (`.reshape`/`np.ravel` are views then)

    @property
    def torch_ok(self) -> bool:
        return not any("::-" in v.cut for v in self.views)

    @property
    def shared(self) -> bool:
        return self.views[0].base == self.views[1].base


_N, _NN = ((1, 0),), ((1, 0), (1, 0))
LAYOUTS: dict[str, dict[str, Layout]] = {
    "1d": {
        "distinct": Layout((_N, _N), (View(0), View(1)), (True, True)),
        "same": Layout((_N,), (View(0), View(0)), (True, True)),
        "shift": Layout((((1, 1),),), (View(0, "1:"), View(0, ":-1")), (True, True)),
        "shift_back": Layout((((1, 1),),), (View(0, ":-1"), View(0, "1:")), (True, True)),
        "shift2": Layout((((1, 2),),), (View(0, "2:"), View(0, ":-2")), (True, True)),
        "reverse": Layout((_N,), (View(0), View(0, "::-1")), (True, False)),
        "interleave": Layout((((2, 0),),), (View(0, "::2"), View(0, "1::2")), (False, False)),
        "mixed_stride": Layout((((2, 0),),), (View(0, "::2"), View(0, ":n")), (False, True)),
        "tail_overlap": Layout((((2, -2),),), (View(0, ":n"), View(0, "n-2:")), (True, True)),
    },
    "2d": {
        "distinct": Layout((_NN, _NN), (View(0), View(1)), (True, True)),
        "same": Layout((_NN,), (View(0), View(0)), (True, True)),
        "transpose": Layout((_NN,), (View(0), View(0, transpose=True)), (True, False)),
        "flip": Layout((_NN,), (View(0), View(0, "::-1")), (True, False)),
        "shift": Layout((((1, 1), (1, 1)),), (View(0, "1:, 1:"), View(0, ":-1, :-1")), (False, False)),
    },
}
HELPERS = {  # name → definition: plain helpers Cuvil compiles with f, and a Numba function it calls as is
    "twice": ("def twice(v):", "    return 2.0 * v"),
    "put": ("def put(out, k, v):", "    out[k] = v"),
    "bump": ("def bump(out, k):", "    out[k] += 1.0", "    return out[k]"),
    "nput": ("@numba.njit", "def nput(out, k, v):", "    out[k] = v"),
    "tail": ("def tail(v):", "    return v[1:]"),
}
IDX_KINDS = ("ramp", "perm", "reverse", "pairs", "negative")


@dataclasses.dataclass(frozen=True)
class Run:
    """One call: the size n of every array dim, the argument kind, and the values of d, x, G and K."""

    size: int
    kind: str  # "numpy" or "torch"
    d: int
    x: float
    g: float
    k: int


@dataclasses.dataclass(frozen=True)
class ParallelProgram:
    family: str  # "1d" (a, b, idx) or "2d" (square m, p)
    body: tuple[str, ...]  # the lines of f's body, indented relative to it; the module around it follows
    layout: str
    b_dtype: str
    idx_kind: str
    runs: tuple[Run, ...]
    dynamic: bool | None
    boundscheck: bool
    loose: tuple[int, ...] = ()  # positions in the returned tuple holding a float reduction (-1: the result)
    seed: int = 0
    may_raise: bool = False  # written with a raising operation or an out-of-range index; else CPython never raises
    name: str = "f"

    @property
    def params(self) -> tuple[str, ...]:
        text = "\n".join(self.body)
        return tuple(p for p in PARAMS[self.family] if re.search(rf"\b{p}\b", text))

    @property
    def header(self) -> list[str]:
        """Imports, the globals and the helpers the body mentions (so a shrunk body drops what it no longer
        needs); the globals start at the first call's values."""
        text = "\n".join(self.body)
        numba = re.search(r"\bnput\b|\bnumba\.", text)
        lines = ["import math", *["import numba"] * bool(numba), "import numpy as np", ""]
        lines += [f"{name} = {value!r}" for name, value in (("G", self.runs[0].g), ("K", self.runs[0].k))
                  if re.search(rf"\b{name}\b", text)]
        for name, helper in HELPERS.items():
            if re.search(rf"\b{name}\(", text):
                lines += ["", "", *helper]
        return [*lines, "", ""]

    @property
    def source(self) -> str:
        lines = [*self.header, f"def f({', '.join(self.params)}):", *[INDENT + line for line in self.body]]
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:  # hypothesis prints this for a failing example: show what reproduces it
        runs = "; ".join(f"n={r.size} {r.kind} d={r.d} x={r.x} G={r.g} K={r.k}" for r in self.runs)
        return (f"ParallelProgram(layout={self.layout!r}, b={self.b_dtype}, idx={self.idx_kind}, "
                f"dynamic={self.dynamic}, boundscheck={self.boundscheck}, loose={self.loose}, seed={self.seed}, "
                f"may_raise={self.may_raise}, "
                f"runs: {runs}):\n{self.source}")

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def values(count: int, dtype: str, seed: int) -> np.ndarray:
    """Small dyadic values of both signs and zeros: sums of them are exact in any order."""
    k = np.arange(count, dtype=np.int64)
    ints = (k * 37 + seed * 11) % 23 - 11
    return ints.astype(np.float64) * 0.5 if dtype == "float64" else ints.astype(dtype)


def index_values(n: int, kind: str) -> np.ndarray:
    """The `idx` argument: indices into arrays of length n (wrapping ones included), some repeated."""
    k = np.arange(n, dtype=np.int64)
    table = {"ramp": k, "perm": (k * 7 + 3) % n, "reverse": n - 1 - k, "pairs": k // 2, "negative": -1 - (k * 5) % n}
    return table[kind]


def arguments(program: ParallelProgram, run: Run, kind: str) -> tuple[dict[str, Any], list[np.ndarray]]:
    """The arguments of one call by name, and the base buffers they view (compared after the call to see
    every write). `kind` "torch" wraps the bases with `torch.from_numpy` before cutting: same memory."""
    layout = LAYOUTS[program.family][program.layout]
    n = run.size
    bases = []
    for number, dims in enumerate(layout.bases):
        shape = tuple(mult * n + add for mult, add in dims)
        dtype = program.b_dtype if layout.views[1].base == number and not layout.shared else "float64"
        bases.append(values(int(np.prod(shape)), dtype, program.seed + number).reshape(shape))
    wrapped: list[Any] = bases
    if kind == "torch":
        import torch

        wrapped = [torch.from_numpy(b) for b in bases]
    cut = []
    for view in layout.views:
        array = wrapped[view.base]
        if view.cut:
            array = array[view.slices(n)]
        cut.append(array.T if view.transpose else array)
    names = PARAMS[program.family]
    args: dict[str, Any] = {names[0]: cut[0], names[1]: cut[1], "d": run.d, "x": run.x}
    if program.family == "1d":
        idx = index_values(n, program.idx_kind)
        bases.append(idx)
        args["idx"] = torch.from_numpy(idx) if kind == "torch" else idx
    return args, bases
