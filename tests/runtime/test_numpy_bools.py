"""Python's bool and NumPy's np.bool_ are different types with different arithmetic (`True + True` is 2,
`np.True_ + np.True_` is np.True_; `~True` is -2, `~np.True_` is np.False_), and Numba types and boxes both as
its `boolean`. Each gets a variant of its own (runtime/guards.py), whichever comes first, and an np.bool_ result
comes back as np.bool_ (runtime/adapters.py), not as the Python bool Numba returns."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def add(a, b):
    return a + b


def invert(a):
    return ~a


def both(a, b):
    return a & b


def first(a):
    return a[0]


def anything(a):
    return a.any()


def below(x, y):
    return x < y


def element_or_flag(a, flag):
    if flag:
        return a[0]
    return flag


def several(a, x):
    return a[0], x > 1, a[0] > 0


def _exact(fn, jitted, *args):
    want, got = fn(*args), jitted(*args)
    assert type(got) is type(want), (fn.__name__, args, want, got)
    if isinstance(want, tuple):
        assert [type(g) for g in got] == [type(w) for w in want], (fn.__name__, args, want, got)
    assert got == want, (fn.__name__, args, want, got)


BOOLS = [True, False, np.True_, np.False_]


@settings(max_examples=30)
@given(calls=st.lists(st.tuples(st.sampled_from(BOOLS), st.sampled_from(BOOLS)), min_size=3, max_size=6))
def test_python_and_numpy_bools_do_not_share_a_variant(calls):
    """Any order of Python and NumPy bools, fresh functions: each call as CPython computes it."""
    jitted = {fn: cuvil.jit(fn) for fn in (add, invert, both)}
    for a, b in calls:
        _exact(add, jitted[add], a, b)
        _exact(invert, jitted[invert], a)
        _exact(both, jitted[both], a, b)


@pytest.mark.parametrize(("fn", "calls"), [
    (first, [(np.array([True, False]),), (np.array([False]),), (np.array([True, True, True]),)]),
    (anything, [(np.arange(3),), (np.zeros(2),), (np.array([True]),)]),
    (below, [(3, np.int32(5)), (3, np.int32(5)), (np.float32(1.5), 2.0), (1.5, 2.0)]),
    (element_or_flag, [(np.array([True]), True), (np.array([True]), False), (np.array([False]), True)]),
    (several, [(np.array([1], np.int32), 2), (np.array([1], np.int32), 2), (np.array([-1.0], np.float32), 0)]),
])
def test_numpy_bool_results_come_back_as_numpy_bools(fn, calls):
    """First call, guard hit, guard miss: the result's type is CPython's, element by element."""
    jitted = cuvil.jit(fn)
    for args in calls:
        _exact(fn, jitted, *args)
