"""`ndarray.item()` in compiled code: the element as NumPy gives it, a Python scalar, so what the caller's code
does with it next follows Python's rules (analysis/numpy_rules.py types it; a mutant typing it as nothing
survived every test, found by mutation testing)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches


def first(a):
    return a[:1].item()


def scaled(a, k):
    return a[k:k + 1].item() * 3 + 1


JITTED = {f: cuvil.jit(f) for f in (first, scaled)}
@pytest.mark.parametrize("dtype", ["float64", "int64", "bool", "float32", "int32", "uint8"])
def test_item_is_a_python_scalar(dtype):
    for n in (3, 3, 5):  # a first call, a guard hit, a miss on a new length
        assert_matches(first, {"cuvil": JITTED[first]}, np.arange(n).astype(dtype))


@settings(max_examples=25)
@given(values=st.lists(st.integers(-2**40, 2**40), min_size=1, max_size=6), data=st.data())
def test_arithmetic_on_an_item_follows_python(values, data):
    k = data.draw(st.integers(0, len(values) - 1))
    assert_matches(scaled, {"cuvil": JITTED[scaled]}, np.array(values, dtype=np.int64), k)
    assert_matches(scaled, {"cuvil": JITTED[scaled]}, np.array(values, dtype=np.float64) / 7, k)


@settings(max_examples=15, deadline=None)
@given(dtype=st.sampled_from(["int8", "uint8", "int64", "float32", "float64", "bool", "complex64"]),
       shape=st.sampled_from([(2, 3), (3,), (0, 2), (2, 2, 2)]), transposed=st.booleans(),
       k=st.integers(-10, 10))
def test_item_at_a_flat_index(dtype, shape, transposed, k):
    """`a.item(k)` is the element at flat index k in C order (of a view too), a Python number; outside
    -size .. size - 1 NumPy's IndexError "index k is out of bounds for size n". Numba's item takes no index
    (a CuvilTypeError "Invalid use of BoundFunction(array.item …)")."""
    from tests.lower.compare import assert_like_numpy, jitted

    fn = jitted("def f(a, k):\n    return a.item(k), a.item(k) * 2\n")
    a = (np.arange(int(np.prod(shape))).reshape(shape) % 5).astype(dtype)
    for array in (a, a, a[::-1]):  # first call, guard hit, guard miss on the layout
        assert_like_numpy(fn, array.T if transposed else array, k)
