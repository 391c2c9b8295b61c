"""`a @ b` has matmul's rank, not a broadcast's: (2, 3) @ (3,) is 1-D, (3,) @ (3,) a number. The operator was
typed as an elementwise ufunc (rank 2 for (2, 3) @ (3,)), so `z[i] = z[i] * k` over such a product was
lowered as a row assignment and failed with 'tuple index out of range' (found on the CUDA target). Every rank
pair, the product used whole and element by element, first call / guard hit / guard miss (another dtype)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.lower.compare import assert_like_numpy, jitted

SOURCE = """
def f(a, b, k):
    z = a @ b
    w = z * k
    if z.ndim == 1:
        for i in range(z.shape[0]):
            z[i] = z[i] * k
    return w, z
"""
SHAPES = [((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4))]


@pytest.mark.parametrize(("left", "right"), SHAPES)
def test_the_product_of_each_rank_pair_is_numpys(left, right):
    f = jitted(SOURCE)
    for dtype in ("float64", "float64", "float32"):  # first call, guard hit, guard miss
        a = np.arange(np.prod(left), dtype=dtype).reshape(left)
        b = np.arange(np.prod(right), dtype=dtype).reshape(right) - 2
        assert_like_numpy(f, a, b, 1.5)


def test_a_vector_product_is_a_number():
    f = jitted("def f(a, b):\n    return (a @ b) * 2.0\n")
    for dtype in ("float64", "float64", "float32"):
        assert_like_numpy(f, np.arange(3.0, dtype=dtype), np.ones(3, dtype))
