"""The lowering calls runtime/vmath.py where lower/math.py says so: whole-array `np.exp np.log np.tanh`,
`math.erf` and `math.tanh` of floats in a loop, and the max/min along an axis. The results stay within the
bounds lower/math.py documents against NumPy's own (in representable numbers), with NumPy's dtypes, NaN and
signed zeros; `float()` of a float32 is a Python float, as in CPython."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from cuvil.lower.math import BOUNDS
from tests.lower import ulp
from tests.lower.compare import assert_like_numpy, jitted

UFUNCS = """
def f(x):
    return np.{name}(x)
"""
GELU = """
def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))
"""
ALONG = """
def along(x):
    return np.max(x, axis=1), np.min(x, axis=-1), np.max(x, axis=0)
"""
ERF = """
def erf_loop(x):
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = math.erf(float(x[i])) + math.tanh(float(x[i]))
    return out
"""
AS_FLOAT = """
def as_float(x):
    return float(x[0])
"""


def _floats(dtype: str, size: int = 64) -> st.SearchStrategy[np.ndarray]:
    return hnp.arrays(dtype, st.integers(0, size), elements=st.floats(width=int(dtype[-2:])))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["exp", "log", "tanh"])
@given(data=st.data())
def test_whole_array_math_is_within_numpys_bound(name, dtype, data):
    f = jitted(UFUNCS.format(name=name))
    x = data.draw(_floats(dtype))
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(x)
        got = f(x)
    assert type(got) is np.ndarray and got.dtype == expected.dtype and got.shape == expected.shape
    worst, where = ulp.distance(got, expected)
    assert worst <= BOUNDS[(name, dtype)].bound.vs_numpy, f"x={x[where]!r}: {got[where]!r} != {expected[where]!r}"


@pytest.mark.parametrize("name", ["exp", "log", "tanh"])
def test_whole_array_math_calls_the_vector_kernel(name):
    f = jitted(UFUNCS.format(name=name) + "# float32 only\n")  # source() shows the newest variant
    f(np.ones(3, np.float32))
    assert f"{name}_f32(" in f.source()


@pytest.mark.parametrize("name", ["exp", "log", "tanh"])
def test_fastmath_keeps_the_same_kernel(name):
    """Every kernel is within NumPy's tolerance, so fastmath changes nothing about which one runs, and the
    kernels fix their own flags: the same bits with and without it (the caller's own arithmetic may differ)."""
    x = np.linspace(-6, 6, 1001, dtype=np.float32)
    fast, plain = jitted(UFUNCS.format(name=name), fastmath=True), jitted(UFUNCS.format(name=name))
    got, expected = fast(x), plain(x)
    assert got.dtype == expected.dtype == np.float32 and f"{name}_f32(" in fast.source()
    assert np.array_equal(got.view(np.uint32), expected.view(np.uint32))


@given(x=hnp.arrays(st.sampled_from(["float32", "float64"]), st.tuples(st.integers(1, 5), st.integers(1, 9)),
                    elements=st.sampled_from([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan])))
def test_max_min_along_an_axis_are_numpys(x):
    f = jitted(ALONG)
    assert_like_numpy(f, x)
    assert "maximum_nonan(" in f.source()  # the vectorized form (lower/math.py)


@pytest.mark.parametrize("parallel", [False, True])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_long_row_extremes_find_every_nan_and_the_true_extreme(parallel, data):
    """Rows long enough for the vectorized body and its scalar tail: the NaN-blind step (maxnum) must lose no NaN
    wherever it sits, and the extreme wherever it sits; first call, guard hit, guard miss (float64)."""
    f = jitted(ALONG, parallel=parallel)
    for dtype, rows in (("float32", 3), ("float32", 3), ("float64", 5)):
        cols = data.draw(st.integers(1, 300), label="cols")
        rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
        x = (rng.standard_normal((rows, cols)) * 10.0 ** rng.integers(-30, 30, (rows, cols))).astype(dtype)
        x[rng.random((rows, cols)) < 0.05] = -0.0  # signed zeros among the rest
        for r in range(rows):  # a NaN, an infinity or nothing at a drawn place in each row
            special = data.draw(st.sampled_from([None, np.nan, np.inf, -np.inf]), label="special")
            if special is not None:
                x[r, data.draw(st.integers(0, cols - 1), label="at")] = special
        assert_like_numpy(f, x)


@given(x=hnp.arrays("float32", st.integers(0, 30), elements=st.floats(-10, 10, width=32)))
def test_erf_and_tanh_of_python_floats_match_cpython(x):
    f = jitted("import math\n" + ERF)
    got, expected = f(x), f.py_func(x)
    assert got.dtype == expected.dtype == np.float64
    np.testing.assert_allclose(got, expected, rtol=4e-16, atol=5e-16)


def test_float_of_a_float32_is_a_python_float():
    f = jitted(AS_FLOAT)
    for x in (np.array([0.1], np.float32), np.array([3.0], np.float32), np.array([0.1], np.float64)):
        got, expected = f(x), f.py_func(x)
        assert type(got) is type(expected) is float and got == expected


@pytest.mark.filterwarnings("error::cuvil.PerformanceWarning")  # the lowered code must compile, no fallback
@given(k=st.integers(-10**6, 10**6), use=st.sampled_from(["np.exp(k % 5)", "np.log(abs(k) + 1)", "np.tanh(k)"]))
def test_transcendental_of_a_python_int_is_numpys_float64(k, use):
    """`np.exp(int)` is NumPy's float64; the float64 kernel took the int unconverted, Numba refused the lowered
    code, and the function ran as written with a PerformanceWarning (found in test_ufuncs' warnings)."""
    assert_like_numpy(jitted(f"def f(k):\n    return {use}\n"), k)
