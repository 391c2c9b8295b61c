"""A ufunc called by name on dtypes NumPy has no loop for raises NumPy's TypeError, as the operator does:
`np.negative(bool_array)`, `np.subtract(b, b)`, `np.sign(bool_array)`, `np.invert(float_array)`. Compiled code
returned int8 results (Numba's loops), found by a random-expression hunt; empty arrays raise too (NumPy refuses
by dtype, before looking at the elements)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, jitted, outcome

UFUNCS = ["negative", "sign", "positive", "invert", "sqrt", "subtract", "bitwise_xor", "logical_and"]
DTYPES = ["bool", "int8", "float32"]


@pytest.mark.parametrize("ufunc", UFUNCS)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_ufunc_call_refused_or_computed_as_numpy(ufunc, data):
    nin = getattr(np, ufunc).nin
    f = jitted(f"def f(a, b):\n    return np.{ufunc}({'a, b' if nin == 2 else 'a'})\n")
    dtype = data.draw(st.sampled_from(DTYPES))
    size = data.draw(st.integers(0, 3))
    a = data.draw(arrays(dtype, (size,)))
    for args in ((a, a[::-1]), (a[:1], a[:1]), (a.astype(np.float64), a.astype(np.float64))):  # hit, miss
        expected, got = outcome(f.py_func, *args), outcome(f, *args)
        if expected[0] == "raise":
            assert got[0] == "raise" and issubclass(expected[1][0], got[1][0]) and got[1][0] is TypeError, got
            assert got[1][1] == expected[1][1]
        else:
            assert got[0] == "value", got
            e, g = expected[1], got[1]
            assert type(g) is np.ndarray and g.dtype == e.dtype and g.shape == e.shape
            np.testing.assert_array_equal(g, e)
