"""Errors Numba's library would raise in its own words, from its own source, are NumPy's at the user's line
(lower/library_raises.py, runtime/library_checks.py): `.item()` of an array that is not one element, an
allocation with a negative dim, a reshape to a shape of another size, an array assigned into a slice of another
shape. Each function is defined from literal source and called for the first time, again (guard hit) and with
other argument types (guard miss)."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

pytestmark = pytest.mark.filterwarnings("error::cuvil.PerformanceWarning")  # no fallback to the code as written


def _raised(fn, *args):
    with pytest.raises(Exception) as info:
        fn(*args)
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    return type(info.value), str(info.value), (last.filename, last.lineno)


# (source, the failing line, first call's arguments, a guard miss's), each raising in NumPy at that line
CASES = {
    "item of several elements": ("""
def first(a):
    b = a * 2
    return b.item()
""", 3, (np.ones(3),), (np.ones((2, 2), np.float32),)),
    "item of no element": ("""
def first(a):
    b = a * 2
    return b.item() + 1.0
""", 3, (np.ones(0),), (np.ones((0, 2), np.float32),)),
    "empty with a negative dim": ("""
def make(n):
    m = n - 2
    return np.empty(m)
""", 3, (1,), (np.int32(0),)),
    "zeros with a negative dim in a tuple": ("""
def make(n):
    m = n - 2
    return np.zeros((2, m))
""", 3, (1,), (np.int32(0),)),
    "full with a negative dim": ("""
def make(n):
    m = n - 2
    out = np.full(m, 1.5)
    return out
""", 3, (1,), (np.int32(0),)),
    "reshape with an unknown dim": ("""
def rows(a, n):
    b = a * 2
    return b.reshape(n, -1)
""", 3, (np.ones(3), 2), (np.ones((5, 1), np.float32), 2)),
    "reshape to a shape of another size": ("""
def rows(a, n):
    b = a * 2
    c = b.reshape((n, 2))
    return c
""", 3, (np.ones(3), 2), (np.ones(5, np.float32), 1)),
    "reshape with two unknown dims": ("""
def rows(a, n):
    b = a * 2
    return b.reshape(n, -1, -1)
""", 3, (np.ones(4), 2), (np.ones(4, np.float32), 1)),
    "reshape to another array's shape": ("""
def like(a, b):
    c = a * 2
    return c.reshape(b.shape)
""", 3, (np.ones(3), np.ones((2, 2))), (np.ones(6, np.float32), np.ones(4))),
    "assignment into a slice of another shape": ("""
def put(a, v):
    c = a * 2
    c[1:] = v
    return c
""", 3, (np.ones(4), np.ones(2)), (np.ones((3, 4), np.float32), np.ones((2, 1, 4)))),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_numpy_error_at_users_line(case):
    source, line, first, miss = CASES[case]
    fn = define(source, env={"np": np})
    jitted = cuvil.jit(fn, dynamic=True)  # dynamic: static shapes would find some of these compiling
    for args in (first, first, miss):
        kind, message, _ = _raised(fn, *args)  # NumPy's own traceback may end in NumPy's source
        assert _raised(jitted, *args) == (kind, message, (fn.__code__.co_filename, line))
    assert len(jitted.compile_events) == 2


def test_numpy_reshape_function_error_at_users_line():
    fn = define("""
def rows(a, n):
    b = a * 2
    return np.reshape(b, (n, -1))
""", env={"np": np})
    jitted = cuvil.jit(fn, dynamic=True)
    for args in [(np.ones(3), 2), (np.ones(3), 2), (np.ones(7, np.float32), 3)]:
        kind, message, _ = _raised(fn, *args)
        assert _raised(jitted, *args) == (kind, message, (fn.__code__.co_filename, 3))


CHECKED = """
def checked(a, n, k):
    b = a * 2
    x = b[:1].item()
    c = np.zeros((n, 2))
    d = b.reshape(n, -1)
    e = b.item() if k > 0 else 0.0
    g = np.zeros((2, n + 1))
    g[:, 1:] = b[:1]
    return x, c, d, e, g
"""


def test_checks_pass_what_numpy_allows():
    """The checks let through what NumPy runs, and check only what the statement evaluates (`b.item()` of the
    conditional expression's arm not taken)."""
    fn = define(CHECKED, env={"np": np})
    jitted = cuvil.jit(fn, dynamic=True)
    for args in [(np.arange(4.0), 2, 0), (np.arange(4.0), 4, 0), (np.arange(6, dtype=np.float32), 3, 0),
                 (np.arange(1.0), 1, 1)]:
        got, want = jitted(*args), fn(*args)
        assert got[0] == want[0] and got[3] == want[3]
        for g, w in zip(got[1:3] + got[4:], want[1:3] + want[4:]):
            np.testing.assert_array_equal(g, w)
            assert g.dtype == w.dtype and g.shape == w.shape
    assert len(jitted.compile_events) == 2


def test_known_dims_are_not_checked():
    """An allocation whose dims are shapes, lengths and names bound only to them gets no check (nothing to
    raise); one of an argument does."""
    fn = define("""
def make(a, n):
    m = a.shape[0] + 1
    b = np.empty((m, len(a)))
    c = np.zeros(n)
    return b.shape[0] + c.shape[0]
""", env={"np": np})
    jitted = cuvil.jit(fn)
    assert jitted(np.ones(3), 2) == fn(np.ones(3), 2)
    kernel = jitted.source(stage="kernel")
    assert kernel.count("nonnegative_dims(") == 1 and "nonnegative_dims(n, at=4)" in kernel


_RESHAPE = define("""
def reshaped(a, s0, s1):
    return a.reshape(s0, s1)
""")
_RESHAPE_JIT = cuvil.jit(_RESHAPE, dynamic=True)


@settings(max_examples=150, deadline=None)
@given(size=st.integers(0, 12), s0=st.integers(-2, 6), s1=st.integers(-2, 6))
def test_reshape_is_numpys(size, s0, s1):
    """The same shape and values as NumPy's reshape, or its ValueError word for word."""
    a = np.arange(float(size))
    try:
        want = _RESHAPE(a, s0, s1)
    except ValueError as exc:
        with pytest.raises(ValueError) as info:
            _RESHAPE_JIT(a, s0, s1)
        assert str(info.value) == str(exc)
        return
    got = _RESHAPE_JIT(a, s0, s1)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
