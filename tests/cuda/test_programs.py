"""Every corpus program (tests/programs) with target="cuda" equals plain Python — on the simulator here (a few
examples of small shapes: each GPU thread runs as Python), on the GPU under bench/gpu_check.sh. Programs the CUDA
target refuses are listed with the reason, and the refusal itself is tested (a CuvilSyntaxError at the line)."""

import linecache
from copy import deepcopy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.programs.test_programs import CASES, assert_same, run_reference

# name → why target="cuda" refuses it (a CuvilSyntaxError at the user's line, with a hint)
REFUSED = {
    "double_then_stats": "np.empty inside a callee (device functions cannot allocate)",
}

_JITTED = {}


def compiled(fn):
    if fn not in _JITTED:
        _JITTED[fn] = cuvil.jit(fn, target="cuda")
    return _JITTED[fn]


ACCEPTED = [c for c in CASES if c.fn.__name__ not in REFUSED]


# A program the CPU target is known to get wrong (its Case's xfail) may be wrong here too: the same lowering.
@pytest.mark.parametrize("case", [pytest.param(c, id=c.fn.__name__, marks=[pytest.mark.xfail(reason=c.xfail)]
                                               if c.xfail else []) for c in ACCEPTED])
@settings(max_examples=3, deadline=None, database=None)
@given(data=st.data())
def test_program_matches_python_on_cuda(case, data):
    args = data.draw(case.strategy, label="args")
    py_args, jit_args = deepcopy(args), deepcopy(args)
    expected = run_reference(case.fn, py_args)
    actual = compiled(case.fn)(*jit_args)
    assert_same(expected, actual)
    assert_same(tuple(py_args), tuple(jit_args), path="args")


@pytest.mark.parametrize("case", [pytest.param(c, id=c.fn.__name__) for c in CASES if c.fn.__name__ in REFUSED])
def test_refused_program_is_a_syntax_error_at_its_line(case):
    args = case.strategy.example()
    with pytest.raises(cuvil.CuvilSyntaxError) as info:
        cuvil.jit(case.fn, target="cuda")(*deepcopy(args))
    assert info.value.filename == case.fn.__code__.co_filename  # the line may be a callee's, in the same file
    assert linecache.getline(info.value.filename, info.value.lineno).strip() == info.value.text.strip()
    assert "target='cpu'" in info.value.hint or "loop" in info.value.hint
