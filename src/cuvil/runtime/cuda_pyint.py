"""Device twins of runtime/pyint.py and pymath.py's non-raising helpers: the same names, computed without
raising (a kernel cannot raise; codegen/cuda_checks.py tests the conditions first, or calls the recording
twins of runtime/cuda_checks.py, so a twin here never sees an operand it would have raised for).

`add(a, b, True)` is the overflow test a parallel loop evaluates before the statement (cfg/raising.py), as on
the CPU. On a GPU the overflow flag comes from LLVM's `*.with.overflow` intrinsics (runtime/pyint.py's);
the simulator runs device functions as Python, which cannot call an intrinsic, so there the same answers come
from Python's unbounded ints.
"""

from __future__ import annotations

import math

from numba import cuda

from . import pyint
from .cuda_runtime import _is_sim, simulator

# ruff: noqa: ANN001, ANN201 (device functions are typed by Numba at each call)

MIN, MAX = -(2**63), 2**63 - 1
SIMULATED = simulator() or _is_sim()


def _wrap(v: int) -> int:
    return (v - MIN) % 2**64 + MIN


def _python(op):
    def compute(a, b):
        v = op(int(a), int(b))
        return _wrap(v), not MIN <= v <= MAX

    return compute


@cuda.jit(device=True)
def _shift(a, b):
    return a << b, False


@cuda.jit(device=True)
def _abs(a, b):
    return abs(a), False


if SIMULATED:  # Python's ints do not wrap: the results a GPU would give, which an int64 array can hold
    _add, _sub, _mul = (_python(op) for op in (lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b))
    _shift = _python(lambda a, b: a << b)  # noqa: F811
    _abs = _python(lambda a, b: abs(a))  # noqa: F811
else:
    _add, _sub, _mul = pyint._OPS["add"], pyint._OPS["sub"], pyint._OPS["mul"]


@cuda.jit(device=True)
def add(a, b, test=False):
    value, over = _add(a, b)
    if test:
        return over
    return value


@cuda.jit(device=True)
def sub(a, b, test=False):
    value, over = _sub(a, b)
    if test:
        return over
    return value


@cuda.jit(device=True)
def mul(a, b, test=False):
    value, over = _mul(a, b)
    if test:
        return over
    return value


@cuda.jit(device=True)
def neg(a, test=False):
    value, over = _sub(0, a)
    if test:
        return over
    return value


@cuda.jit(device=True)
def power(a, b):
    """By squaring, wrapping (the recording twin has tested for overflow)."""
    result = a - a + 1
    base, e = a, b
    while e > 0:
        if e & 1:
            result = _mul(result, base)[0]
        e >>= 1
        if e > 0:
            base = _mul(base, base)[0]
    return result


@cuda.jit(device=True)
def lshift(a, b):
    if b < 0 or b > 63:
        return a - a
    return _shift(a, b)[0]


@cuda.jit(device=True)
def rshift(a, b):
    if b < 0:
        return a - a
    return a >> min(b, 63)


@cuda.jit(device=True)
def floordiv(a, b):
    if b == 0 or (b == -1 and a == MIN):
        return a - a
    return a // b


@cuda.jit(device=True)
def absolute(a):
    return _abs(a, 0)[0]


@cuda.jit(device=True)
def to_int(x):
    if x != x or not -9.223372036854775807e18 <= x < 9.223372036854775807e18:
        return 0
    return int(x)


@cuda.jit(device=True)
def half_even(x):
    """Python's round() of a float: to the nearest integer, ties to even."""
    f = math.floor(x)
    d = x - f
    if d > 0.5 or (d == 0.5 and f % 2.0 != 0.0):
        return f + 1.0
    return f


@cuda.jit(device=True)
def round_int(x):
    return to_int(half_even(x))


@cuda.jit(device=True)
def as_index(x):
    return x


@cuda.jit(device=True)
def int_float_cmp(i, f):
    """runtime/pymath.int_float_cmp: the sign of i - f, exactly (nan when f is nan)."""
    if f != f:
        return math.nan
    if f >= 9.223372036854775808e18:
        return -1.0
    if f < -9.223372036854775808e18:
        return 1.0
    t = int(f)
    if i != t:
        return 1.0 if i > t else -1.0
    rest = f - float(t)
    return -1.0 if rest > 0.0 else 1.0 if rest < 0.0 else 0.0


NAMES = frozenset(n for n, v in dict(globals()).items() if hasattr(v, "py_func") and n != "half_even")
