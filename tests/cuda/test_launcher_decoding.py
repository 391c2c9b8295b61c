"""The launcher's decoding of an error slot, without the kernel: each launch goes through a hook
(runtime/cuda_runtime.launch_hook) that writes a chosen slot — `iteration * CODES + code` and the two values a
bounds message needs — instead of running the kernel. The launcher must raise the exception that code stands
for, with the message built from the recorded values, at the user's line of the check; no code (the slot left
empty) returns normally. The kernels' own recording is tested through the simulator (test_python_errors.py)."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.runtime import cuda_runtime
from tests.cuda.test_python_errors import divide_down, gather_sum, line_of

GATHER = cuvil.jit(gather_sum, target="cuda", dynamic=True)  # static dims would prove `out[i]` in bounds
DIVIDE = cuvil.jit(divide_down, target="cuda")


def _recording(slot: list[int] | None):
    """A launch hook whose kernels only write `slot` (value, index, size) into their error slots."""

    def hook(kernel, config):
        def run(*args):
            slots = [a for a in args if getattr(a, "shape", None) == (5,) and a.dtype == np.int64]
            if slot is not None:
                for s in slots:
                    host = s.copy_to_host()
                    host[:3] = slot
                    s.copy_to_device(host)

        return run

    return hook


def _raised(fn, args, slot):
    with cuda_runtime.launch_hook(_recording(slot)):
        try:
            fn(*args)
        except Exception as exc:  # noqa: BLE001 (the test compares what was raised)
            return type(exc), str(exc), traceback.extract_tb(exc.__traceback__)[-1].lineno
    return None


def _codes(fn, args):
    """The codes the launcher tests for, with the user's line of each (from the generated source)."""
    fn(*args)  # compiled (and run once for real)
    source = fn.source(stage="kernel")
    found = {}
    for text in source.splitlines():
        if text.strip().startswith("if _e") and " == " in text:
            code = int(text.split(" == ")[1].split(":")[0])
            found[code] = int(text.rsplit("# L", 1)[1])
    return found


GATHER_ARGS = (np.arange(5.0), np.array([0, 1, 2, 3]), np.zeros(4))


@settings(max_examples=15, deadline=None, database=None)
@given(iteration=st.integers(0, 3), size=st.integers(0, 40), data=st.data())
def test_a_bounds_code_raises_numpys_message_from_the_recorded_values(iteration, size, data):
    """A kernel records an index out of bounds and the size (runtime/cuda_device.record_error_values)."""
    index = data.draw(st.one_of(st.integers(size, size + 50), st.integers(-size - 50, -size - 1)), label="index")
    codes = _codes(GATHER, GATHER_ARGS)
    assert set(codes.values()) == {line_of(gather_sum, "s += x[idx[i]]"), line_of(gather_sum, "out[i] = s")}
    code = data.draw(st.sampled_from(sorted(codes)), label="code")
    value = iteration * cuda_runtime.CODES + code
    assert _raised(GATHER, GATHER_ARGS, [value, index, size]) == (
        IndexError, f"index {index} is out of bounds for axis 0 with size {size}", codes[code])


def test_an_empty_slot_returns_normally_and_the_hook_is_this_blocks_only():
    out = np.zeros(4)
    assert _raised(GATHER, (*GATHER_ARGS[:2], out), None) is None
    assert np.array_equal(out, np.zeros(4))  # the hook ran nothing
    assert cuda_runtime._LAUNCH_HOOK.get() is None
    assert np.array_equal(GATHER(*GATHER_ARGS[:2], out), np.cumsum([0.0, 1.0, 2.0, 3.0]))


@pytest.mark.parametrize("iteration", [0, 7])
def test_a_python_check_code_of_a_grid_kernel_raises_pythons_zero_division_error(iteration):
    args = (100, np.zeros(8, np.int64))
    codes = _codes(DIVIDE, args)
    expected = ZeroDivisionError, "integer division or modulo by zero"
    with pytest.raises(ZeroDivisionError) as direct:  # what the real kernel records, for the message
        DIVIDE(0, np.zeros(8, np.int64))
    assert str(direct.value) == expected[1]
    found = {code: _raised(DIVIDE, args, [iteration * cuda_runtime.CODES + code, 0, 0]) for code in codes}
    assert any(f is not None and f[:2] == expected for f in found.values())
    assert all(f is not None and f[2] == codes[code] for code, f in found.items())
