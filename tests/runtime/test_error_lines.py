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


def test_broadcast_error_at_users_line():
    # dynamic: with static shapes the mismatch is found when compiling (CuvilShapeError)
    _as_python(BROADCAST, (np.ones(3), np.ones(4)), (np.ones((2, 3), np.float32), np.ones(2, np.float32)),
               dynamic=True)


INPLACE = """
def accumulate(t, v):
    w = v * 2
    t += w
    return t
"""


def test_inplace_shape_error_at_users_line():
    _as_python(INPLACE, (np.ones(3), np.ones(4)), (np.ones((2, 3), np.float32), np.ones((3, 3), np.float32)),
               dynamic=True)


REFUSED = """
def minus(a, b):
    c = a & b
    return c - b
"""

NARROW_INT = """
def shifted(a, k):
    b = a * 1
    return b + k
"""


def test_numpy_refusal_at_users_line():
    _as_python(REFUSED, (np.ones(3, bool), np.zeros(3, bool)), (np.ones(2, bool), True))


def test_python_int_out_of_narrow_dtype_at_users_line():
    _as_python(NARROW_INT, (np.ones(3, np.int8), 300), (np.ones(3, np.uint8), -1))


# (source, first call's arguments, a guard miss's): each raises in CPython, and so compiled, at the same line.
CASES = {
    "math range": ("""
def grow(x):
    y = x * 3.0
    return math.exp(y)
""", (300.0,), (400,)),
    "zero to a negative power": ("""
def inverse(x):
    y = x - x
    return y ** -1.0
""", (1.0,), (2,)),
    "zero to a negative power in place": ("""
def inverse_in_place(x):
    y = x - x
    y **= -2.0
    return y
""", (1.0,), (2,)),
    "a float to a literal power": ("""
def grow(x):
    y = x * 10.0
    return y ** 20
""", (1e20,), (10**15,)),
    "a float to a literal float power": ("""
def grow(x):
    y = x * 10.0
    return y ** 400.0
""", (1.0,), (1,)),
    "a float to a literal power in place": ("""
def grow(x):
    y = x * 10.0
    y **= 40
    return y
""", (1e9,), (10**9,)),
    "a float to a power in place": ("""
def grow(x, e):
    y = x * 10.0
    y **= e
    return y
""", (1e200, 2.0), (1e200, 2)),
    "builtin pow of a float": ("""
def grow(x):
    y = x * 10.0
    return pow(y, 40)
""", (1e9,), (10**9,)),
    "math.pow range": ("""
def grow(x):
    y = x * 10.0
    return math.pow(y, 400)
""", (1.0,), (1,)),
    "math.pow domain": ("""
def root(x):
    y = x - 2.0
    return math.pow(y, 0.5)
""", (1.0,), (1,)),
    "math.pow of zero to a negative power": ("""
def inverse(x):
    y = x - x
    return math.pow(y, -1)
""", (1.0,), (2,)),
    "range of a float": ("""
def count(n):
    m = n / 2
    s = 0
    for i in range(m):
        s += i
    return s
""", (5,), (5.0,)),
    "negative shift": ("""
def shift(a, n):
    r = 3
    return a[0] + (r << n)
""", (np.ones(2), -1), (np.ones(2, np.float32), -2)),
    "assertion": ("""
def positive(x):
    y = x - 1
    assert y > 0, "positive"
    return y
""", (1,), (0.5,)),
    "in a helper": ("""
def pick(a, i):
    j = i + 1
    return a[j]


def outer(a, i):
    t = 0.0
    t += pick(a, i)
    return t
""", (np.ones(3), 2), (np.ones(3, np.float32), 5)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_error_at_users_line(case):
    source, first, miss = CASES[case]
    _as_python(source, first, miss)


SQUARES = """
def squares(a, h):
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        x = (i + 0.5) * h
        out[i] = a[i] + x ** 2
    return out
"""


def test_parallel_float_power_error_at_users_line():
    _as_python(SQUARES, (np.ones(4), 1e200), (np.ones(4, np.float32), 1e160), parallel=True)


INT_POWERS = """
def powers(a, k, j):
    s = a[0]
    s += k ** 2
    s += 3 ** j
    return s
"""


def test_int_power_error_at_users_line():
    """Python gives a big int for `k ** 2` with k = 2**40 (Numba: 0); the compiled code raises OverflowError at
    the power's line, and its values that fit are Python's."""
    fn = define(INT_POWERS)
    jitted = cuvil.jit(fn)
    for args, line in [((np.ones(2), 2**40, 1), 3), ((np.ones(2), 1, 40), 4), ((np.ones(2, np.float32), -2**32, 1), 3)]:
        assert _raised(jitted, *args) == (OverflowError, MESSAGE, (fn.__code__.co_filename, line))
    assert jitted(np.ones(2), -3037000499, 39) == fn(np.ones(2), -3037000499, 39)  # both just below 2**63
    assert len(jitted.compile_events) == 2


def test_shapes_found_not_to_broadcast_when_compiling_end_at_users_line():
    """With static shapes the mismatch is certain at compile time: a CuvilShapeError (a ValueError, as NumPy's),
    its traceback ending at the line as CPython's ValueError does; its cause, if any, kept."""
    fn = define(BROADCAST, env={"np": np})
    expected = _raised(fn, np.ones(3), np.ones(4))
    for _ in range(2):
        with pytest.raises(cuvil.CuvilShapeError) as info:
            cuvil.jit(fn)(np.ones(3), np.ones(4))
        assert isinstance(info.value, ValueError) and info.value.message == expected[1]  # NumPy's words
        last = traceback.extract_tb(info.value.__traceback__)[-1]
        assert (last.filename, last.lineno) == expected[2]
