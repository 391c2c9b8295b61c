"""Python's scalars where Numba would give NumPy's, and Python's types as dtypes (lower/pyscalars.py): `.item()`
of a narrow array is a Python number (88 * 10 is 880, not uint8's 112), `abs(False)` an int, `np.zeros(n, int)`
an int64 array. Each compared with CPython, exact types, on a first call, a guard hit and a guard miss."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil

NARROW = ["uint8", "int8", "int16", "uint16", "int32", "uint32", "float16", "float32", "bool", "complex64"]


def item_times_ten(x):
    return x[:1].item() * 10


def item_alone(x):
    return x[:1].item()


def bool_arithmetic(b):
    return abs(b), -b, +b, ~b, b + b, b * 3, abs(b) * 200, b - True


def builtin_dtypes(n):
    return np.zeros(n, dtype=int), np.zeros(n, bool), np.empty(n, float).shape, np.ones(n, complex), \
        np.full(n, 3, dtype=float), np.zeros(n).astype(int), np.arange(n, dtype=float)


def _same(got, expected):
    assert type(got) is type(expected), (got, expected)
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            _same(g, e)
    elif isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
    else:
        assert got == expected or (got != got and expected != expected)


@pytest.mark.parametrize("dtype", NARROW)
def test_item_of_a_narrow_array_is_a_python_number(dtype):
    times, alone = cuvil.jit(item_times_ten), cuvil.jit(item_alone)
    for values in ([88, 1], [88, 2], [-3, 5, 7]):  # first call, guard hit, guard miss (a new length)
        x = np.array(values).astype(dtype)
        _same(alone(x), item_alone(x))
        _same(times(x), item_times_ten(x))


@settings(max_examples=30)
@given(value=st.integers(0, 255), k=st.integers(-3, 3))
def test_item_arithmetic_follows_python(value, k):
    jitted = cuvil.jit(item_times_ten)
    x = np.array([value, k % 256], np.uint8)
    _same(jitted(x), item_times_ten(x))


@pytest.mark.parametrize("b", [False, True, True, False])
def test_bool_arithmetic_gives_python_ints(b):
    _same(cuvil.jit(bool_arithmetic)(b), bool_arithmetic(b))


@pytest.mark.parametrize("n", [3, 3, 5, 0])
def test_python_types_as_dtypes(n):
    _same(cuvil.jit(builtin_dtypes)(n), builtin_dtypes(n))
