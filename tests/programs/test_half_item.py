"""`.item()` of a float16 array (or a bfloat16 torch tensor) is a Python float equal to NumPy's (torch's) answer,
where compiled code holds half arrays as their bits (it was refused). First call, guard hit, guard miss."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

ITEM = """
def first(a):
    return a.item()
"""

SCALED = """
def scaled(a, k):
    return a[k:k + 1].item() * 2.0
"""


def _same(got, want):
    assert type(got) is float and type(want) is float
    assert got == want or (math.isnan(got) and math.isnan(want))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**16 - 1))
def test_half_item_is_numpys_python_float(bits):
    fn = cuvil.jit(define(ITEM))
    value = np.array([bits], np.uint16).view(np.float16)
    _same(fn(value), value.item())


def test_half_item_first_call_hit_and_miss():
    fn = cuvil.jit(define(SCALED))
    a = np.array([1.0, 0.3333, 65504.0], np.float16)
    _same(fn(a, 1), a[1:2].item() * 2.0)  # first call
    _same(fn(a, 2), a[2:3].item() * 2.0)  # guard hit
    b = np.array([[0.1, 0.2]], np.float16)[0]  # a guard miss: not contiguous-from-1-D, another layout
    _same(fn(b[::-1], 0), b[::-1][0:1].item() * 2.0)
    assert len(fn.compile_events) == 2


def test_bfloat16_tensor_item_is_torchs_python_float():
    torch = pytest.importorskip("torch")
    fn = cuvil.jit(define(ITEM))
    for value in (1.7, -3.0e38, 2.0**-133):
        t = torch.tensor([value], dtype=torch.bfloat16)
        _same(fn(t), t.item())
    assert len(fn.compile_events) == 1


def test_half_item_of_several_elements_is_a_value_error():
    fn = cuvil.jit(define(ITEM))
    with pytest.raises(ValueError, match="can only convert an array of size 1 to a Python scalar"):
        fn(np.ones(2, np.float16))
