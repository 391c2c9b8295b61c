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
