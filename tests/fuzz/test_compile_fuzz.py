"""Differential (b): generated programs compiled through the whole pipeline agree with CPython on every target
this machine has (`cuvil.testing.targets()`: the CPU now; CUDA, under the simulator, once that target exists).
Compiling costs a few tenths of a second per program, so this part runs few programs: 6 small ones by default
(a few seconds), `CUVIL_FUZZ_COMPILE` of them, as large as the normalization part's, under `nox -s fuzz`.

Each program is compiled with a `parallel` option and dim policy (`dynamic`) and called three times: a first
call, a guard hit (the first call's sizes and argument kind, new values: it must not compile again), and a
third call of new sizes before which a module constant may change (`K0 = 7` → `K0 = -3`, never to its own
value), which the compiled code must follow as Python does. Some calls pass torch CPU tensors (the results must
come back as tensors, the writes land in the caller's memory). A changed constant keeps to the values the
generator's bounds allow, so the program still never raises or overflows.

`nox -s fuzz` draws all of it. The default budget is too small for draws to cover it (hypothesis's first
program of each shard is the simplest one), so it runs three lanes that pin it instead: each lane one
`(parallel, dynamic)` pair of LANES (together every value of each), numpy on one call and tensors on another,
and a changed constant before the third call.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_equivalent, assert_matches

from ..helpers import define
from .generator import Program, programs
from .harness import budget, sharded_tests

PINNED = "CUVIL_FUZZ_COMPILE" not in os.environ  # the default run: the lanes below
BUDGET = budget("CUVIL_FUZZ_COMPILE", 6)
# main's statements at most: small programs by default (a parallel compile of a large one took 10-20 s at load)
STATEMENTS = 3 if PINNED else 16
# the values generator.constants_for draws each constant from (its bounds hold for every one of them)
CONSTANTS = {"K0": (7, -3, 2), "F0": (0.25, -1.5, 3.0)}
OPTIONS = (None, False, True)
LANES = ((None, False), (False, True), (True, None))  # (parallel, dynamic) of each lane of the default run


@dataclasses.dataclass(frozen=True)
class Call:
    args: tuple[Any, ...]
    tensors: bool  # the arrays passed as torch CPU tensors sharing their memory
    constant: tuple[str, Any] | None = None  # a module constant set to a new value before the call


@dataclasses.dataclass(frozen=True)
class Plan:
    options: dict[str, Any]
    calls: tuple[Call, Call, Call]  # first call, guard hit, third call


def draw_plan(program: Program, data: st.DataObject, lane: int | None = None) -> Plan:
    """The options and calls, all drawn, or pinned by `lane` (of LANES) where they are not."""
    def drawn(strategy: st.SearchStrategy[Any], label: str, pinned: Any) -> Any:
        return data.draw(strategy, label=label) if lane is None else pinned

    pair = LANES[lane or 0]
    options = {"parallel": drawn(st.sampled_from(OPTIONS), "parallel", pair[0]),
               "dynamic": drawn(st.sampled_from(OPTIONS), "dynamic", pair[1])}
    first = data.draw(program.inputs(), label="first call")
    tensors = drawn(st.booleans(), "torch tensors", (lane or 0) % 2 == 1)
    hit = data.draw(program.inputs(like=first), label="guard hit")
    constant = None
    if drawn(st.booleans(), "change a constant", True):
        name = data.draw(st.sampled_from(sorted(CONSTANTS)), label="constant")
        now = ast.literal_eval(re.search(rf"^{name} = (.*)$", program.source, re.M).group(1))
        constant = (name, data.draw(st.sampled_from([v for v in CONSTANTS[name] if v != now]), label=name))
    third = Call(data.draw(program.inputs(), label="third call"), drawn(st.booleans(), "torch tensors", not tensors),
                 constant)
    return Plan(options, (Call(first, tensors), Call(hit, tensors), third))


def as_numpy(value: Any) -> Any:
    """A result of tensor arguments, as NumPy for the comparison; an ndarray here is a difference."""
    if isinstance(value, tuple):
        return tuple(as_numpy(v) for v in value)
    if isinstance(value, np.ndarray):
        raise AssertionError(f"an ndarray came back for tensor arguments: {value!r}")
    return value.numpy() if isinstance(value, torch.Tensor) else value


def through_torch(jitted: Any) -> Callable[..., Any]:
    """`jitted` called with tensors that share the NumPy arguments' memory, so their writes are compared too."""

    def call(*args: Any) -> Any:
        return as_numpy(jitted(*[torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args]))

    return call


def check(program: Program, data: st.DataObject, lane: int | None = None) -> None:
    plan = draw_plan(program, data, lane)
    fn = define(program.source, program.name)
    jitted = cuvil.jit(fn, **plan.options)
    for number, call in enumerate(plan.calls):
        if call.constant is not None:
            fn.__globals__[call.constant[0]] = call.constant[1]
        before = len(cuvil.explain(jitted).compiles)
        if call.tensors:
            label = f"cuvil.jit({fn.__name__}, {plan.options}) on tensors"
            assert_matches(fn, {label: through_torch(jitted)}, *call.args)
        else:
            assert_equivalent(jitted, *call.args)
        if number == 1:
            assert len(cuvil.explain(jitted).compiles) == before, "the first call's sizes and kind compiled again"


sharded_tests("compile", BUDGET, check, globals(), programs(STATEMENTS), lanes=len(LANES) if PINNED else 0)
