"""Array elements are NumPy scalars in CPython: `/`, `//`, `%` and `**` on them follow NumPy (inf, nan, 0, no
ZeroDivisionError), while Python numbers keep CPython's exceptions. Compiled code gives what CPython gives."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

OPERATORS = ["/", "//", "%", "**"]
_JITTED: dict[str, object] = {}


def element_op(op: str):
    if op not in _JITTED:
        fn = define(f"""
            def f(x, d):
                out = np.empty_like(x)
                for i in range(len(x)):
                    out[i] = x[i] {op} d
                return out
            """, env={"np": np})
        _JITTED[op] = (fn, cuvil.jit(fn))
    return _JITTED[op]


@pytest.mark.parametrize("op", OPERATORS)
@settings(max_examples=25, deadline=None)
@given(values=st.lists(st.sampled_from([0.0, -0.0, 1.5, -2.0, 3.0, np.inf, -np.inf, np.nan]), min_size=1,
                       max_size=6),
       d=st.sampled_from([0.0, -0.0, 2.0, -1.5, 0.5, np.inf]))
def test_numpy_scalar_with_a_python_float_follows_numpy(op, values, d):
    fn, jitted = element_op(op)
    x = np.array(values)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = fn(x.copy(), d)
    got = jitted(x.copy(), d)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_python_numbers_keep_pythons_zero_division():
    fn = define("""
        def f(a, b):
            return a / b, a // b
        """)
    jitted = cuvil.jit(fn)
    with pytest.raises(ZeroDivisionError):
        jitted(3, 0)
    with pytest.raises(ZeroDivisionError):
        jitted(3.0, 0.0)
    assert jitted(7, 2) == fn(7, 2)


def test_integer_elements_divided_by_zero_give_numpys_zero():
    fn = define("""
        def f(x, d):
            out = np.empty_like(x)
            for i in range(len(x)):
                out[i] = x[i] // d + x[i] % d
            return out
        """, env={"np": np})
    x = np.array([5, -3, 0], dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = fn(x, np.int64(0))
    np.testing.assert_array_equal(cuvil.jit(fn)(x, np.int64(0)), expected)
