"""A ufunc given an output whose shape its inputs do not broadcast into raises NumPy's ValueError, naming every
operand as NumPy does (`operands could not be broadcast together with shapes (3,) (3,) (4,)`, or the broadcast
shape the output does not match) at the user's line; the output was checked against one input at a time and
the message named the output twice. Inputs of every shape, scalars among them; positional, keyword and tuple
outputs; serial and parallel; first call, guard hit and guard miss (shapes change between calls)."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.lower.compare import jitted

SHAPES = st.lists(st.integers(0, 3), max_size=3).map(tuple)
CALLS = {  # (inputs, how the call is written)
    "negative": (1, "np.negative(x, out=o)"),
    "add": (2, "np.add(x, y, o)"),
    "multiply": (2, "np.multiply(x, y, out=(o,))"),
    "maximum": (2, "np.maximum(x[::-1], 2.5, out=o)"),
}


def _outcome(f, *args):
    try:
        return "result", f(*args)
    except (ValueError, IndexError) as exc:  # IndexError: `x[::-1]` of a 0-d array
        # a CuvilShapeError when the shapes are certain at compile time: NumPy's words too
        # (CuvilIndexError's words name the argument: compared by class and line only)
        text = exc.message if isinstance(exc, cuvil.CuvilShapeError) else str(exc)
        line = traceback.extract_tb(exc.__traceback__)[-1].lineno
        return (ValueError, (text, line)) if isinstance(exc, ValueError) else (IndexError, line)


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("name", list(CALLS))
@settings(max_examples=15, deadline=None)
@given(calls=st.lists(st.tuples(SHAPES, SHAPES, SHAPES), min_size=3, max_size=3))
def test_ufunc_output_shape_message_is_numpys(name, parallel, calls):
    _, call = CALLS[name]
    source = f"def f(x, y, o):\n    {call}\n    return o\n"
    f = jitted(source, parallel=parallel)
    for x_shape, y_shape, o_shape in calls:
        x, y = np.arange(np.prod(x_shape), dtype=np.float64).reshape(x_shape), np.ones(y_shape)
        kind, want = _outcome(f.py_func, x, y, np.zeros(o_shape))
        got_kind, got = _outcome(f, x, y, np.zeros(o_shape))
        assert got_kind == kind, (x_shape, y_shape, o_shape, got)
        if kind != "result":
            assert got == want
        else:
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
