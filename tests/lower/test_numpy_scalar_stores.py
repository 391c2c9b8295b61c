"""A NumPy scalar stored into a signed integer array is NumPy's setitem: it becomes a Python int (a float
truncated; NaN a ValueError, an infinity an OverflowError), which must fit a C long and then the dtype
("Python integer 300 out of bounds for int8"), where Numba wrapped it: `out[i] = x[i] * 2` of int64 into int8
stored -56 for 200. Through a mask or an index array NumPy casts it instead, wrapping, and so do unsigned
arrays, in NumPy as in Numba (lower/python_ints.numpy_fit, runtime/elementwise.numpy_int_as). A NumPy float
stored into an unsigned array is a C cast in NumPy, undefined in C for a negative or too large value (NumPy
warns "invalid value encountered in cast" and gives what its machine code gives: x86 wraps a negative value
into uint32 and uint64, where Numba's AVX-512 conversion saturates); an element store follows NumPy's
(runtime/elementwise.float_as_unsigned). A whole array's cast is left to Numba's: NumPy's own answer there
depends on the array's length (its SIMD loop converts differently from its scalar one)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted

FORMS = {
    "element": "def f(a, x):\n    for i in range(len(x)):\n        a[i] = x[i]\n    return a\n",
    "product": "def f(a, x):\n    for i in range(len(x)):\n        a[i] = x[i] * 2\n    return a\n",
    "update": "def f(a, x):\n    for i in range(len(x)):\n        a[i] += x[i]\n    return a\n",
    # uint64 | int64 (and any float): NumPy has no loop, a TypeError
    "bitwise": "def f(a, x):\n    for i in range(len(x)):\n        a[i] |= x[i]\n    return a\n",
    "row": "def f(a, x):\n    for i in range(len(x)):\n        a[i, 0] = x[i]\n    return a\n",
    "slice": "def f(a, x):\n    a[0:2] = x[0]\n    return a\n",
    "mask": "def f(a, x):\n    a[a == 0] = x[0]\n    return a\n",  # NumPy casts, wrapping: no check
}
TARGETS = ("int8", "int16", "int32", "int64", "uint8", "uint32", "uint64")
SOURCES = ("int8", "uint8", "int32", "int64", "uint64", "float32", "float64")
PAIRS = [(t, s) for t in TARGETS for s in SOURCES]


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=8, deadline=None)
@given(pair=st.sampled_from(PAIRS), data=st.data())
def test_a_numpy_scalar_stored_is_numpys(form, pair, data):
    fn = jitted(FORMS[form])
    target, source = pair
    for n in (3, 3, 4):  # first call, guard hit, guard miss
        x = data.draw(arrays(source, (n,)))
        a = np.zeros((n, 2) if form == "row" else (n,), target)
        with np.errstate(all="ignore"):
            assert_like_numpy(fn, a, x)


@pytest.mark.parametrize(("target", "value"), [
    ("int8", np.int64(300)), ("int8", np.int64(-129)), ("int32", np.int64(2**40)), ("int64", np.uint64(2**63)),
    ("int8", np.uint64(2**64 - 1)), ("int16", np.float32(np.nan)), ("int64", np.float64(-np.inf)),
    ("int8", np.float64(127.9)), ("uint8", np.int64(-1)), ("uint8", np.int64(300)), ("int8", np.uint8(200))])
def test_the_values_at_each_limit(target, value):
    """Each of NumPy's three refusals and the stores it takes, one value each (the draws above are random)."""
    fn = jitted(FORMS["element"])
    for n in (1, 1, 2):
        assert_like_numpy(fn, np.zeros(n, target), np.full(n, value))


EDGES = {  # per source dtype, values an unsigned store may not hold, in one array (one compile per pair)
    "int64": [2**53 + 1, -5, 2**63 - 1, -2**63, 300], "int8": [-2, -128, 127],
    "float64": [-2.0, 2.0**63 + 4096, np.nan, np.inf, -2.0**31, 2.0**31, 4294967296.5],
    "float32": [-3e9, 3e9, -1.5, 1e20], "float16": [-2.0, 1000.0, -65504.0, np.nan]}


@pytest.mark.parametrize("source", EDGES)
@pytest.mark.parametrize("target", ["uint64", "uint32", "uint16", "uint8"])
@pytest.mark.parametrize("form", ["update", "product"])
def test_an_unsigned_element_updated_by_a_signed_one_is_numpys(form, target, source):
    """`a[i] += x[i]`, uint64 and int64 (hypothesis found it in CI): NumPy computes in float64 (2**53 + 1 becomes
    2**53) and stores the float by its C cast (-5.0 wraps to 2**64 - 5 on x86; what int32 cannot hold is 0 in
    uint8 and uint16), where Numba kept integers and saturated (2**64 - 1, 255)."""
    fn = jitted(FORMS[form])
    x = np.array(EDGES[source], source)
    for n in (len(x), len(x), len(x) - 1):  # first call, guard hit, guard miss
        with np.errstate(all="ignore"):
            assert_like_numpy(fn, np.zeros(n, target), x[:n])


@pytest.mark.parametrize(("target", "value"), [
    ("int64", np.uint64(2**53 + 1)), ("uint64", np.int8(-1)), ("int8", np.uint64(2**53 + 1))])
@pytest.mark.parametrize("form", ["update", "element"])
def test_an_update_computes_in_numpys_dtype(target, value, form):
    """The neighbours of the case above that already give NumPy's answer."""
    fn = jitted(FORMS[form])
    for n in (1, 1, 2):
        with np.errstate(all="ignore"):
            assert_like_numpy(fn, np.zeros(n, target), np.full(n, value))
