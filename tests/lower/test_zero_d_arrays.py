"""0-d arrays in expressions are NumPy scalars to NumPy: `a // b` on 0-d integer arrays is 0 where b is 0 (no
ZeroDivisionError), `int8 + int8` wraps in int8, and a 0-d operand broadcasts against any array. Found by a
random-expression hunt: `a1 % a0` with a 0-d `a0` was an internal error, `1 // (a ^ a)` raised
ZeroDivisionError."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import assert_like_numpy, elements, jitted

OPERATORS = ["+", "//", "%", "**", "^", "<"]  # wrap-around, division by zero, power, bits, comparison
DTYPES = ["int8", "uint8", "int64", "float32", "bool"]
OTHER = {"int8": "int64", "uint8": "int8", "int64": "int32", "float32": "float64", "bool": "bool"}


@pytest.mark.parametrize("op", OPERATORS)
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_operations_on_zero_d_arrays_are_numpy_scalar_operations(op, data):
    dtype = data.draw(st.sampled_from([d for d in DTYPES if not (
        (d == "bool" and op in ("//", "%", "**")) or (d == "float32" and op == "^"))]))
    f = jitted(f"def f(a, b):\n    return (a {op} b) {op} b\n")
    g = jitted(f"def g(a, x):\n    return x {op} a\n")
    value = elements(dtype, bound=100) if op == "**" else elements(dtype)
    a = np.array(data.draw(value), dtype)
    b = np.array(data.draw(value | st.sampled_from([0])), dtype)
    x = np.array(data.draw(st.lists(value, min_size=0, max_size=4)), dtype)
    for args in ((a, b), (b, a), (a, b.astype(OTHER[dtype]))):  # first call, guard hit, guard miss
        assert_like_numpy(f, *args)
    for args in ((a, x), (b, x), (a, x.reshape(-1, 1))):
        assert_like_numpy(g, *args)


def test_zero_d_operand_of_a_ufunc_and_in_a_loop():
    f = jitted("""
def f(a, x):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = x[i] // a + np.sqrt(a)
    return out, np.maximum(a, 1) // a
""")
    for a in (np.array(0, np.int16), np.array(3, np.int16), np.array(0, np.int64)):
        assert_like_numpy(f, a, np.arange(5, dtype=np.int16))


def test_a_zero_d_array_itself_is_returned_and_updated_in_place():
    f = jitted("""
def f(a, b):
    a += b
    return a, a + b
""")
    a, b = np.array(7, np.int8), np.array(120, np.int8)
    got = f(a.copy(), b)
    want = f.py_func(a.copy(), b)
    assert type(got[0]) is np.ndarray and got[0].shape == () and got[0].dtype == np.int8
    assert got[0] == want[0] and type(got[1]) is type(want[1]) is np.int8 and got[1] == want[1]
