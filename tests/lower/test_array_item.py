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
