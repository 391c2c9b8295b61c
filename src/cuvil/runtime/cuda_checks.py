"""Recording twins: the checked helpers of a statement no condition can test beforehand (runtime/pyint.py's
`**`, `<<`, `//`, abs(), int(), round() raise in ways cfg/raising.py cannot state as a condition), for
single-thread kernels (codegen/cuda_checks.py).

Each takes the kernel's error slots and the first of its codes, computes what the CPU helper computes, and
where the CPU helper would raise it records `code + k` (k: which of codegen/cuda_checks.OUTCOMES[name] it is)
instead, unless a failure is recorded already (one thread: the first in Python's order wins), and returns a
harmless value; the kernel leaves after the statement, and the launcher raises OUTCOMES[name][k] at the
user's line. Every other
check of such a statement records here too (bounds, divisions, Python-int `+ - *`, math domains), so the
order of failures within it is Python's.
"""

from __future__ import annotations

import math

import numpy as np
from numba import cuda

from ..library.numpy import DOMAINS
from . import cuda_pyint as pi
from . import cuda_pymath as pm
from . import pymath
from .cuda_runtime import NO_ERROR

# ruff: noqa: ANN001, ANN201 (device functions are typed by Numba at each call)

@cuda.jit(device=True)
def record(slots, code):
    if slots[0] == NO_ERROR:
        slots[0] = code


@cuda.jit(device=True)
def failed(slots):
    return slots[0] != NO_ERROR


@cuda.jit(device=True)
def index(slots, code, i, n, axis):
    if i < -n or i >= n:
        if slots[0] == NO_ERROR:
            slots[0] = code
            slots[1] = i
            slots[2] = n
        return i - i
    return i


@cuda.jit(device=True)
def true_divide(slots, code, a, b):
    if b == 0:
        record(slots, code)
        return a / (b + 1)
    return a / b


@cuda.jit(device=True)
def floor_divide(slots, code, a, b):
    if b == 0:
        record(slots, code)
        return a // (b + 1)
    return a // b


@cuda.jit(device=True)
def modulo(slots, code, a, b):
    if b == 0:
        record(slots, code)
        return a % (b + 1)
    return a % b


@cuda.jit(device=True)
def add(slots, code, a, b):
    if pi.add(a, b, True):
        record(slots, code)
    return pi.add(a, b)


@cuda.jit(device=True)
def sub(slots, code, a, b):
    if pi.sub(a, b, True):
        record(slots, code)
    return pi.sub(a, b)


@cuda.jit(device=True)
def mul(slots, code, a, b):
    if pi.mul(a, b, True):
        record(slots, code)
    return pi.mul(a, b)


@cuda.jit(device=True)
def neg(slots, code, a):
    if pi.neg(a, True):
        record(slots, code)
    return pi.neg(a)


@cuda.jit(device=True)
def absolute(slots, code, a):
    if a == pi.MIN:
        record(slots, code)
    return pi.absolute(a)


@cuda.jit(device=True)
def power(slots, code, a, b):
    if b < 0:
        record(slots, code if a == 0 else code + 1)
        return a - a
    result = a - a + 1
    base, e = a, b
    while e > 0:  # by squaring; a square that overflows means the result does (|a| >= 2)
        if e & 1:
            if pi.mul(result, base, True):
                record(slots, code + 2)
                return result
            result = pi.mul(result, base)
        e >>= 1
        if e > 0:
            if pi.mul(base, base, True):
                record(slots, code + 2)
                return result
            base = pi.mul(base, base)
    return result


@cuda.jit(device=True)
def lshift(slots, code, a, b):
    if b < 0:
        record(slots, code)
    elif a != 0 and (b > 63 or pi.lshift(a, b) >> b != a):  # -1 << 63 fits: -2**63
        record(slots, code + 1)
    return pi.lshift(a, b)


@cuda.jit(device=True)
def rshift(slots, code, a, b):
    if b < 0:
        record(slots, code)
    return pi.rshift(a, b)


