"""Differential (b): generated programs compiled through the whole pipeline agree with CPython on every target
this machine has (`cuvil.testing.targets()`: the CPU now; CUDA, under the simulator, once that target exists).
Compiling costs a few tenths of a second per program, so this part runs fewer programs than (a)."""

from __future__ import annotations

from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_equivalent

from ..helpers import define
from .generator import Program
from .harness import budget, sharded_tests

INPUTS_PER_PROGRAM = 4


def check(program: Program, data: st.DataObject) -> None:
    jitted = cuvil.jit(define(program.source, program.name))
    for _ in range(INPUTS_PER_PROGRAM):
        assert_equivalent(jitted, *data.draw(program.inputs()))


sharded_tests("compile", budget("CUVIL_FUZZ_COMPILE", 15), check, globals())
