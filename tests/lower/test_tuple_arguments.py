"""A tuple argument's items keep their kinds (analysis/types.py `of_argument`): Python numbers inside it are weak
(NEP 50), so `float32_array * t[0]` with `t = (2.5, 3)` stays float32. A mutant that typed a tuple argument
without its items survived the type modules' tests (tests/MUTATION.md)."""

from __future__ import annotations

import numpy as np

import cuvil


def affine(a, t):
    return a * t[0] + t[1], t[1] * 2


def test_python_numbers_in_a_tuple_argument_are_weak():
    jitted = cuvil.jit(affine)
    for dtype, t in (("float32", (2.5, 3)), ("float32", (-1.0, 7)), ("int8", (2, 3))):  # first, hit, miss
        a = np.arange(4, dtype=dtype)
        (got, k), (want, w) = jitted(a, t), affine(a, t)
        assert (got.dtype, got.shape) == (want.dtype, want.shape) and type(k) is type(w) and k == w
        np.testing.assert_array_equal(got, want)
    assert len(cuvil.explain(jitted).compiles) == 2
