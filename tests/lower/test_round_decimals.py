"""`np.round(a, d)`, `np.around`, `a.round(d)` (and `round(x, d)` of a NumPy float) have NumPy's values, bit for
bit: NumPy multiplies by 10**d in the array's dtype, rounds half to even and divides (a float32 0.35 rounds to
0.4), where Numba computed in float64 (0.3) and gave the value back where NumPy's product overflows to inf
(runtime/rounding.py). Complex parts, integers, half elements and `out=` arrays too; a bool array rounds to
float16 (NumPy's rint), or with other decimals raises NumPy's TypeError."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, jitted, shapes

DIGITS = st.integers(-6, 12) | st.sampled_from([30, 45, 320, 400, -40, -320])
FORMS = {"round": "np.round(a, d)", "around": "np.around(a, d)", "method": "a.round(d)",
         "keyword": "np.round(a, decimals=d)", "expression": "np.round(a[::-1] * 2, d)",
         "element": "np.round(a[0], d)", "element method": "a[0].round(d)", "out": "np.round(a, d, a)"}
DTYPES = ("float32", "float64", "complex64", "complex128", "int8", "uint8", "int64")
TIES = st.sampled_from([0.35, 1.45, 2.5, -0.25, 0.125, -1e38, 3.4e38, 65504.0, 1e-40, 0.0, -0.0, float("nan"),
                        float("inf")])  # halves to even after the product, overflow, tiny, signed zeros


def _same(got, expected, context):
    """The same dtype, shape and bits, NaN where NumPy has NaN (float64, int64 and complex128 scalars come back
    as Python numbers)."""
    got_array, expected_array = np.asarray(got), np.asarray(expected)
    assert (got_array.dtype, got_array.shape) == (expected_array.dtype, expected_array.shape), (context, got, expected)
    assert isinstance(got, np.ndarray) == isinstance(expected, np.ndarray), (context, got, expected)
    if got_array.dtype.kind == "c":  # each part (a NaN's sign is arithmetic's, not rounding's)
        got_array, expected_array = (np.stack([x.real, x.imag]) for x in (got_array, expected_array))
    if got_array.dtype.kind == "f":
        nan = np.isnan(expected_array)
        assert np.array_equal(np.isnan(got_array), nan), (context, got, expected)
        got_array, expected_array = got_array[~nan], expected_array[~nan]
    assert got_array.tobytes() == expected_array.tobytes(), (context, got, expected)


def _values(dtype):
    kind = np.dtype(dtype).kind
    if kind == "c":
        part = TIES | st.floats(-1e6, 1e6, width=64 if dtype == "complex128" else 32)
        return st.builds(complex, part, part)
    if kind == "f":
        huge = st.sampled_from([1e300, -1.7e308]) if dtype == "float64" else st.nothing()
        return TIES | huge | st.floats(-1e6, 1e6, width=32 if dtype == "float32" else 64)
    return None


@pytest.mark.parametrize("form", FORMS.values(), ids=FORMS.keys())
@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=12, deadline=None)
@given(d=DIGITS, data=st.data())
def test_round_is_numpys_in_the_dtype(form, dtype, d, data):
    if form.endswith("a, d, a)") and np.dtype(dtype).kind in "iu":
        pytest.skip("an integer `out` is Numba's own round (NumPy refuses a negative d)")
    fn = jitted(f"def f(a, d):\n    return {form}\n")
    values = _values(dtype)
    for ndim in (1, 1, 2):  # first call, guard hit, guard miss (another rank)
        a = data.draw(arrays(dtype, data.draw(shapes(ndim, min_side=1)), values=values))
        with np.errstate(all="ignore"):
            expected = fn.py_func(a.copy(), d)
            got = fn(a.copy(), d)
        _same(got, expected, (form, a, d))


@pytest.mark.parametrize("form", ["round(a[0], d)", "np.round(a[0], d)"])
@settings(max_examples=30, deadline=None)
@given(d=DIGITS, data=st.data())
def test_round_of_narrow_float_elements_is_numpys(form, d, data):
    fn = jitted(f"def f(a, d):\n    return {form}\n")
    for dtype in ("float32", "float32", "float16"):  # first call, guard hit, guard miss (a half)
        half = dtype == "float16"
        a = data.draw(arrays(dtype, (2,), values=TIES.filter(lambda v, half=half: not half or abs(v) < 7e4) |
                             st.floats(-6e4, 6e4, width=16 if half else 32)))
        with np.errstate(all="ignore"):
            expected = fn.py_func(a, d)
            got = fn(a, d)
        _same(got, expected, (form, a, d))


def test_round_of_a_float32_array_rounds_in_float32():
    fn = jitted("def f(a):\n    return np.round(a, 1), np.around(a, 1), a.round(1), np.round(a[0], 1)\n")
    a = np.array([0.35, 1.45], np.float32)
    for got, expected in zip(fn(a), fn.py_func(a), strict=True):
        _same(got, expected, a)
    assert fn(a)[0].tolist() == np.array([0.4, 1.4], np.float32).tolist()


@pytest.mark.parametrize("sizes", [((2, 3), (2, 3)), ((2,), (3,)), ((1, 6), (6, 1)), ((2, 3), (3, 2))])
def test_round_into_out_of_another_shape_is_numpys_error(sizes):
    fn = jitted("def f(a, b):\n    np.round(a, 1, b)\n    return b\n")
    a, b = np.full(sizes[0], 0.35, np.float32), np.zeros(sizes[1], np.float32)
    try:
        expected = fn.py_func(a, b.copy())
    except ValueError as exc:
        with pytest.raises(ValueError) as info:
            fn(a, b.copy())
        assert str(info.value) == str(exc)
        return
    _same(fn(a, b.copy()), expected, sizes)


@pytest.mark.parametrize("d", [1, -2])
def test_round_of_a_bool_array_is_numpys(d):
    rint = jitted("def f(a):\n    return np.round(a), np.around(a)\n")
    refused = jitted(f"def f(a):\n    return np.round(a, {d})\n")
    for a in (np.array([True, False]), np.array([False]), np.array([[True], [False]])):  # hit, miss
        for got, expected in zip(rint(a), rint.py_func(a), strict=True):
            _same(got, expected, a)
        with pytest.raises(TypeError) as expected_info:
            refused.py_func(a)
        with pytest.raises(TypeError) as info:
            refused(a)
        assert str(info.value) == str(expected_info.value)
