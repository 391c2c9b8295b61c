"""Slices in array expressions are views read in place (lower/arrays.py hoists each into a leaf indexed by the
loop variables): shifted (`x[1:] + x[:-1]`), a column (`x[:, 0]`), reversed (`x[::-1]`), strided, transposed,
a new axis (`x[:, None]`); and arguments that are themselves non-contiguous views (a transposed or strided
array) give NumPy's result too."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import WIDE, arrays, assert_like_numpy, jitted, shapes

VIEWS = """
def views(x):
    r0 = x[1:] + x[:-1]
    r1 = x[:, 0] * 2
    r2 = x[::-1] - x
    r3 = x[:, 1:] - x[:, :-1]
    r4 = x[:, ::2] + 1
    r5 = x[1:, ::-1] * x[:-1, :]
    r6 = x.T + 1
    r7 = x[0] + x
    return r0, r1, r2, r3, r4, r5, r6, r7
"""
SMALL_VIEWS = """
def small_views(x):
    r0 = x[1:] + x[:-1]
    r1 = x[::-1] - x
    r2 = x[:, 0] * 2
    return r0, r1, r2
"""
OUTER = """
def outer(v, w):
    r0 = v[:, None] - w[None, :]
    r1 = v[:, None] * w
    r2 = np.exp(v[::-1][:, None] + w[::2])
    return r0, r1, r2
"""


def _matrix(dtype: str) -> st.SearchStrategy[np.ndarray]:
    """At least one row and column: `x[:, 0]` and `x[0]` need them."""
    return shapes(2, min_side=1).flatmap(lambda s: arrays(dtype, s))


@pytest.mark.parametrize("dtype", ["float64"] + (["int8"] if WIDE else []))
@settings(max_examples=20)
@given(data=st.data())
def test_slices_are_views(dtype, data):
    assert_like_numpy(jitted(VIEWS, dynamic=True), data.draw(_matrix(dtype)))


@settings(max_examples=20)
@given(data=st.data())
def test_slices_are_views_in_parallel(data):
    assert_like_numpy(jitted(SMALL_VIEWS, dynamic=True, parallel=True), data.draw(_matrix("float32")))


@settings(max_examples=20)
@given(data=st.data())
def test_a_strided_argument(data):
    """The argument is a view itself: every other row, columns reversed (a non-contiguous layout)."""
    base = data.draw(shapes(2, min_side=2).flatmap(lambda s: arrays("float64", (2 * s[0], s[1]))))
    assert_like_numpy(jitted(SMALL_VIEWS, dynamic=True), base[::2, ::-1])


@settings(max_examples=15)
@given(data=st.data())
def test_a_transposed_argument(data):
    x = data.draw(_matrix("float32"))
    assert_like_numpy(jitted(SMALL_VIEWS, dynamic=True), x.T)


@settings(max_examples=20)
@given(data=st.data())
def test_new_axis_outer_operations(data):
    v = data.draw(shapes(1).flatmap(lambda s: arrays("float32", s, special=False)))
    w = data.draw(shapes(1).flatmap(lambda s: arrays("float32", s, special=False)))
    assert_like_numpy(jitted(OUTER, dynamic=True), v, w)


def test_overlapping_views_of_one_argument_read_old_values():
    """`x[1:] + x[:-1]` reads `x` only: the result is a new array, `x` is unchanged."""
    fn = jitted("def pairs(x):\n    y = x[1:] + x[:-1]\n    return y, x\n")
    assert_like_numpy(fn, np.arange(6.0))
