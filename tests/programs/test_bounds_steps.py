"""Bounds checks of loops over a range whose step is not a literal (`range(start, -1, -step)`): the check stays
at the index, where Python raises, and the compiler never needs the step's value (lower/checks.py's `_step`
reads only literals; a negated name would reach `-None` there, found by mutation testing). With
`overflow="wrap"` the step stays `-step` in the code the checks see (the default wraps it in a Python-int
negation first), so both modes are compiled."""

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


MODES = ("raise", "wrap")
JITTED = {(f, mode): cuvil.jit(f, overflow=mode) for f in (down_by, up_by) for mode in MODES}


@settings(max_examples=30)
@given(size=st.integers(0, 6), start=st.integers(-2, 8), step=st.integers(1, 3))
def test_a_range_stepping_by_a_negated_name_is_checked_as_python(size, start, step):
    a = np.arange(1.0, size + 1.0)
    for _ in range(2):  # a first call, then a guard hit
        for fn in (down_by, up_by):
            assert_matches(fn, {f"overflow={m!r}": JITTED[fn, m] for m in MODES}, a.copy(), start, step)


@pytest.mark.parametrize("mode", MODES)
def test_the_first_bad_index_of_a_stepped_range_raises_numpys_error(mode):
    with pytest.raises(IndexError, match=r"^index 5 is out of bounds for axis 0 with size 3$"):
        JITTED[down_by, mode](np.ones(3), 5, 2)
    with pytest.raises(IndexError, match=r"^index 4 is out of bounds for axis 0 with size 4$"):
        JITTED[up_by, mode](np.ones(4), 6, 2)
    assert JITTED[down_by, mode](np.ones(3), 2, 2) == down_by(np.ones(3), 2, 2) == 4.0
