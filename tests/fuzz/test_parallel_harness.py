"""The parallel fuzzer's own machinery, without compiling anything: the generator reaches every construct it
promises and writes programs that raise only where they mean to, the comparison catches each kind of
difference it claims to, the shrinker keeps blocks whole, and the summary counts exactly the budget."""

from __future__ import annotations

import types

import numpy as np
import pytest
from hypothesis import Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import StopTest

from ..helpers import define
from . import harness
from .parallel_check import Outcome, call, differences
from .parallel_features import CONSTRUCTS
from .parallel_generator import parallel_programs
from .parallel_programs import ParallelProgram, Run
from .parallel_shrink import candidates


def drawn(count: int, base_seed: int) -> list[ParallelProgram]:
    found: list[ParallelProgram] = []

    @seed(base_seed)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate])
    @given(parallel_programs())
    def collect(program: ParallelProgram) -> None:
        found.append(program)

    collect()
    return found


@pytest.fixture(scope="module")
def programs() -> list[ParallelProgram]:
    return drawn(300, 0) + drawn(300, 1) + drawn(300, 2)  # hypothesis draws in clusters: seeds reach further


def test_generator_reaches_every_construct(programs):
    missing = [name for name, test in CONSTRUCTS.items() if not any(test(p) for p in programs)]
    assert not missing, f"never generated in {len(programs)} programs: {missing}"


def test_programs_raise_in_cpython_only_where_they_mean_to(programs):
    """Every index is checked against every planned call, so a program that means no raise never raises."""
    for program in [p for p in programs if not p.may_raise][:150]:
        fn = define(program.source, "f")
        for run in program.runs:
            outcome = call(fn, program, run, "numpy")
            assert outcome.error is None, f"{outcome.error!r} from\n{program!r}"


def _outcome(value: object, error: BaseException | None = None, memory: float = 0.0) -> Outcome:
    return Outcome(value, error, [np.full(3, memory)])


@pytest.mark.parametrize("expected, actual, kind", [
    (_outcome(np.zeros(3)), _outcome(np.zeros(3, np.float32)), "value"),
    (_outcome(np.zeros(3)), _outcome(np.zeros((3, 1))), "value"),
    (_outcome(1.5), _outcome(np.float32(1.5)), "value"),
    (_outcome(3), _outcome(3.0), "value"),
    (_outcome((1, 2.0)), _outcome((1, 2.5)), "value"),
    (_outcome(np.array([np.nan, 1.0])), _outcome(np.array([1.0, 1.0])), "value"),
    (_outcome(None), _outcome(None, memory=1.0), "write"),
    (_outcome(None, ZeroDivisionError()), _outcome(np.zeros(3)), "missing ZeroDivisionError"),
    (_outcome(None, ValueError()), _outcome(None, SystemError()), "SystemError instead of ValueError"),
    (_outcome(1.0), _outcome(None, IndexError("index 9")), "raised IndexError"),
])
def test_comparison_catches(expected, actual, kind):
    assert [p.kind for p in differences(expected, actual, (), "numpy")][:1] == [kind]


def test_comparison_is_exact_except_for_a_float_reduction():
    e, a = _outcome((1.0, 2.0)), _outcome((1.0 + 1e-12, 2.0 + 1e-12))
    assert [p.text for p in differences(e, a, (0,), "numpy")] == ["result[1]: expected 2.0, got 2.000000000001"]
    assert differences(_outcome(np.array([np.nan])), _outcome(np.array([np.nan])), (), "numpy") == []
    assert differences(_outcome(np.int64(3)), _outcome(3), (), "numpy") == []  # Numba returns Python's int


def test_comparison_wants_a_tensor_back_for_tensor_arguments():
    torch = pytest.importorskip("torch")
    assert differences(_outcome(np.zeros(2)), _outcome(torch.zeros(2, dtype=torch.float64)), (), "torch") == []
    assert [p.kind for p in differences(_outcome(np.zeros(2)), _outcome(np.zeros(2)), (), "torch")] == ["value"]


def test_calls_share_memory_as_the_layout_says():
    run = Run(6, "numpy", 0, 0.0, 0.0, 1)
    program = ParallelProgram("1d", ("a[0] = 7.0", "return b"), "shift", "float64", "ramp", (run,) * 3, None, False)
    shown = call(define(program.source, "f"), program, run, "numpy")
    assert shown.value[1] == 7.0 and shown.bases[0][1] == 7.0  # b = base[:-1], a = base[1:]


def test_shrinking_removes_a_block_with_its_else():
    body = ("v = a[1:]", "for i in range(len(v)):", "    if a[i] > 0.0:", "        v[i] = 1.0", "    else:",
            "        v[i] = 2.0", "    s += 1.0", "return a")
    program = ParallelProgram("1d", body, "distinct", "float64", "ramp", (Run(8, "numpy", 0, 0.0, 0.0, 1),) * 3,
                              None, False)
    bodies = {c.body for c in candidates(program)}
    assert ("v = a[1:]", "for i in range(len(v)):", "    s += 1.0", "return a") in bodies
    assert ("v = a[1:]", "return a") in bodies


def test_summary_counts_only_programs_that_ran():
    """An example hypothesis abandons for lack of data (StopTest) is not a program: the old count said 218 for
    a budget of 200."""
    program = ParallelProgram("1d", ("return a",), "distinct", "float64", "ramp", (Run(4, "numpy", 0, 0.0, 0.0, 1),),
                              None, False)
    harness.TALLY.pop("selftest", None)
    with harness.counted("selftest", program):
        pass
    with pytest.raises(StopTest), harness.counted("selftest", program):
        raise StopTest(0)
    with pytest.raises(AssertionError), harness.counted("selftest", program):
        raise AssertionError("a mismatch")
    part = harness.TALLY.pop("selftest")
    assert (part.programs, len(part.mismatches)) == (2, 1)


def test_sharded_tests_count_exactly_their_budget():
    """End to end: shards whose draws often run out of data (hypothesis abandons those and draws again) still
    add up to the budget, as the summary prints it."""
    namespace: dict[str, object] = {}
    harness.TALLY.pop("budget-selftest", None)
    program = st.builds(lambda xs: types.SimpleNamespace(source=repr(xs)), st.lists(st.integers(), max_size=3))
    huge = st.lists(st.binary(min_size=100, max_size=100), min_size=200, max_size=200)  # past hypothesis' buffer

    def check(p: object, data: st.DataObject) -> None:
        if data.draw(st.integers(0, 2)) == 2:
            data.draw(huge)

    harness.sharded_tests("budget-selftest", 9, check, namespace, program)
    for test in namespace.values():
        test()  # type: ignore[operator]
    assert harness.TALLY.pop("budget-selftest").programs == 9
