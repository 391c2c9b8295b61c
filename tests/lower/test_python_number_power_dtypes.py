"""`python_number ** numpy_scalar` has NumPy 2's dtype (NEP 50: the Python number is weak): `2 ** np.int16(3)`
is an int16, `2.0 ** np.float32(2)` a float32, `True ** np.uint8(3)` a uint8. Compiled code returned Python's
int and float (Numba's int64 and float64): the operands of NumPy's power were not converted."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import assert_like_numpy, jitted

DTYPES = ["int8", "uint8", "int16", "int32", "uint32", "int64", "float32", "float64"]
BASES = ["2", "True", "2.0", "-3", "0.5"]


@pytest.mark.parametrize("base", BASES)
@settings(max_examples=10, deadline=None)
@given(dtype=st.sampled_from(DTYPES), exponent=st.integers(0, 5), other=st.sampled_from(DTYPES))
def test_python_number_to_a_numpy_scalar_power(base, dtype, exponent, other):
    f = jitted(f"def f(x, i):\n    return {base} ** x[i]\n")
    x = np.array([exponent, exponent + 1], dtype)
    assert_like_numpy(f, x, 0)   # first call
    assert_like_numpy(f, x, 1)   # guard hit
    assert_like_numpy(f, np.array([exponent], other), 0)   # guard miss: another dtype


def test_python_int_too_big_for_the_scalar_dtype_is_numpy_overflow_error():
    f = jitted("def f(x):\n    return 300 ** x[0]\n")
    assert_like_numpy(f, np.array([2], np.uint8))
    assert_like_numpy(f, np.array([2], np.int16))
