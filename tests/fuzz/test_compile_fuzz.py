"""Differential (b): generated programs compiled through the whole pipeline agree with CPython on every target
this machine has (`cuvil.testing.targets()`: the CPU now; CUDA, under the simulator, once that target exists).
Compiling costs a few tenths of a second per program, so this part runs fewer programs than (a).

Each program is compiled with a drawn `parallel` and dim policy (`dynamic`), and its calls vary what a guard
sees: some pass torch CPU tensors (the results must come back as tensors, the writes land in the caller's
memory), and before the last call a module constant may change (`K0 = 7` → `K0 = -3`), which the compiled code
must follow as Python does. A changed constant keeps to the values the generator's bounds allow, so the program
still never raises or overflows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_equivalent, assert_matches

from ..helpers import define
from .generator import Program
from .harness import budget, sharded_tests

INPUTS_PER_PROGRAM = 4
# the values generator.constants_for draws each constant from (its bounds hold for every one of them)
CONSTANTS = {"K0": (7, -3, 2), "F0": (0.25, -1.5, 3.0)}
OPTIONS = (None, False, True)


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


def check(program: Program, data: st.DataObject) -> None:
    fn = define(program.source, program.name)
    options = {"parallel": data.draw(st.sampled_from(OPTIONS), label="parallel"),
               "dynamic": data.draw(st.sampled_from(OPTIONS), label="dynamic")}
    jitted = cuvil.jit(fn, **options)
    for number in range(INPUTS_PER_PROGRAM):
        if number == INPUTS_PER_PROGRAM - 1 and data.draw(st.booleans(), label="change a constant"):
            name = data.draw(st.sampled_from(sorted(CONSTANTS)), label="constant")
            fn.__globals__[name] = data.draw(st.sampled_from(CONSTANTS[name]), label=name)
        args = data.draw(program.inputs())
        if data.draw(st.booleans(), label="torch tensors"):
            assert_matches(fn, {f"cuvil.jit({fn.__name__}, {options}) on tensors": through_torch(jitted)}, *args)
        else:
            assert_equivalent(jitted, *args)


sharded_tests("compile", budget("CUVIL_FUZZ_COMPILE", 6), check, globals())
