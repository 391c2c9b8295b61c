"""ForInToIndex on the loops the pass tests elsewhere leave out: the user's own `prange`, and `enumerate` with
its start given by keyword (which compiled to an internal AssertionError before it was read as a start)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.normalize.for_in import ForInToIndex

from ..helpers import define
from .rewrites import assert_rewrites


def test_the_users_prange_becomes_a_range_by_either_spelling():
    assert_rewrites(ForInToIndex, """
        def f(a, n):
            for i in numba.prange(n):
                a[i] = i
            for j in prange(1, n):
                a[j] += 1
        """, """
        def f(a, n):
            for i in range(n):
                a[i] = i
            for j in range(1, n):
                a[j] += 1
        """)


def test_enumerate_with_a_keyword_start_is_a_start():
    assert_rewrites(ForInToIndex, """
        def f(a, n):
            for i, x in enumerate(a, start=n + 1):
                a[i - n - 1] = x * i
        """, """
        def f(a, n):
            _it0 = n + 1
            for _i0 in range(len(a)):
                i = _i0 + _it0
                x = a[_i0]
                a[i - n - 1] = x * i
        """)


_ENUMERATE = define("""
    def weighted(a, k):
        s = 0.0
        for i, x in enumerate(a, start=k):
            s += i * x
        for j, (x, y) in enumerate(zip(a, a[1:]), start=-k):
            s -= j * x * y
        return s
    """)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(-100, 100), max_size=9), st.integers(-5, 5))
def test_enumerate_with_a_keyword_start_compiles_to_what_python_computes(values, k):
    a = np.array(values, dtype=np.float64)
    expected = _ENUMERATE(a, k)
    got = cuvil.jit(_ENUMERATE)(a, k)
    assert type(got) is float
    assert got == expected
