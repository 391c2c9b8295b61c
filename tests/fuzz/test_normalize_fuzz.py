"""Differential (a): every normalization pass alone, and the whole pipeline, run in plain CPython on generated
programs, give what the original gives — results and writes into the arguments alike, exactly."""

from __future__ import annotations

import os
import zlib
from unittest import mock

import libcst as cst
from hypothesis import strategies as st

from cuvil.normalize.canonical import CanonicalBlocks
from cuvil.normalize.pipeline import PASSES, run_passes
from cuvil.testing import assert_matches

from ..helpers import define
from .generator import Program
from .harness import budget, sharded_tests

INPUTS_PER_PROGRAM = 3


def normalized_sources(source: str, check_idempotent: bool = True) -> dict[str, str]:
    """Each pass alone on canonical blocks (which every pass assumes), then the whole pipeline.

    libcst visits are the cost of this test, so none is repeated: the canonical module is the CanonicalBlocks
    variant and the input of every other pass, and the pipeline (`run_passes`: the passes in order) continues
    from the first pass's output."""
    base = cst.parse_module(source).visit(CanonicalBlocks())
    assert PASSES[0] is CanonicalBlocks
    alone = {p: base.visit(p()) for p in PASSES[1:]}
    pipeline = alone[PASSES[1]]
    for p in PASSES[2:]:
        pipeline = pipeline.visit(p())
    codes = {"CanonicalBlocks": base.code, **{p.__name__: m.code for p, m in alone.items()},
             "pipeline": pipeline.code}
    if check_idempotent:
        assert run_passes(pipeline).code == codes["pipeline"], "the pipeline is not idempotent on this program"
    return codes


def check(program: Program, data: st.DataObject) -> None:
    with mock.patch.dict(os.environ, {"CUVIL_DISABLE_JIT": "1"}):  # `@cuvil.jit` helpers stay plain Python here
        original = define(program.source, program.name)
    sources = normalized_sources(program.source, check_idempotent=zlib.crc32(program.source.encode()) % 4 == 0)
    variants = {f"after {label}": define(code, program.name) for label, code in sources.items()}
    for _ in range(INPUTS_PER_PROGRAM):
        assert_matches(original, variants, *data.draw(program.inputs()), rtol=0.0, atol=0.0)


sharded_tests("normalize", budget("CUVIL_FUZZ_NORMALIZE", 60), check, globals())