@cuda.jit(device=True)
def floordiv(slots, code, a, b):
    if b == 0:
        record(slots, code)
    elif b == -1 and a == pi.MIN:
        record(slots, code + 1)
    return pi.floordiv(a, b)


@cuda.jit(device=True)
def to_int(slots, code, x):
    if x != x:
        record(slots, code)
    elif x == math.inf or x == -math.inf:
        record(slots, code + 1)
    elif not -9.223372036854775807e18 <= x < 9.223372036854775807e18:
        record(slots, code + 2)
    return pi.to_int(x)


@cuda.jit(device=True)
def round_int(slots, code, x):
    return to_int(slots, code, pi.half_even(x))


@cuda.jit(device=True)
def as_index(slots, code, x):  # lower/casts.py calls it on a float only: Python's TypeError
    record(slots, code)
    return 0


@cuda.jit(device=True)
def _recorded(slots, code, value):
    """record(), with the value NumPy's message names (runtime/cuda_runtime.int_out_of_bounds words it)."""
    if slots[0] == NO_ERROR:
        slots[0] = code
        slots[1] = value
        slots[2] = 0


@cuda.jit(device=True)
def python_int_as(slots, code, value, dtype):  # runtime/elementwise.py's, in a kernel: a dtype that cannot
    whole = np.int64(value)  # hold the int records NumPy's OverflowError instead of wrapping (a cast round-trips
    if dtype(whole) != whole:  # exactly where it holds: int8(300) is 44)
        _recorded(slots, code, whole)
        return dtype(0)
    return dtype(whole)


@cuda.jit(device=True)
def numpy_int_as(slots, code, value, dtype):  # a uint64 above every C long first ("too large"), then the dtype
    if value > np.uint64(9223372036854775807):
        record(slots, code)
        return dtype(0)
    return python_int_as(slots, code + 1, value, dtype)


@cuda.jit(device=True)
def python_float_as(slots, code, value, dtype):  # int(value): NaN, infinities, beyond a C long (a uint64 dtype
    if value != value:  # takes [2**63, 2**64) too), then the dtype
        record(slots, code)
        return dtype(0)
    if value == math.inf or value == -math.inf:
        record(slots, code + 1)
        return dtype(0)
    whole = value - math.fmod(value, 1.0)  # toward zero, still a float (Numba's math.trunc is an int64)
    if whole >= 9.223372036854775808e18 and whole < 1.8446744073709551616e19:
        big = np.uint64(whole)
        if dtype(big) == big:
            return dtype(big)
    if not -9.223372036854775808e18 <= whole < 9.223372036854775808e18:
        record(slots, code + 2)
        return dtype(0)
    return python_int_as(slots, code + 3, np.int64(whole), dtype)


def _math(name: str):
    """DOMAINS[name]'s conditions tested in order (at most two), the k-th recorded as `code + k`."""
    outcomes = DOMAINS[name]
    first = cuda.jit(device=True)(pymath.condition(outcomes[0][2]))
    second = cuda.jit(device=True)(pymath.condition(outcomes[1][2]) if len(outcomes) > 1 else pymath.never)
    compute = getattr(pm, name)

    @cuda.jit(device=True)
    def checked(slots, code, x):
        v = float(x)
        if first(v):
            record(slots, code)
            return math.nan
        if second(v):
            record(slots, code + 1)
            return math.nan
        return compute(v)

    return checked


def _raising(compute, arity: int):
    """pymath.py's (value, k) of a MATH_RAISES function: k (its error) recorded as `code + k - 1`."""
    if arity == 2:
        @cuda.jit(device=True)
        def checked2(slots, code, x, y):
            value, k = compute(x, y)
            if k:
                record(slots, code + k - 1)
            return value

        return checked2

    @cuda.jit(device=True)
    def checked(slots, code, x):
        value, k = compute(x)
        if k:
            record(slots, code + k - 1)
        return value

    return checked


globals().update({name: _math(name) for name in DOMAINS})
globals().update({name: _raising(compute, pymath.COMPUTES[name].__code__.co_argcount)
                  for name, compute in pm.COMPUTES.items()})
