"""A ufunc's `out` argument survives the conversions the lowering writes (a regression: it was dropped)."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.helpers import define


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("call", ["np.add(a[i:i + 1], 1.0, a[i:i + 1])", "np.add(a[i:i + 1], 1.0, out=a[i:i + 1])",
                                  "np.divide(a[i:i + 1], 2.0, a[i:i + 1])"])
def test_out_argument_is_written(call, parallel):
    fn = define(f"""
        def f(a):
            for i in range(len(a)):
                {call}
            return a
        """, env={"np": np})
    expected = fn(np.arange(6.0))
    got = cuvil.jit(fn, parallel=parallel)(np.arange(6.0))
    np.testing.assert_array_equal(got, expected)
