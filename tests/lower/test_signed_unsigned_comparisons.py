"""A signed integer compared with a uint64 compares values, as NumPy does. Their common type is float64, and
Numba compared there: `uint64(2**63) == int64(2**63 - 1)` was True, `<=` and `>` wrong about the same pairs, in
loops over elements, whole-array comparisons and NumPy scalars alike (lower/exact_comparisons.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.lower.compare import jitted

OPERATORS = ("==", "!=", "<", "<=", ">", ">=")
SIGNED = ("int8", "int32", "int64")
EDGES_U = (0, 1, 2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**63 + 1, 2**64 - 1)
EDGES_S = (0, 1, -1, 2**53, 2**53 + 1, 2**63 - 1, -(2**63))


def _loop(op: str, swapped: bool) -> str:
    test = f"u[i] {op} s[i]" if swapped else f"s[i] {op} u[i]"
    return f"""
        def f(s, u):
            out = np.empty(len(s), np.bool_)
            for i in range(len(s)):
                out[i] = {test}
            return out
        """


def _whole(op: str, swapped: bool) -> str:
    return f"def f(s, u):\n    return {'u ' + op + ' s' if swapped else 's ' + op + ' u'}\n"


def _numbers(op: str, swapped: bool) -> str:
    return f"def f(s, u):\n    return {'u[0] ' + op + ' s[0]' if swapped else 's[0] ' + op + ' u[0]'}\n"


@pytest.mark.parametrize("form", [_loop, _whole, _numbers], ids=["loop", "whole", "numbers"])
@pytest.mark.parametrize("op", OPERATORS)
@settings(max_examples=6, deadline=None)
@given(dtype=st.sampled_from(SIGNED), swapped=st.booleans(), data=st.data())
def test_a_signed_integer_against_a_uint64_compares_values(form, op, dtype, swapped, data):
    fn = jitted(form(op, swapped))
    info = np.iinfo(dtype)
    signed_values = st.sampled_from([v for v in EDGES_S if info.min <= v <= info.max]) | \
        st.integers(int(info.min), int(info.max))
    for size in (3, 3, 4):  # first call, guard hit, guard miss
        s = np.array(data.draw(st.lists(signed_values, min_size=size, max_size=size)), dtype)
        u = np.array(data.draw(st.lists(st.sampled_from(EDGES_U) | st.integers(0, 2**64 - 1),
                                        min_size=size, max_size=size)), np.uint64)
        expected, got = fn.py_func(s, u), fn(s, u)
        assert type(got) is type(expected) and np.shape(got) == np.shape(expected)
        assert np.array_equal(got, expected), (s, u, got, expected)


@pytest.mark.parametrize("op", OPERATORS)
@given(value=st.sampled_from(EDGES_U) | st.integers(0, 2**64 - 1), number=st.integers(-(2**63), 2**63 - 1))
@example(value=2**63 - 1, number=2**63 - 512)  # equal as float64s; `u == n` in the tuple was True
@settings(max_examples=10, deadline=None)
def test_a_python_int_against_a_uint64_compares_values(op, value, number):
    """NumPy compares a Python int with a uint64 by value (NEP 50: no conversion to the array's type first)."""
    fn = jitted(f"def f(u, n):\n    return u[0] {op} n, n {op} u[0], u {op} n\n")
    u = np.array([value], np.uint64)
    expected, got = fn.py_func(u, number), fn(u, number)
    assert [type(g) for g in got] == [type(e) for e in expected]
    assert [np.asarray(g).tolist() for g in got] == [np.asarray(e).tolist() for e in expected], (value, number)


def _int64_array(value: int) -> np.ndarray:
    return np.full(1, value, np.int64)  # broadcast against u


@pytest.mark.parametrize("number", [int, np.int64, _int64_array], ids=["python", "int64", "array"])
@pytest.mark.parametrize("op", OPERATORS)
def test_an_array_the_plan_leaves_whole_against_a_number_compares_values(op, number):
    """The pairs a float64 comparison gets wrong, every time: the draws above find them rarely."""
    fn = jitted(f"def f(u, n):\n    return u[0] {op} n, u {op} n, n {op} u\n")  # left whole after a check
    u = np.array([2**63, 2**63 - 1, 2**64 - 1, 2**53], np.uint64)
    for n, value in ((4, 2**63 - 1), (4, 2**53 + 1), (3, 2**63 - 512)):  # first call, guard hit, guard miss
        expected, got = fn.py_func(u[:n], number(value)), fn(u[:n], number(value))
        for e, g in zip(expected, got, strict=True):
            assert type(g) is type(e) and np.asarray(g).dtype == np.asarray(e).dtype, (value, g, e)
            assert np.array_equal(g, e), (value, g, e)
