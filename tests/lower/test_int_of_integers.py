"""`int(x)` of a NumPy integer is a Python int (Numba's keeps the dtype: `int(a[0])` of int8 came back
np.int8(5)); of a uint64 beyond int64, an OverflowError as every int wider than 64 bits (it wrapped to a
negative int)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def first(a):
    return int(a[0])


def total(a):
    s = 0
    for v in a:
        s += int(v)
    return s


JITTED = {f: cuvil.jit(f) for f in (first, total)}
DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.bool_]


def _python_or_overflow(fn, a):
    """What Cuvil must give: Python's int, or its OverflowError where that int is wider than 64 bits."""
    value = fn(a)
    return value if -(2**63) <= value < 2**63 else OverflowError


@settings(max_examples=40)
@given(dtype=st.sampled_from(DTYPES), data=st.data())
def test_int_of_an_element_is_pythons_int(dtype, data):
    info = np.iinfo(dtype) if dtype is not np.bool_ else None
    low, high = (int(info.min), int(info.max)) if info else (0, 1)
    values = data.draw(st.lists(st.integers(low, high), min_size=1, max_size=4))
    a = np.array(values, dtype)
    for fn in (first, total):
        for arr in (a, a, np.concatenate([a, a[:1]])):  # first call, hit, miss (another length)
            expected = _python_or_overflow(fn, arr)
            if expected is OverflowError:
                try:
                    JITTED[fn](arr)
                except OverflowError:
                    continue
                raise AssertionError(f"{fn.__name__}({arr!r}) did not raise OverflowError")
            got = JITTED[fn](arr)
            assert type(got) is int and got == expected, (fn.__name__, arr, got)
    assert_matches(first, {"cuvil": JITTED[first]}, np.array([5], dtype))


def floor_of(a):
    return math.floor(a[0])


def ceil_of(a):
    return math.ceil(a[0])


ROUNDED = {f: cuvil.jit(f) for f in (floor_of, ceil_of)}


@settings(max_examples=30)
@given(dtype=st.sampled_from(DTYPES[:-2]), data=st.data())
def test_floor_and_ceil_of_an_integer_element_are_python_ints(dtype, data):
    """CPython's `math.floor(np.uint8(200))` is the int 200; Numba's was an np.uint64."""
    info = np.iinfo(dtype)
    a = np.array([data.draw(st.integers(int(info.min), int(info.max)))], dtype)
    for fn, jitted in ROUNDED.items():
        for arr in (a, a, np.concatenate([a, a])):
            got, want = jitted(arr), fn(arr)
            assert type(got) is type(want) is int and got == want, (fn.__name__, arr, got)
