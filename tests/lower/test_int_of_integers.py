"""`int(x)` of a NumPy integer is a Python int (Numba's keeps the dtype: `int(a[0])` of int8 came back
np.int8(5)); of a uint64 beyond int64, an OverflowError as every int wider than 64 bits (it wrapped to a
negative int)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
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
    """CPython's `math.floor(np.uint8(200))` is the int 200; Numba's was an np.uint64. A 64-bit one CPython
    floors as a float (`math.floor(np.int64(2**53 + 1))` is 2**53), and near 2**63 that is an int beyond int64:
    Cuvil's OverflowError (integers are 64-bit), where Numba wrapped to -2**63."""
    info = np.iinfo(dtype)
    edges = st.sampled_from([e for e in (int(info.max), int(info.max) - 511, int(info.max) - 512, 2**53 + 1,
                                         int(info.min)) if info.min <= e <= info.max])
    a = np.array([data.draw(edges | st.integers(int(info.min), int(info.max)))], dtype)
    for fn, jitted in ROUNDED.items():
        for arr in (a, a, np.concatenate([a, a])):
            want = fn(arr)
            if not -2**63 <= want < 2**63:
                with pytest.raises(OverflowError):
                    jitted(arr)
                continue
            got = jitted(arr)
            assert type(got) is type(want) is int and got == want, (fn.__name__, arr, got)


def floor_of_number(x):
    return math.floor(x), math.ceil(x)


@settings(max_examples=30)
@given(x=st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([2.0**63, -2.0**63, 2.0**63 - 1024, 1e19]))
def test_floor_and_ceil_of_a_float_are_pythons_or_overflow(x):
    """Numba's math.floor(1e19) wrapped to -2**63; CPython's is an int beyond int64 (Cuvil: OverflowError, as
    for int(1e19)), of inf an OverflowError and of nan a ValueError, in CPython's words."""
    jitted = cuvil.jit(floor_of_number)
    for value in (x, x, np.float32(x) if abs(x) < 3e38 or not math.isfinite(x) else x):
        try:
            want = floor_of_number(value)
        except (OverflowError, ValueError) as exc:
            with pytest.raises(type(exc), match=re.escape(str(exc))):
                jitted(value)
            continue
        if not all(-2**63 <= w < 2**63 for w in want):
            with pytest.raises(OverflowError):
                jitted(value)
            continue
        got = jitted(value)
        assert got == want and all(type(g) is int for g in got), (value, got, want)
