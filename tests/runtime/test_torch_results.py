"""Results given torch inputs come back as tensors, whatever their strides."""

from __future__ import annotations

import numpy as np
import torch

import cuvil
from tests.helpers import define


def test_a_reversed_view_comes_back_as_a_tensor_copy():
    """torch has no negative strides: a reversed view is returned as a tensor with the same values."""
    fn = define("""
        def f(a):
            return a[::-1]
        """)
    jitted = cuvil.jit(fn)
    for n in (5, 5, 7):  # first call, guard hit, guard miss
        x = torch.arange(n, dtype=torch.float64)
        got = jitted(x)
        assert isinstance(got, torch.Tensor) and got.dtype == torch.float64
        np.testing.assert_array_equal(got.numpy(), np.arange(float(n))[::-1])


def test_arrays_inside_a_returned_tuple_come_back_as_tensors():
    """Each array of a returned tuple, nested ones too, comes back as a tensor on the input's memory where it is
    a view; scalars stay Python scalars (a mutation audit survivor returned the tuple's arrays as NumPy)."""
    fn = define("""
        def f(a):
            return (a * 2.0, a[1:]), a[0]
        """)
    jitted = cuvil.jit(fn)
    for n, dtype in ((4, torch.float64), (4, torch.float64), (6, torch.float32)):  # first call, hit, miss
        x = torch.arange(n, dtype=dtype)
        (doubled, tail), first = jitted(x)
        assert isinstance(doubled, torch.Tensor) and isinstance(tail, torch.Tensor)
        assert doubled.dtype == tail.dtype == dtype
        assert torch.equal(doubled, x * 2.0) and torch.equal(tail, x[1:])
        assert tail.data_ptr() == x.data_ptr() + x.element_size()
        assert not isinstance(first, torch.Tensor) and first == 0.0
    assert len(cuvil.explain(jitted).compiles) == 2
