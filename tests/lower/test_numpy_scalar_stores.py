"""A NumPy scalar stored into a signed integer array is NumPy's setitem: it becomes a Python int (a float
truncated; NaN a ValueError, an infinity an OverflowError), which must fit a C long and then the dtype
("Python integer 300 out of bounds for int8"), where Numba wrapped it: `out[i] = x[i] * 2` of int64 into int8
stored -56 for 200. Through a mask or an index array NumPy casts it instead, wrapping, and so do unsigned
arrays, in NumPy as in Numba (lower/python_ints.numpy_fit, runtime/elementwise.numpy_int_as). A float stored
into an unsigned array is a C cast in NumPy, undefined for a negative or too large value (NumPy warns "invalid
value encountered in cast" and gives what its machine code gives): not compared here."""

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
    "row": "def f(a, x):\n    for i in range(len(x)):\n        a[i, 0] = x[i]\n    return a\n",
    "slice": "def f(a, x):\n    a[0:2] = x[0]\n    return a\n",
    "mask": "def f(a, x):\n    a[a == 0] = x[0]\n    return a\n",  # NumPy casts, wrapping: no check
}
TARGETS = ("int8", "int16", "int32", "int64", "uint8", "uint64")
SOURCES = ("int8", "uint8", "int32", "int64", "uint64", "float32", "float64")
PAIRS = [(t, s) for t in TARGETS for s in SOURCES if not (t.startswith("u") and s.startswith("float"))]
KNOWN = [("uint64", "int64")]  # `a[i] += x[i]` beyond 2**53: test_an_update_of_uint64_by_int64_computes_in_float64


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=8, deadline=None)
@given(pair=st.sampled_from(PAIRS), data=st.data())
def test_a_numpy_scalar_stored_is_numpys(form, pair, data):
    fn = jitted(FORMS[form])
    target, source = pair
    if form == "update" and pair in KNOWN:  # a known wrong answer, pinned by its own strict xfail below
        return
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


@pytest.mark.xfail(strict=True, reason="known wrong answer, not fixed yet: `a[i] += x[i]` of a uint64 element and "
                   "an int64 one stays in integers (2**53 + 1 kept) where NumPy computes in float64 (2**53); "
                   "computing in float64 makes a negative sum's store into uint64 Numba's fptoui, not NumPy's C "
                   "cast, so the fix needs NumPy's float-to-unsigned store as well")
def test_an_update_of_uint64_by_int64_computes_in_float64():
    """Hypothesis found it in CI (test_a_numpy_scalar_stored_is_numpys[update], pair uint64/int64)."""
    fn = jitted(FORMS["update"])
    for n in (1, 1, 2):
        assert_like_numpy(fn, np.zeros(n, "uint64"), np.full(n, np.int64(2**53 + 1)))


@pytest.mark.parametrize(("target", "value"), [
    ("int64", np.uint64(2**53 + 1)), ("uint64", np.int8(-1)), ("int8", np.uint64(2**53 + 1))])
@pytest.mark.parametrize("form", ["update", "element"])
def test_an_update_computes_in_numpys_dtype(target, value, form):
    """The neighbours of the case above that already give NumPy's answer."""
    fn = jitted(FORMS[form])
    for n in (1, 1, 2):
        with np.errstate(all="ignore"):
            assert_like_numpy(fn, np.zeros(n, target), np.full(n, value))
