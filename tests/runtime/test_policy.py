"""The dim policy's boundary (runtime/policy.py): with `dynamic=None` a dim is static on first sight exactly
when it is at most 16, 0 and 1 included (a mutation audit survivor made 16 itself dynamic)."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

import cuvil
from cuvil.runtime.guards import arg_guards
from cuvil.runtime.policy import SMALL_DIM, DimPolicy
from tests.helpers import define


@given(shape=st.lists(st.integers(0, 3 * SMALL_DIM), min_size=1, max_size=3))
@example(shape=[SMALL_DIM]).via("the boundary")
@example(shape=[SMALL_DIM + 1, 0, 1]).via("just past it, with the broadcasting sizes")
def test_a_dim_is_static_on_first_sight_when_at_most_small_dim(shape):
    args = arg_guards(["x", "n"], [np.empty(shape), 3])
    static = DimPolicy(None, 8).static_dims(args, [])
    assert static == {(0, k): size for k, size in enumerate(shape) if size <= 16}


def test_the_boundary_as_the_user_sees_it():
    fn = cuvil.jit(define("""
        def f(x):
            return x.shape[0]
        """))
    for n in (SMALL_DIM, SMALL_DIM, SMALL_DIM + 1):  # first call, guard hit, guard miss
        assert fn(np.zeros(n)) == n
    (newest, first) = cuvil.explain(fn).guards
    assert "x.shape[0] == 16" in first and not any("shape" in item for item in newest)
