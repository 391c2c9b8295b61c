"""`np.dot`, `a.dot(b)` and `a @ b` of integer and bool arrays: Numba's are BLAS only and refused
them in their own words. runtime/products.py loops in NumPy's result dtype (wrap-around as NumPy's), a bool
product is true where any pair is, and operands that do not align raise NumPy's ValueError, word for word."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import jitted

FORMS = ["np.dot(a, b)", "a.dot(b)", "a @ b"]  # np.matmul by name is refused with Cuvil's words (no Numba one)
DTYPES = ["bool", "int8", "uint8", "int16", "int64", "uint64"]


def _operand(data, dtype, shape, view):
    info = np.iinfo(dtype) if dtype != "bool" else None
    values = st.booleans() if info is None else st.integers(int(info.min), int(info.max))
    size = int(np.prod(shape))
    a = np.array(data.draw(st.lists(values, min_size=size, max_size=size)), dtype).reshape(shape)
    return a[::-1] if view else a  # a reversed view: not contiguous


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=15, deadline=None)
@given(dtypes=st.tuples(st.sampled_from(DTYPES), st.sampled_from(DTYPES)).filter(
           lambda d: np.result_type(*d).kind in "biu"),
       ranks=st.tuples(st.integers(1, 2), st.integers(1, 2)), sizes=st.tuples(*[st.integers(0, 4)] * 4),
       views=st.tuples(st.booleans(), st.booleans()), data=st.data())
def test_integer_products_are_numpys(form, dtypes, ranks, sizes, views, data):
    fn = jitted(f"def f(a, b):\n    return {form}\n")
    m, k, k2, p = sizes
    for rows in (m, m, m + 1):  # first call, guard hit, guard miss
        a = _operand(data, dtypes[0], (rows, k) if ranks[0] == 2 else (k,), views[0])
        b = _operand(data, dtypes[1], (k2, p) if ranks[1] == 2 else (k2,), views[1])
        try:
            expected = fn.py_func(a, b)
        except ValueError as exc:  # not aligned: NumPy's words, found when compiling (static dims) or running
            with pytest.raises(ValueError) as info:
                fn(a, b)
            assert getattr(info.value, "message", str(info.value)) == str(exc)
            continue
        got = fn(a, b)
        assert np.asarray(got).dtype == np.asarray(expected).dtype and np.shape(got) == np.shape(expected)
        assert np.array_equal(got, expected), (a, b, got, expected)
