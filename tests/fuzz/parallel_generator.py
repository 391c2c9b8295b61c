"""`parallel_programs()`: the hypothesis strategy of parallel-fuzz programs (parallel_programs.py says what one
is). The function is: views of the arguments, the scalars the loop needs, the loop nest (parallel_body.py), and
a return of what the loop left behind — the arrays it wrote, a reduction or scan, the loop variable, the last
value of a private scalar, an array allocated in the loop. Choices shrink towards the plainest program."""

from __future__ import annotations

import dataclasses
import importlib.util
import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from .parallel_body import LoopWriter
from .parallel_programs import IDX_KINDS, LAYOUTS, PARAMS, Arr, Layout, ParallelProgram, Run, arguments
from .scope import Scope

# Small sizes meet the dim policy's static/dynamic boundary (16); large ones keep threads busy long enough to
# overlap, which is when a race shows (a few hundred iterations are done before a second thread wakes up).
SIZES = {"1d": (8, 5, 16, 17, 13, 20000, 33, 64, 200, 3000), "2d": (4, 3, 5, 8, 9, 120, 12)}
D_VALUES, X_VALUES, G_VALUES, K_VALUES = (3, -1, 0, 1, 2, 7), (1.5, 0.0, -2.0), (2.0, -0.5, 3.0), (1, 2, 3)
VIEWS = {
    "1d": ("{v} = {r}", "{v} = {r}[1:]", "{v} = np.ravel({r})", "{v} = {r}[::-1]", "{v} = {r}[:-1]", "{v} = {r}[:]",
           "{v} = {r}[::2]", "{v} = {r}[1::2]", "{v} = {r}.reshape(len({r}))", "{v}, k0 = {r}, 0",
           "{v} = {r} if d >= 0 else {o}", "{v} = tail({r})", "{v} = np.zeros(len({r}))", "{v} = {r}.copy()"),
    "2d": ("{v} = {r}.T", "{v} = {r}", "{v} = {r}[::-1]", "{v} = {r}[:, ::-1]", "{v} = {r}[1:, 1:]",
           "{v} = {r}.reshape({r}.shape[0] * {r}.shape[1])", "{v} = np.zeros_like({r})",
           "{v} = {r} if d >= 0 else {o}"),
}
KEEPS_CONTIGUOUS = {"{v} = {r}", "{v} = {r}[1:]", "{v} = np.ravel({r})", "{v} = {r}[:-1]", "{v} = {r}[:]",
                    "{v} = {r}.reshape(len({r}))", "{v}, k0 = {r}, 0", "{v} = tail({r})", "{v} = np.zeros(len({r}))",
                    "{v} = {r}.copy()", "{v} = np.zeros_like({r})"}


@st.composite
def parallel_programs(draw: Any, runs: int = 3) -> ParallelProgram:
    s = Scope(draw)
    family = s.pick(["1d", "1d", "2d"])
    layout_name = s.pick(list(LAYOUTS[family]))
    layout = LAYOUTS[family][layout_name]
    b_dtype = "int64" if family == "1d" and not layout.shared and s.coin(0.3) else "float64"
    raising, oob = s.coin(0.25), s.coin(0.1)
    program = ParallelProgram(family, (), layout_name, b_dtype, s.pick(IDX_KINDS), calls(s, family, layout, runs),
                              s.pick([None, True, False]), oob or s.coin(0.5), seed=s.pick(range(8)),
                              may_raise=raising or oob)
    arrays = parameters(program, layout)
    setup = views(s, family, arrays, layout)
    writer = LoopWriter(s, family, arrays, [environment(program, run, setup) for run in program.runs], raising, oob)
    loop = writer.nest()
    returned = s.pick(["i"]) if s.coin(0.3) else None
    inits = [f"{name} = {value}" for name, value in writer.declared.items()]
    unbound = returned == "i" and s.coin(0.2)  # after a loop that ran no iteration, `i` is unbound
    inits += ["i = -1"] * (returned == "i" and not unbound)
    ret, loose = return_line(s, writer, arrays, returned)
    return dataclasses.replace(program, body=tuple(setup + inits + loop + [ret]), loose=loose,
                               may_raise=program.may_raise or unbound)


