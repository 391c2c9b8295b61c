"""runtime/messages.shapes_message, the text compiled code raises through `raise_shapes`, word for word NumPy's
own for every kind and pair of shapes that NumPy refuses."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuvil.runtime.messages import NOT_BROADCAST, NOT_INTO, OUTPUT_MISMATCH, shapes_message

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
