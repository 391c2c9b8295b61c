"""Differential (c): parallel soundness. Generated loop programs (parallel_generator.py) — views, aliasing
arguments, index arrays, wrapped indices, stepped ranges, scans, helpers and NumPy calls that write, allocations
in the loop, operations that raise in some iteration — each called several times under
`cuvil.jit(parallel=True)` with the dim policy, the argument kind (NumPy or torch CPU tensors) and the module
globals varying between calls, and compared exactly with CPython (parallel_check.py).

    CUVIL_FUZZ_PARALLEL=0           leave it out (it runs by default, with the small budget below)
    CUVIL_FUZZ_PARALLEL_PROGRAMS    programs (default 12: about 20 s on 2 cores; `nox -s fuzz` runs 2,000)
    CUVIL_FUZZ_PARALLEL_RUNS        calls of each program (default 3, at least 3)

A race shows far more often with more threads than cores (NUMBA_NUM_THREADS=8, as `nox -s fuzz` sets it; it
must be set before Numba starts). Seeds, shards and shrinking are harness.py's (CUVIL_FUZZ_SEED,
CUVIL_FUZZ_SHARDS, CUVIL_FUZZ_SHRINK). To sort a large run's failures into classes with a small reproducer each,
use `python -m tests.fuzz.parallel_hunt`.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import strategies as st

from .harness import TALLY, Part, budget, sharded_tests
from .parallel_check import check_program
from .parallel_generator import parallel_programs
from .parallel_programs import ParallelProgram

RUNS = max(3, budget("CUVIL_FUZZ_PARALLEL_RUNS", 3))
ENABLED = os.environ.get("CUVIL_FUZZ_PARALLEL", "1") != "0"


def check(program: ParallelProgram, data: st.DataObject) -> None:
    problems = check_program(program)
    if problems:
        raise AssertionError("cuvil.jit(parallel=True) differs from CPython:\n  " +
                             "\n  ".join(p.text for p in problems))


if ENABLED:
    TALLY.setdefault("parallel", Part()).runs = RUNS
sharded_tests("parallel", budget("CUVIL_FUZZ_PARALLEL_PROGRAMS", 12), check, globals(), parallel_programs(RUNS))
_skip = pytest.mark.skipif(not ENABLED, reason="CUVIL_FUZZ_PARALLEL=0 leaves the parallel differential out")
for _name in [n for n in globals() if n.startswith("test_parallel_")]:
    globals()[_name] = _skip(globals()[_name])
