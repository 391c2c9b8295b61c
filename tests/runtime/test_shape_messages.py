"""runtime/messages.shapes_message, the text compiled code raises through `raise_shapes`, word for word NumPy's
own for every kind and pair of shapes that NumPy refuses."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuvil.runtime.messages import NOT_BROADCAST, NOT_INTO, OUTPUT_MISMATCH, UFUNC_OUT, shapes_message

SHAPES = st.lists(st.integers(0, 3), max_size=3).map(tuple)


def _numpy(kind, first, second):
    a, b = np.zeros(first), np.zeros(second)
    try:
        if kind == NOT_BROADCAST:
            np.add(a, b)
        elif kind == OUTPUT_MISMATCH:
            a += b
        else:
            b[...] = a  # `first` into `second`
    except ValueError as exc:
        return str(exc)
    return None


@given(first=SHAPES, second=SHAPES)
@pytest.mark.parametrize("kind", [NOT_BROADCAST, OUTPUT_MISMATCH, NOT_INTO])
def test_each_message_is_numpys(kind, first, second):
    expected = _numpy(kind, first, second)
    if expected is not None:
        dims = np.array(first + second, np.int64)
        assert shapes_message(kind, dims, np.array([len(first), len(second)], np.int64)) == expected


@given(inputs=st.lists(SHAPES, min_size=1, max_size=3), out=SHAPES)
def test_ufunc_out_message_is_numpys(inputs, out):
    """`np.ufunc(*inputs, out=o)`: NumPy names every input and the output, or the broadcast shape."""
    ufunc = {1: np.negative, 2: np.add, 3: np.clip}[len(inputs)]
    try:
        ufunc(*(np.zeros(s) for s in inputs), out=np.zeros(out))
    except ValueError as exc:
        shapes = [*inputs, out]
        dims = np.array([d for s in shapes for d in s], np.int64)
        assert shapes_message(UFUNC_OUT, dims, np.array([len(s) for s in shapes], np.int64)) == str(exc)
