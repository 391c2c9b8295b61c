"""np.linalg.norm(x, axis=k) compiles (Numba's norm takes no axis: lower/norms.py, runtime/axes.norm_axis) and gives
NumPy's values, dtype (float32 stays float32, integers and bools are float64, complex gives its real type) and
shape (keepdims; a number for a 1-d array), and NumPy's AxisError for an axis out of range. Each is a first call,
a guard hit and a guard miss (a longer last axis); the row-loop spelling agrees with the axis call."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted

SPELLINGS = ("np.linalg.norm(x, axis=AXIS)", "np.linalg.norm(x, None, AXIS)", "np.linalg.norm(x, ord=None, axis=AXIS)",
             "np.linalg.norm(x, axis=AXIS, keepdims=True)", "np.linalg.norm(x, axis=AXIS, keepdims=False)",
             "x / np.linalg.norm(x, axis=AXIS, keepdims=True)")
DTYPES = ("float64", "float32", "int64", "int8", "bool", "complex128", "complex64")


@settings(max_examples=80, deadline=None)
@given(data=st.data(), spelling=st.sampled_from(SPELLINGS), dtype=st.sampled_from(DTYPES), ndim=st.integers(1, 3),
       axis=st.integers(-4, 3))
def test_norm_along_an_axis_as_numpy(data, spelling: str, dtype: str, ndim: int, axis: int) -> None:
    shape = tuple(data.draw(st.integers(0, 4)) for _ in range(ndim))
    fn = jitted(f"def f(x):\n    return {spelling.replace('AXIS', str(axis))}\n")
    values = st.complex_numbers(max_magnitude=1e3, allow_nan=False, allow_infinity=False,
                                width=np.dtype(dtype).itemsize * 8) if dtype.startswith("complex") else None
    x = data.draw(arrays(dtype, shape, special=False, values=values))
    longer = data.draw(arrays(dtype, (*shape[:-1], shape[-1] + 1), special=False, values=values))
    for args in ((x,), (x.copy(),), (longer,)):
        assert_like_numpy(fn, *args, reduced=np.abs(args[0]).astype(float) ** 2)


@pytest.mark.parametrize("parallel", [False, True])
def test_the_row_loop_spelling_agrees(parallel: bool) -> None:
    rows = jitted("def f(x):\n    out = np.empty(x.shape[0])\n    for i in range(x.shape[0]):\n"
                  "        out[i] = np.linalg.norm(x[i])\n    return out\n", parallel=parallel)
    axis = jitted("def f(x):\n    return np.linalg.norm(x, axis=1)\n", parallel=parallel)
    rng = np.random.default_rng(0)
    for shape in ((3, 4), (3, 4), (5, 2)):
        x = rng.standard_normal(shape)
        np.testing.assert_allclose(rows(x), np.linalg.norm(x, axis=1), rtol=1e-12)
        np.testing.assert_allclose(axis(x), np.linalg.norm(x, axis=1), rtol=1e-12)


def test_an_axis_out_of_range_is_numpys_axis_error_at_the_users_line() -> None:
    fn = jitted("def f(x):\n    n = 1\n    return np.linalg.norm(x, axis=2) * n\n")
    with pytest.raises(np.exceptions.AxisError) as caught:
        fn(np.ones((2, 3)))
    assert str(caught.value) == "axis 2 is out of bounds for array of dimension 2"
    last = traceback.extract_tb(caught.tb)[-1]
    assert (last.filename, last.lineno) == (fn.py_func.__code__.co_filename, 3)
