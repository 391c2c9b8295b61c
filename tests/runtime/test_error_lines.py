"""A run-time error of compiled CPU code is Python's: its type, its message, and a traceback whose last frame
is the user's file and the line of the statement that failed, as plain Python reports it (runtime/where.py,
lower/located.py). Each function is defined from literal source (tests/helpers.define, as a notebook cell is)
and called three times: the first call (compiles), a guard hit, a guard miss (a new variant)."""

from __future__ import annotations

import math
import traceback

import numpy as np
import pytest

import cuvil
from cuvil.runtime.pyint import MESSAGE
from tests.helpers import define


def _raised(fn, *args):
    with pytest.raises(Exception) as info:
        fn(*args)
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    return type(info.value), str(info.value), (last.filename, last.lineno)


def _as_python(source, first, miss, **options):
    fn = define(source, env={"np": np, "math": math})
    jitted = cuvil.jit(fn, **options)
    expected = _raised(fn, *first)
    assert expected[2][0] == fn.__code__.co_filename  # the plain function's own failure is in its source
    assert _raised(jitted, *first) == expected  # first call
    assert _raised(jitted, *first) == expected  # guard hit
    assert _raised(jitted, *miss) == _raised(fn, *miss)  # guard miss
    assert len(jitted.compile_events) == 2


BOUNDS = """
def total(a, k):
    s = 0
    for i in range(3):
        s += a[i + k]
    return s
"""

GATHER = """
def gather(a, idx):
    out = np.empty(idx.shape[0], a.dtype)
    for i in range(idx.shape[0]):
        out[i] = a[idx[i]]
    return out
"""

OVERFLOW = """
def factorial(a, n):
    r = 1
    for i in range(1, n + 1):
        r *= i
    return a[0] + r
"""

DOMAIN = """
def roots(x):
    y = x + 1.0
    return math.sqrt(y - 3.0)
"""

DIVISION = """
def ratio(a, b):
    c = a + 1
    return c // b
"""

INT_OF_NAN = """
def truncated(x):
    y = x * 2.0
    return int(y)
"""


def test_bounds_error_at_users_line():
    _as_python(BOUNDS, (np.arange(3), 1), (np.ones(3, np.float32), 2))


def test_gathered_bounds_error_at_users_line():
    _as_python(GATHER, (np.arange(4.0), np.array([0, 4, 1])), (np.arange(4, dtype=np.int32), np.array([3, -5])))


def test_overflow_error_at_users_line():
    """Python gives a big int here: the compiled code's OverflowError is raised where its product overflowed."""
    fn = define(OVERFLOW)
    jitted = cuvil.jit(fn)
    expected = (OverflowError, MESSAGE, (fn.__code__.co_filename, 4))
    for args in [(np.ones(2), 25), (np.ones(2), 21), (np.ones(2, np.float32), 30)]:
        assert _raised(jitted, *args) == expected
    assert jitted(np.ones(2), 20) == 1.0 + math.factorial(20)
    assert len(jitted.compile_events) == 2


def test_domain_error_at_users_line():
    _as_python(DOMAIN, (0.5,), (1,))


def test_zero_division_error_at_users_line():
    _as_python(DIVISION, (3, 0), (2.5, 0.0))


def test_int_of_nan_at_users_line():
    _as_python(INT_OF_NAN, (math.nan,), (np.float32(math.inf),))


PARALLEL = """
def shifted(a, k, d):
    out = np.empty(a.shape[0], np.float64)
    for i in range(a.shape[0]):
        out[i] = a[i + k] + 1.0
    for i in range(a.shape[0]):
        out[i] += i // d
    return out
"""


@pytest.mark.parametrize(("name", "first", "miss"), [
    ("bounds", (np.ones(4), 1, 1), (np.ones(4, np.float32), 2, 1)),
    ("division", (np.ones(4), 0, 0), (np.ones(4, np.float32), 0, 0))])
def test_parallel_loop_errors_at_users_line(name, first, miss):
    _as_python(PARALLEL.replace("shifted", name), first, miss, parallel=True)  # two sources: two cache entries


BROADCAST = """
def scaled(a, b):
    c = a * 2.0
    return c + b
"""


@pytest.mark.xfail(strict=True, reason="runtime/messages.py's raisers are not given the user's line yet")
def test_broadcast_error_at_users_line():
    # dynamic: with static shapes the mismatch is found when compiling (CuvilShapeError)
    _as_python(BROADCAST, (np.ones(3), np.ones(4)), (np.ones((2, 3), np.float32), np.ones(2, np.float32)),
               dynamic=True)
