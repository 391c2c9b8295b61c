"""`round()` of an integer is exact: Numba rounded it as a float64, so `round(2**53 + 1)` lost its last bit,
`round(np.uint64(2**63 - 1))` gave -2**63, `round(15, -1)` was the float 20.0 and `round(np.int8(125), -1)` a
float32. A Python int rounds half to even at 10**-n into an int (CPython; beyond int64: Cuvil's OverflowError);
a NumPy integer rounds as NumPy's `round` does, in its dtype (lower/builtin_calls.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import jitted

INT64 = st.integers(-(2**63), 2**63 - 1)
EDGES = st.sampled_from([0, 5, 15, 25, -25, 2**53 + 1, 2**62 + 1, 2**63 - 1, -(2**63), 9223372036854775805,
                         5 * 10**18, 5 * 10**18 + 1, -5 * 10**18 - 1, 9 * 10**18 + 5 * 10**17])
DIGITS = st.integers(-20, 3)
NUMPY = ("int8", "uint8", "int16", "int32", "int64", "uint64")


def _same(got, expected):
    assert type(got) is type(expected) and got == expected, (got, expected)


@settings(max_examples=40, deadline=None)
@given(x=INT64 | EDGES, n=DIGITS)
def test_round_of_a_python_int_is_cpythons(x, n):
    fn = jitted("def f(x, n):\n    return round(x), round(x, n)\n")
    expected = fn.py_func(x, n)
    if not (-(2**63) <= x < 2**63 and -(2**63) <= expected[1] < 2**63):  # CPython's int is wider (the argument
        # itself, 9.5e18 of EDGES, or the rounded value): Cuvil raises instead of wrapping
        with pytest.raises(OverflowError):
            fn(x, n)
        return
    got = fn(x, n)
    _same(got[0], expected[0])
    _same(got[1], expected[1])


@pytest.mark.parametrize("dtype", NUMPY)
@settings(max_examples=15, deadline=None)
@given(data=st.data(), n=DIGITS)
def test_round_of_a_numpy_integer_is_numpys(dtype, data, n):
    info = np.iinfo(dtype)
    fn = jitted("def f(a, n):\n    return round(a[0]), np.full(1, round(a[1], n))\n")
    for size in (2, 2, 3):  # first call, guard hit, guard miss
        values = data.draw(st.lists(st.integers(int(info.min), int(info.max)) | st.sampled_from(
            [int(info.min), int(info.max), 0, 5, 15, 125]).filter(lambda v: info.min <= v <= info.max),
            min_size=size, max_size=size))
        a = np.array(values, dtype)
        with np.errstate(all="ignore"):
            expected = fn.py_func(a, n)
        if expected[0] >= 2**63:  # a uint64 beyond int64: CPython's int is wider, Cuvil raises
            with pytest.raises(OverflowError):
                fn(a, n)
            continue
        got = fn(a, n)
        _same(got[0], expected[0])
        assert (got[1].dtype, got[1].tolist()) == (expected[1].dtype, expected[1].tolist()), (values, n)
