"""`np.clip` is NumPy's three-input ufunc: its result dtype promotes the array with both bounds (NEP 50).
`np.clip(int32_array, 0.0, 2.5)` is float64 [1.0, 2.5]; Cuvil gave int32 [1, 2] (Numba clips in the array's
dtype), and `np.clip(bool_array, 0, 1)` gave bools. Found by a scan of NumPy calls against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted

FORMS = ["np.clip(x, lo, hi)", "x.clip(lo, hi)", "np.clip(x, lo, hi) * 2"]
DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float32", "float64"]
BOUNDS = [lambda v: int(v), lambda v: float(v) + 0.5, np.int8, np.int32, np.float32, np.float64]


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_clip_in_numpys_dtype(form, data):
    f = jitted(f"def f(x, lo, hi):\n    return {form}\n")
    first, other = data.draw(st.sampled_from(DTYPES)), data.draw(st.sampled_from(DTYPES))
    kind = data.draw(st.sampled_from(BOUNDS))
    for dtype in (first, first, other):  # first call, guard hit, guard miss
        size = data.draw(st.integers(0, 5))
        values = st.booleans() if dtype == "bool" else st.integers(0, 100)
        x = data.draw(arrays(dtype, (size,), values=values))
        lo, hi = sorted(data.draw(st.integers(0, 60)) for _ in range(2))
        assert_like_numpy(f, x, kind(lo), kind(hi))


FLOAT_BOUNDS = st.sampled_from([np.nan, -np.inf, np.inf, -1.5, 0.0, -0.0, 2.0])


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=10, deadline=None)
@given(dtype=st.sampled_from(["float32", "float64", "int32"]), lo=FLOAT_BOUNDS, hi=FLOAT_BOUNDS,
       bound=st.sampled_from([float, np.float32, "array"]), data=st.data())
def test_clip_with_nan_bounds_and_elements_is_numpys(form, dtype, lo, hi, bound, data):
    """A NaN bound makes every element NaN, a NaN element stays NaN, lo > hi gives hi: NumPy's clip is
    minimum(maximum(a, lo), hi). Numba's ignored a NaN bound ([1, 3, nan] for np.clip(a, 1, nan))."""
    f = jitted(f"def f(x, lo, hi):\n    return {form}\n")
    for size in (3, 3, 5):  # first call, guard hit, guard miss
        values = st.floats(-3, 3) | st.just(np.nan) if dtype != "int32" else st.integers(-3, 3)
        x = np.array(data.draw(st.lists(values, min_size=size, max_size=size))).astype(dtype)
        bounds = [np.full(size, b) if bound == "array" else bound(b) for b in (lo, hi)]
        assert_like_numpy(f, x, *bounds)


@pytest.mark.parametrize("form", [*FORMS, "np.clip(x, a_min=lo, a_max=hi)", "np.clip(x, lo, None)",
                                  "x.clip(None, hi)"])
@settings(max_examples=8, deadline=None)
@given(dtype=st.sampled_from(["int8", "uint8", "int16", "uint64"]), data=st.data())
def test_python_int_bounds_beyond_the_dtype(form, dtype, data):
    """NumPy 2 drops a Python int bound beyond the dtype's range on its own side (`np.clip(int8_array, -300,
    300)` clips nothing) and refuses one beyond it on the other (`a.clip(300, 400)`, `np.clip(uint8_array, 0,
    -1)`: OverflowError "Python integer … out of bounds"); Cuvil wrapped it (300 as 44) and clipped with that."""
    f = jitted(f"def f(x, lo, hi):\n    return {form}\n")
    edge = st.sampled_from([-2**40, -300, -129, -1, 0, 5, 127, 128, 255, 256, 300, 2**40])
    for size in (0, 3, 3):  # first call, guard hit, guard hit
        x = data.draw(arrays(dtype, (size,), special=False))
        assert_like_numpy(f, x, data.draw(edge, label="lo"), data.draw(edge, label="hi"))


SCALAR_FORMS = {
    "sum in a loop": "def f(x, lo, hi):\n    s = x[0] * 0\n    for i in range(x.shape[0]):\n"
                     "        s += np.clip(x[i], lo, hi)\n    return s\n",
    "store in a loop": "def f(x, lo, hi):\n    for i in range(x.shape[0]):\n        x[i] = np.clip(x[i] * 2, lo, hi)\n"
                       "    return x\n",
    "one bound": "def f(x, lo, hi):\n    return np.clip(x[0], None, hi), np.clip(x[1], lo, None)\n",
}
SCALAR_BOUNDS = st.sampled_from([0, 2, -300, 300, 2**40, 1.5, np.nan, np.float32(0.5), np.int16(3), np.int8(-1)])


@pytest.mark.parametrize("form", SCALAR_FORMS)
@settings(max_examples=10, deadline=None)
@given(dtype=st.sampled_from(["int8", "uint8", "int64", "float32", "float64"]), data=st.data())
def test_clip_of_an_element_is_numpys(form, dtype, data):
    """`np.clip(x[i], lo, hi)` of a NumPy scalar is NumPy's minimum(maximum(x, lo), hi) in NumPy's dtype, with its
    Python int bounds; Numba has no clip of a scalar (a CuvilTypeError "No implementation of function clip")."""
    f = jitted(SCALAR_FORMS[form])
    for _ in range(3):  # first call, then hits or misses as the bounds' types fall
        x = data.draw(arrays(dtype, (3,), values=st.integers(0, 100)))
        assert_like_numpy(f, x, data.draw(SCALAR_BOUNDS, label="lo"), data.draw(SCALAR_BOUNDS, label="hi"))
