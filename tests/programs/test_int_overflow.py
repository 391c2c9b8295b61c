"""Python ints do not overflow; compiled, an operation of Python ints whose true result does not fit in int64
raises OverflowError (issue 10 §2, lower/overflow.py): never a wrapped-around number. NumPy integers keep
NumPy's wrap-around; `overflow="wrap"` restores Numba's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil

INT64 = st.integers(-(2**63), 2**63 - 1) | st.sampled_from([0, 1, -1, 2, 3, 2**31, 2**32, 2**62, -(2**62),
                                                            2**63 - 1, -(2**63), 3037000499, 3037000500])


def arithmetic(a, b):
    return a + b, a - b, a * b, -a, a * 3 - b


def factorial(n):
    r = 1
    for i in range(2, n + 1):
        r *= i
    return r


def recursive_factorial(n):
    if n <= 1:
        return 1
    return n * recursive_factorial(n - 1)


def through_a_helper(n, k):
    return recursive_factorial(n) * k


def fibonacci(n):
    if n < 2:
        return n
    return fibonacci(n - 1) + fibonacci(n - 2) * 1


def scaled(out, k, c):
    for i in range(len(out)):
        out[i] = i * k + c
    return out


def numpy_ints(a, b):
    return np.int64(a) * np.int64(b)  # NumPy's int64 wraps around (with a RuntimeWarning in NumPy)


def _fits(v: int) -> bool:
    return -(2**63) <= v < 2**63


def _same_or_overflow(fn, *args):
    """Equal to CPython where CPython's answer fits in int64, OverflowError otherwise; three calls."""
    expected = fn.py_func(*args)
    values = expected if isinstance(expected, tuple) else (expected,)
    for _ in range(3):
        if all(_fits(v) for v in values):
            got = fn(*args)
            assert got == expected and type(got) is type(expected)
        else:
            with pytest.raises(OverflowError, match="int64 overflow"):
                fn(*args)


ARITHMETIC = cuvil.jit(arithmetic)
FACTORIAL = cuvil.jit(factorial)
RECURSIVE = {f: cuvil.jit(f) for f in (recursive_factorial, through_a_helper, fibonacci)}


@settings(max_examples=30)
@given(n=st.integers(-2, 30), k=st.sampled_from([1, -1, 3, 2**40]))
def test_a_recursive_function_checks_the_product_of_its_own_result(n, k):
    """`n * fact(n - 1)`: the recursive call's type is the base case's (lower/program._types, a fixed point),
    so the product is a Python-int operation like any other (it wrapped: fact(25) = 7034535277573963776)."""
    _same_or_overflow(RECURSIVE[recursive_factorial], n)
    _same_or_overflow(RECURSIVE[through_a_helper], n, k)
    if n <= 20:
        _same_or_overflow(RECURSIVE[fibonacci], n)


@settings(max_examples=200)
@given(a=INT64, b=INT64)
def test_int64_arithmetic_is_pythons_or_overflow_error(a, b):
    _same_or_overflow(ARITHMETIC, a, b)


@pytest.mark.parametrize("n", [0, 1, 5, 20, 21, 25, 100])
def test_factorial(n):
    _same_or_overflow(FACTORIAL, n)


@pytest.mark.filterwarnings("error::numba.core.errors.NumbaPerformanceWarning")  # Numba runs it in parallel
@settings(max_examples=40)
@given(k=INT64, c=INT64, size=st.integers(0, 50))
def test_parallel_loop_raises_overflow(k, c, size):
    jitted = cuvil.jit(scaled, parallel=True)
    expected = [i * k + c for i in range(size)]
    if all(_fits(i * k) and _fits(i * k + c) for i in range(size)):  # Python ints: each result of + - * fits
        np.testing.assert_array_equal(jitted(np.zeros(size, np.int64), k, c), np.array(expected, np.int64))
    else:
        with pytest.raises(OverflowError, match="int64 overflow"):
            jitted(np.zeros(size, np.int64), k, c)
    assert "parallel" in cuvil.explain(jitted).loops[0][0]


def test_numpy_integers_wrap_and_wrap_option_is_numbas():
    with np.errstate(over="ignore"):
        expected = numpy_ints(2**62, 6)
    got = cuvil.jit(numpy_ints)(2**62, 6)
    assert got == expected == np.int64(-(2**63))  # its type: a Python int today (a returned np.int64 is not kept)
    wrapped = cuvil.jit(factorial, overflow="wrap")
    assert wrapped(25) == 7034535277573963776  # 25! mod 2**64, as a signed int64: Numba's answer
    with pytest.raises(OverflowError):
        FACTORIAL(25)
    with pytest.raises(ValueError, match="overflow must be"):
        cuvil.jit(factorial, overflow="saturate")
