"""`math.*` of a float32 or float16 element computes in double, as CPython does (it converts with float()):
Numba's own float() keeps a float32, so `math.exp(x[0])` was computed in float32 (a neighbour of the half
precision work, issue 12)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

FN = define("""
def f(x):
    return math.exp(x[0]), math.sqrt(x[1]), math.log(x[1]), math.tanh(x[0]), math.atan2(x[0], x[1])
""", env={"math": math})


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@settings(max_examples=15, deadline=None)
@given(st.floats(-5, 5), st.floats(0.01, 100))
def test_math_of_a_narrow_float_element_is_cpythons_double(dtype, a, b):
    fn = cuvil.jit(FN)
    for x in (np.array([a, b], dtype), np.array([b, a + 10], dtype), np.array([a, b, a], dtype)):
        got, want = fn(x), FN(x)
        assert [type(g) for g in got] == [float] * 5
        assert got == want