def calls(s: Scope, family: str, layout: Layout, count: int) -> tuple[Run, ...]:
    """The first call, the same call again (a guard hit; a race shows as a different answer), then calls that
    may change the size, the argument kind, the scalars and the globals (guard misses, dim policy)."""
    kinds = ["numpy", "torch"] if layout.torch_ok and importlib.util.find_spec("torch") else ["numpy"]
    first = Run(s.pick(SIZES[family]), s.pick(kinds), s.pick(D_VALUES), s.pick(X_VALUES), s.pick(G_VALUES),
                s.pick(K_VALUES))
    out = [first, first]
    while len(out) < count:
        last = out[-1]
        out.append(Run(s.pick(SIZES[family]) if s.coin(0.6) else last.size,
                       s.pick(kinds) if s.coin(0.4) else last.kind,
                       s.pick(D_VALUES) if s.coin(0.4) else last.d, s.pick(X_VALUES) if s.coin(0.3) else last.x,
                       s.pick(G_VALUES) if s.coin(0.4) else last.g, s.pick(K_VALUES) if s.coin(0.4) else last.k))
    return tuple(out[:count])


def parameters(program: ParallelProgram, layout: Layout) -> dict[str, Arr]:
    first, second = PARAMS[program.family][:2]
    ndim = 1 if program.family == "1d" else 2
    arrays = {first: Arr(first, ndim, "f", True), second: Arr(second, ndim, program.b_dtype[0], True)}
    if program.family == "1d":
        arrays["idx"] = Arr("idx", 1, "i", False)
    return arrays


def views(s: Scope, family: str, arrays: dict[str, Arr], layout: Layout) -> list[str]:
    """Up to two names for memory the arguments already have (or, sometimes, a fresh local array)."""
    contiguous = {name for name, c in zip(PARAMS[family], layout.contiguous) if c}
    lines = []
    for v in ("v", "w")[:s.pick([0, 1, 2, 1])]:
        roots = [a for a in arrays.values() if a.writable and a.ndim == (1 if family == "1d" else 2)]
        r = s.pick(roots)
        others = [a.name for a in roots if a.kind == r.kind and a.ndim == r.ndim and a.name != r.name] or [r.name]
        forms = [f for f in VIEWS[family] if ("reshape" not in f and "ravel" not in f) or r.name in contiguous]
        form = s.pick(forms)
        lines.append(form.format(v=v, r=r.name, o=s.pick(others)))
        ndim = 1 if "reshape" in form or family == "1d" else 2
        arrays[v] = Arr(v, ndim, r.kind if "zeros" not in form else "f", True)
        if (r.name in contiguous and form in KEEPS_CONTIGUOUS) or "zeros" in form or "copy" in form:
            contiguous.add(v)  # (`r if d >= 0 else o` may be either: not known contiguous)
    return lines


def environment(program: ParallelProgram, run: Run, setup: list[str]) -> dict[str, Any]:
    """The names the loop sees on this call (the arguments after the setup lines), for checking indices."""
    args, _ = arguments(program, run, "numpy")
    env: dict[str, Any] = {"np": np, "math": math, "tail": lambda v: v[1:], "G": run.g, "K": run.k, **args}
    exec("\n".join(setup), env)  # noqa: S102 (lines this module wrote)
    return env


def return_line(s: Scope, w: LoopWriter, arrays: dict[str, Arr], returned: str | None) -> tuple[str, tuple[int, ...]]:
    """`return …` of one to three things the loop left, and which of them is a float reduction (whose sum may
    legitimately come out in another order: compared with a tolerance, nothing else is)."""
    options = list(dict.fromkeys(w.written)) + [n for n in ("s", "c", "t", "tmp", "acc", "row") if n in w.declared]
    options += ["tmp[0]"] * ("tmp" in w.declared) + [returned] * (returned is not None)
    items = list(dict.fromkeys(s.pick(options) for _ in range(s.pick([1, 2, 3])))) if options else [next(iter(arrays))]
    if returned is not None and returned not in items:
        items.append(returned)
    reduction = "s" in w.declared and not w.s_ops - {"+=", "-="}
    loose = tuple(k for k, item in enumerate(items) if item == "s" and reduction)
    if len(items) == 1:
        return f"return {items[0]}", (-1,) if loose else ()
    return f"return {', '.join(items)}", loose
