"""An element loop whose operands may broadcast at run time is versioned (lower/nest.py): a copy with plain
indices runs when no operand has a size-1 dim, the general loop (`x[i * flag]`) otherwise. Both copies must
compute NumPy's result; which one ran must not matter. Sizes vary between calls, so the dims are dynamic and
the flags are decided at run time, in both loops of one compiled variant."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.inspect.cost import cost_of
from cuvil.inspect.variants import plans_for
from tests.lower.compare import arrays, assert_like_numpy, jitted

AXPY = """
def axpy(a, x, y):
    return a * x + y
"""
ROWS = """
def rows(x, b):
    return x * 2.0 - b
"""


@st.composite
def axpy_args(draw, dtype):
    n = draw(st.integers(0, 9))
    nx, ny = draw(st.sampled_from([(n, n), (1, n), (n, 1), (1, 1)]))
    return (draw(st.floats(-4, 4, width=32)).__float__(), draw(arrays(dtype, (nx,))), draw(arrays(dtype, (ny,))))


@pytest.mark.parametrize("parallel", [False, True])
@settings(max_examples=40, deadline=None)
@given(args=axpy_args("float32"))
def test_both_versions_compute_numpys_result(parallel, args):
    assert_like_numpy(jitted(AXPY, parallel=parallel), *args)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(0, 5), m=st.integers(0, 5), b_rows=st.sampled_from([1, None]),
       data=st.data())
def test_a_row_operand_that_broadcasts_along_one_axis(n, m, b_rows, data):
    x = data.draw(arrays("float64", (n, m)))
    b = data.draw(arrays("float64", (b_rows if b_rows is not None else n, m)))
    assert_like_numpy(jitted(ROWS, parallel=True), x, b)


def test_one_variant_holds_both_versions_and_its_work_counts_once():
    fn = cuvil.jit(axpy, parallel=True)
    for n, m in ((5, 5), (6, 6), (1, 7)):  # sizes vary: the dims are dynamic, the flags run-time values
        x, y = np.arange(n, dtype=np.float32), np.ones(m, np.float32)
        got = fn(np.float32(2), x, y)
        np.testing.assert_array_equal(got, np.float32(2) * x + y)
        assert got.dtype == np.float32 and got.shape == (m,)
    assert len(fn.compile_events) == 2  # size 5 static; size 6 made the dims dynamic; (1, 7) hit that variant
    source = fn.source()
    assert "if _m0 and _m1:" in source and source.count("numba.prange(") == 2, source
    found = cost_of(plans_for(fn, (np.float32(2), np.ones(3, np.float32), np.ones(3, np.float32))))
    (nest,) = [r for r in found.regions if r.kind == "ParallelNest"]  # the copy is not counted again
    assert (str(nest.flops), str(nest.read), str(nest.written), nest.exact) == (
        "2*(max(x.shape[0], y.shape[0]))", "8*(max(x.shape[0], y.shape[0]))", "4*(max(x.shape[0], y.shape[0]))", True)


def axpy(a, x, y):
    return a * x + y
