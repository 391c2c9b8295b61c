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


SCALARS = [True, False, 3, -2, 2.5, np.bool_(True), np.int8(-3), np.float32(1.5)]


@pytest.mark.parametrize("ufunc", UFUNCS)
def test_ufunc_call_on_python_numbers_is_numpys(ufunc):
    """`np.negative(True)` is NumPy's refusal, not Python's `-True` (it returned int8 -1); on other numbers the
    value and NumPy's scalar type (int64 and float64 come back as Python numbers, as Numba returns them)."""
    nin = getattr(np, ufunc).nin
    f = jitted(f"def f(a, b):\n    return np.{ufunc}({'a, b' if nin == 2 else 'a'})\n")
    python = {np.float64: float, np.int64: int, np.bool_: bool}
    for a, b in zip(SCALARS, SCALARS[1:] + SCALARS[:1]):  # first call, then hits and misses by type
        expected, got = outcome(f.py_func, a, b), outcome(f, a, b)
        if expected[0] == "raise":
            assert got[0] == "raise" and got[1][0] is TypeError and got[1][1] == expected[1][1], (a, b, got)
        else:
            assert got[0] == "value", (a, b, got)
            e, g = expected[1], got[1]
            assert python.get(type(e), type(e)) is python.get(type(g), type(g)), (a, b, e, g)
            assert g == e or (g != g and e != e), (a, b, e, g)  # NaN in the same place
