"""`np.var(a, ddof=k)`, `np.std`, `a.var(ddof=k)`, `a.std(ddof=k)` of a whole array are NumPy's: the squared
deviations from the mean summed and divided by max(size - ddof, 0) (inf or nan where that is 0, nan for an
empty array), in NumPy's dtype (a complex array's var is real). Numba's take no ddof and refused them in its
words ("got an unexpected keyword argument 'ddof'"); runtime/statistics.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted, shapes

FORMS = ["np.var(a, ddof=k)", "np.std(a, ddof=k)", "a.var(ddof=k)", "a.std(ddof=k)"]
DTYPES = ["float32", "float64", "int8", "uint8", "int64", "complex64", "complex128"]


def _values(dtype):
    if np.dtype(dtype).kind == "c":
        part = st.floats(-100, 100, width=32)
        return st.builds(complex, part, part)
    return None


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=15, deadline=None)
@given(dtype=st.sampled_from(DTYPES), other=st.sampled_from(DTYPES), k=st.sampled_from([0, 1, 2, 3, 0.5]),
       data=st.data())
def test_var_and_std_with_ddof_are_numpys(form, dtype, other, k, data):
    fn = jitted(f"def f(a, k):\n    return {form}\n")
    for kind, ndim in ((dtype, 1), (dtype, 1), (other, 2)):  # first call, guard hit, guard miss
        a = data.draw(arrays(kind, data.draw(shapes(ndim)), special=False, values=_values(kind)))
        if np.dtype(kind).kind not in "c":
            a = np.clip(a, -100, 100).astype(kind)
        assert_like_numpy(fn, a, k, reduced=np.abs(a.astype(np.complex128)) ** 2 + 1)


def test_var_of_complex_is_real():
    fn = jitted("def f(a):\n    return np.var(a), np.std(a, ddof=1), a.var(ddof=1)\n")
    a = np.array([1 + 2j, 3 - 1j, 0.5j], np.complex64)
    for got, expected in zip(fn(a), fn.py_func(a), strict=True):
        assert np.asarray(got).dtype == np.asarray(expected).dtype == np.float32
        assert np.isclose(got, expected, rtol=1e-6)
