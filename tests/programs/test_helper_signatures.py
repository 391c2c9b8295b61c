"""A helper called with several argument types is one function in the generated module, typed by Numba per
signature: the check passes check it under every signature (lower/program.py). Same checks under each: checked
(it read past the end before); checks that differ: refused at the helper's line, never run unchecked."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.errors import CuvilTypeError


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


def test_a_helper_whose_int_checks_differ_between_types_is_refused():
    with pytest.raises(CuvilTypeError, match="'square' is called with several argument types that need different "
                                             "Python-int checks") as info:
        cuvil.jit(int_and_float)(3, 2.5)
    assert info.value.lineno == square.__code__.co_firstlineno + 1


def test_the_refused_helper_runs_with_wrap_around():
    assert cuvil.jit(int_and_float, overflow="wrap")(3, 2.5) == int_and_float(3, 2.5) == 15.25
