"""Budgets, seeds and the tally the fuzz tests share.

The budgets come from the environment so that one test file serves both the default session (a few dozen
programs, deterministic) and `nox -s fuzz` (10,000, 300 and 2,000, a fresh seed each run):

    CUVIL_FUZZ_NORMALIZE   programs for the normalization differential (default 60: the same 60 each run,
                           under a minute of libcst; `nox -s fuzz` runs 10,000 from a fresh seed)
    CUVIL_FUZZ_COMPILE     programs for the compiled differential (default 6 small ones in three lanes
                           that pin what they vary, about a second of compiling each; set, every option
                           is drawn and the programs are as large as the normalization part's)
    CUVIL_FUZZ_PARALLEL_PROGRAMS  programs for the parallel-soundness differential (default 12), which runs
                           by default (CUVIL_FUZZ_PARALLEL=0 leaves it out; test_parallel_fuzz.py)
    CUVIL_FUZZ_SEED        base seed (default 0); a failure names the seed that reproduces it
    CUVIL_FUZZ_SHARDS      how many test functions each budget is split into, for pytest-xdist (default 2)
    CUVIL_FUZZ_SHRINK      1: shrink a failing program to a small one (minutes for a big one; default 0)
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from .generator import programs


def budget(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


SEED = budget("CUVIL_FUZZ_SEED", 0)
SHARDS = max(1, budget("CUVIL_FUZZ_SHARDS", 2))
PHASES = tuple(Phase) if budget("CUVIL_FUZZ_SHRINK", 0) else tuple(p for p in Phase if p is not Phase.shrink)


@dataclasses.dataclass
class Part:
    programs: int = 0
    mismatches: set[str] = dataclasses.field(default_factory=set)  # digests of failing programs
    seconds: float = 0.0
    runs: int = 0  # calls of each program (0: the part does not say)

    def as_dict(self) -> dict[str, Any]:
        return {"programs": self.programs, "mismatches": sorted(self.mismatches), "seconds": self.seconds,
                "runs": self.runs}


TALLY: dict[str, Part] = {}  # part name → what ran in this process; conftest.py prints the sum


@contextlib.contextmanager
def counted(part: str, program: Any) -> Iterator[None]:
    """Count one program of `part`, its time, and whether it failed (shrinking re-runs count too).

    An example hypothesis abandons — its data ran out (`StopTest`, a BaseException) or it was rejected — is
    not a program run: hypothesis draws another in its place, so counting it would report more programs than
    the budget (218 for 200)."""
    entry = TALLY.setdefault(part, Part())
    start = time.perf_counter()
    ran = False
    try:
        yield
        ran = True
    except HypothesisException:  # hypothesis steering the search, not a failure
        raise
    except Exception:
        ran = True
        entry.mismatches.add(hashlib.sha1(program.source.encode()).hexdigest()[:12])
        raise
    finally:
        if ran:
            entry.programs += 1
        entry.seconds += time.perf_counter() - start


def sharded_tests(part: str, total: int, check: Callable[..., None], namespace: dict[str, Any],
                  strategy: st.SearchStrategy[Any] | None = None, lanes: int = 0) -> None:
    """Define `test_<part>_<k>` for k < SHARDS in `namespace`, each running its share of `total` programs from
    its own seed, so pytest-xdist can run them side by side and every run draws the same programs.
    `strategy` draws the programs (default: `generator.programs()`); each needs a `.source`. `lanes=N`: N
    shards instead of SHARDS, and `check(program, data, k)` is told its shard (a part that pins what each
    shard varies, so that a small budget still covers it)."""
    strategy = programs() if strategy is None else strategy
    shards = lanes or SHARDS
    for shard in range(shards):
        share = total // shards + (shard < total % shards)
        if share == 0:
            continue
        test = _shard_test(part, shard, share, check, strategy, lanes > 0)
        name = f"test_{part}_{shard}"
        test.__name__ = test.__qualname__ = name
        test.__doc__ = f"{part}: shard {shard} of {shards}, {share} programs, seed {SEED * 1000 + shard}"
        namespace[name] = test


def _shard_test(part: str, shard: int, share: int, check: Callable[..., None], strategy: st.SearchStrategy[Any],
                told: bool) -> Callable[..., None]:
    @seed(SEED * 1000 + shard)
    @settings(max_examples=share, deadline=None, database=None, print_blob=True, phases=PHASES,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.filter_too_much])
    @given(program=strategy, data=st.data())
    def test(program: Any, data: st.DataObject) -> None:
        with counted(part, program):
            check(program, data, shard) if told else check(program, data)

    return test
