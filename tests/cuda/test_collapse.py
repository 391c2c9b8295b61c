"""Two nested parallel axes as one grid (codegen/cuda_collapse.py): a thread per element of a 2-D nest, so a
short, wide array gets a wide grid; equal to Python for any shape (empty ones too), with aliasing arguments
(the serial twin) and Python's IndexError at the user's line. Nests whose inner loop is not parallel by its
text (a value carried along j, a row sum) keep a thread per row, and are equal to Python too."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cuvil
from cuvil.runtime import cuda_runtime
from tests.helpers import define

SCALE = define("""
def scale(x, out, k):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            t = x[i, j] * k
            out[i, j] = t + x[i, j]
    return out
""")
CARRIED = define("""
def running(x, out):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            out[i, j] = x[i, j]
            if j > 0:
                out[i, j] = out[i, j - 1] + x[i, j]
    return out
""")
ROW_SUMS = define("""
def row_sums(x, out):
    for i in range(x.shape[0]):
        s = 0.0
        for j in range(x.shape[1]):
            s += x[i, j]
        out[i] = s
    return out
""")
VALUES = st.integers(-40, 40).map(lambda k: k / 4)
_JITTED: dict = {}


def jitted(fn):
    if fn not in _JITTED:
        _JITTED[fn] = cuvil.jit(fn, target="cuda")
    return _JITTED[fn]


def _configs(fn, *args):
    """The launch configurations of a call, through the launch hook."""
    seen = []

    def hook(kernel, config):
        seen.append(config)
        return kernel[config]

    with cuda_runtime.launch_hook(hook):
        result = fn(*args)
    return result, seen


def _grids(fn):
    return [line for line in str(cuvil.explain(fn)).splitlines() if "grid kernel" in line]


@settings(max_examples=12, deadline=None, database=None)
@given(x=hnp.arrays(np.float64, st.tuples(st.integers(0, 5), st.integers(0, 7)), elements=VALUES))
def test_a_collapsed_nest_equals_python(x):
    expected = SCALE(x, np.zeros_like(x), 3.0)
    out = np.zeros_like(x)
    got = jitted(SCALE)(x, out, 3.0)
    assert got is out and got.dtype == expected.dtype and np.array_equal(got, expected)


def test_a_short_wide_array_gets_a_thread_per_element():
    fn = cuvil.jit(SCALE, target="cuda")
    x = np.arange(600.0).reshape(2, 300)
    result, configs = _configs(fn, x, np.zeros_like(x), 2.0)
    assert np.array_equal(result, 3 * x)
    assert configs == [cuda_runtime.grid(600)] == [(3, 256)]  # one thread a row would be grid(2): (1, 32)
    assert "over both axes of the nest" in _grids(fn)[0]
    assert "_e" in fn.source(stage="kernel")


def test_aliased_arguments_run_the_serial_twin_in_pythons_order():
    x = np.arange(12.0).reshape(3, 4)
    expected = SCALE(x.copy(), x.copy(), 2.0)
    same = x.copy()
    result, configs = _configs(jitted(SCALE), same, same, 2.0)
    assert configs == [(1, 1)] and np.array_equal(result, expected) and result is same


def test_an_index_error_at_the_users_line_as_on_the_cpu():
    x, out = np.ones((3, 4)), np.zeros((2, 4))  # out has a row fewer
    with pytest.raises(IndexError) as cpu:
        cuvil.jit(SCALE)(x, out.copy(), 1.0)
    with pytest.raises(IndexError) as gpu:
        jitted(SCALE)(x, out.copy(), 1.0)
    assert str(gpu.value) == str(cpu.value) == "index 2 is out of bounds for axis 0 with size 2"
    assert gpu.traceback[-1].lineno + 1 == 5  # the user's `out[i, j] = ...` (pytest counts from 0)


@pytest.mark.parametrize("fn", [CARRIED, ROW_SUMS], ids=["carried", "row_sums"])
def test_a_nest_whose_inner_loop_is_not_parallel_keeps_a_thread_per_row(fn):
    x = np.arange(20.0).reshape(4, 5) / 4
    out = np.zeros(x.shape if fn is CARRIED else x.shape[0])
    expected = fn(x, out.copy())
    assert np.array_equal(jitted(fn)(x, out, *()), expected)
    assert _grids(jitted(fn)) and not any("over both axes" in line for line in _grids(jitted(fn)))
