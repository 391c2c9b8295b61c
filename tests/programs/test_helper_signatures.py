"""A helper called with several argument types is one copy per signature in the generated module
(lower/signatures.py), each typed, lowered and checked with its own types: an int square checks overflow, a float
one does not (it was refused when one function served both). A recursive helper stays one function, checked under
every signature and refused where the checks differ (the last test)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def element(a, i):
    return a[i]


def two_arrays(a, b, i):
    return element(a, i) + element(b, i)


def square(x):
    return x * x


def int_and_float(k, f):
    return square(k) + square(f)


TWO = cuvil.jit(two_arrays)


@settings(max_examples=40)
@given(n=st.integers(1, 6), i=st.integers(-9, 9))
def test_a_helper_read_with_two_array_types_is_bounds_checked(n, i):
    a, b = np.arange(n, dtype=np.float64), np.arange(n, dtype=np.int64) * 3
    for args in ((a, b, i), (a, b, i), (a[::-1].copy(), b.astype(np.int32), i)):  # first, guard hit, miss
        if -n <= i < n:
            got, expected = TWO(*args), two_arrays(*args)
            assert got == expected and np.asarray(got).dtype == np.float64
        else:
            with pytest.raises(IndexError, match=f"index {i} is out of bounds for axis 0 with size {n}"):
                TWO(*args)


@pytest.mark.parametrize(("k", "f"), [(3, 2.5), (3, 2.5), (2**32, 2.5), (-7, 1e200), (True, 0.5)])
def test_a_helper_whose_checks_differ_between_types_is_checked_per_type(k, f):
    """First call, guard hit, then an int square beyond int64 (OverflowError, where Python gives a wider int),
    a float square that overflows to inf (no error: Python floats' `*` gives inf too), a bool."""
    fn = cuvil.jit(int_and_float)
    if abs(k) >= 2**32:
        with pytest.raises(OverflowError):
            fn(k, f)
        return
    got, expected = fn(k, f), int_and_float(k, f)
    assert got == expected and type(got) is type(expected)
    assert [c.reason for c in cuvil.explain(fn).compiles][0] == "first call"


def test_wrap_around_still_applies_to_each_copy():
    assert cuvil.jit(int_and_float, overflow="wrap")(3, 2.5) == int_and_float(3, 2.5) == 15.25
    assert cuvil.jit(int_and_float, overflow="wrap")(2**32, 2.5) == 6.25  # (2**32) ** 2 wraps to 0 in int64


def fact(n):
    if n <= 1:
        return n
    return n * fact(n - 1)


def two_facts(k, x):
    return fact(k) + fact(x)


def test_a_recursive_helper_whose_checks_differ_between_types_is_refused_at_its_line():
    """A recursive helper is not copied (each copy's own recursive call would need one): one function, refused
    where its checks differ between the signatures, never run unchecked."""
    with pytest.raises(cuvil.CuvilTypeError, match="'fact' is called with several argument types that need "
                                                   "different Python-int checks") as info:
        cuvil.jit(two_facts)(5, 3.5)
    assert info.value.lineno == fact.__code__.co_firstlineno + 1
    assert cuvil.jit(two_facts, overflow="wrap")(5, 3.5) == two_facts(5, 3.5)
