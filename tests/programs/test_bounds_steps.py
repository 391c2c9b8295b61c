"""Bounds checks of loops over a range whose step is not a literal (`range(start, -1, -step)`): the check stays
at the index, where Python raises, and the compiler never needs the step's value (lower/checks.py's `_step`
reads only literals; a negated name once reached `-None` there, found by mutation testing)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def down_by(a, start, step):
    s = 0.0
    for i in range(start, -1, -step):
        s += a[i] * (i + 1)
    return s


def up_by(a, stop, step):
    out = np.zeros(len(a))
    for i in range(0, stop, +step):
        out[i] = a[i] * 2.0
    return out


JITTED = {f: cuvil.jit(f) for f in (down_by, up_by)}


@settings(max_examples=30)
@given(size=st.integers(0, 6), start=st.integers(-2, 8), step=st.integers(1, 3))
def test_a_range_stepping_by_a_negated_name_is_checked_as_python(size, start, step):
    a = np.arange(1.0, size + 1.0)
    for _ in range(2):  # a first call, then a guard hit
        assert_matches(down_by, {"cuvil": JITTED[down_by]}, a, start, step)
        assert_matches(up_by, {"cuvil": JITTED[up_by]}, a.copy(), start, step)


def test_the_first_bad_index_of_a_stepped_range_raises_numpys_error():
    with pytest.raises(IndexError, match=r"^index 5 is out of bounds for axis 0 with size 3$"):
        JITTED[down_by](np.ones(3), 5, 2)
    with pytest.raises(IndexError, match=r"^index 4 is out of bounds for axis 0 with size 4$"):
        JITTED[up_by](np.ones(4), 6, 2)
    assert JITTED[down_by](np.ones(3), 2, 2) == down_by(np.ones(3), 2, 2) == 4.0
