"""Empty arrays and empty axes in NumPy's statistics: `np.var`/`np.std` (and the methods) of an empty array are
nan (Numba's divided by the size: ZeroDivisionError), `np.argmax`/`np.argmin` along an empty axis raise NumPy's
ValueError (Numba's: ZeroDivisionError, integer modulo by zero) and an axis out of range NumPy's AxisError,
at the user's line (runtime/statistics.py, runtime/axes.py)."""

from __future__ import annotations

import traceback
import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import jitted

STATISTICS = "def f(a):\n    return np.var(a), np.std(a), a.var(), a.std(), np.var(a.astype(np.float32))\n"
EXTREMES = "def f(a, k):\n    return np.argmax(a, axis=k), a.argmin(k), np.argmin(a, k), a.argmax(axis=k)\n"
SHAPES = st.lists(st.integers(0, 3), min_size=1, max_size=3)


@settings(max_examples=20, deadline=None)
@given(shape=SHAPES, dtype=st.sampled_from(["float64", "int32"]), data=st.data())
def test_var_and_std_of_any_array_are_numpys(shape, dtype, data):
    fn = jitted(STATISTICS)
    for rows in (shape, shape, [shape[0] + 1, *shape[1:]]):  # first call, guard hit, guard miss
        size = int(np.prod(rows))
        a = np.array(data.draw(st.lists(st.integers(-9, 9), min_size=size, max_size=size)), dtype).reshape(rows)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns for an empty array
            expected = fn.py_func(a)
        got = fn(a)
        for g, e in zip(got, expected, strict=True):
            assert np.asarray(g).dtype == np.asarray(e).dtype
            np.testing.assert_allclose(g, e, rtol=1e-6)


@settings(max_examples=25, deadline=None)
@given(shape=SHAPES, axis=st.integers(-4, 3), data=st.data())
def test_argmax_and_argmin_along_any_axis_are_numpys(shape, axis, data):
    fn = jitted(EXTREMES)
    for rows in (shape, shape, [shape[0] + 1, *shape[1:]]):
        size = int(np.prod(rows))
        a = np.array(data.draw(st.lists(st.integers(-9, 9), min_size=size, max_size=size)), np.float64).reshape(rows)
        try:
            expected = fn.py_func(a, axis)
        except ValueError as exc:  # an empty axis, or NumPy's AxisError (a ValueError) for one out of range
            try:
                fn(a, axis)
            except ValueError as raised:
                assert (type(raised), str(raised)) == (type(exc), str(exc))
                last = traceback.extract_tb(raised.__traceback__)[-1]
                assert last.lineno == 2  # the user's line (define() numbers the def as line 1)
                continue
            raise AssertionError(f"no {type(exc).__name__} for {rows} along {axis}") from exc
        got = fn(a, axis)
        for g, e in zip(got, expected, strict=True):  # an int64 scalar comes back a Python int (docs/semantics.md)
            assert (np.asarray(g).dtype, np.shape(g)) == (e.dtype, np.shape(e)) and np.array_equal(g, e)
