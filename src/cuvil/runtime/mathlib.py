"""`math` functions Numba does not implement (or implements otherwise), registered as Numba overloads with
CPython's semantics, so `math.fmod(x, y)` in a jitted function means what it means in Python. Imported before
anything compiles.

lower/math_calls.py calls runtime/pymath.py's helpers in place of these on numbers (with the user's line for
their errors); these overloads delegate to the same helpers, for code compiled as written. Where Python would
return an integer wider than 64 bits (factorial, comb, perm, lcm), the compiled code raises OverflowError
instead of wrapping around.
"""

from __future__ import annotations

import math

import numpy as np
from numba import types
from numba.extending import overload

from . import pymath


@overload(math.fmod, jit_options={"nogil": True})
def _fmod(x, y):
    return lambda x, y: pymath.fmod(np.float64(x), np.float64(y))


@overload(math.remainder, jit_options={"nogil": True})
def _remainder(x, y):
    return lambda x, y: pymath.remainder(np.float64(x), np.float64(y))


@overload(math.ulp, jit_options={"nogil": True})
def _ulp(x):
    return lambda x: pymath.ulp(np.float64(x))


@overload(math.cbrt, jit_options={"nogil": True})
def _cbrt(x):
    return lambda x: np.cbrt(np.float64(x))


@overload(math.modf, jit_options={"nogil": True})
def _modf(x):
    def impl(x):
        x = np.float64(x)
        if math.isinf(x):
            return math.copysign(0.0, x), x
        whole = np.trunc(x)
        return math.copysign(x - whole, x), whole

    return impl


@overload(math.isclose, jit_options={"nogil": True})
def _isclose(a, b, rel_tol=1e-09, abs_tol=0.0):
    def impl(a, b, rel_tol=1e-09, abs_tol=0.0):
        if rel_tol < 0.0 or abs_tol < 0.0:
            raise ValueError("tolerances must be non-negative")
        a, b = np.float64(a), np.float64(b)  # CPython compares doubles: isclose(0, -2**63) is False
        if a == b:
            return True
        if math.isinf(a) or math.isinf(b):
            return False
        diff = abs(b - a)
        return diff <= abs(rel_tol * b) or diff <= abs(rel_tol * a) or diff <= abs_tol

    return impl


def _integers(*args: object) -> bool:
    return all(isinstance(a, types.Integer | types.Boolean) for a in args)


@overload(math.isqrt, jit_options={"nogil": True})
def _isqrt(n):
    if _integers(n):
        return lambda n: pymath.isqrt(np.int64(n))
    return None


@overload(math.factorial, jit_options={"nogil": True})
def _factorial(n):
    if _integers(n):
        return lambda n: pymath.factorial(np.int64(n))
    return None


@overload(math.perm, jit_options={"nogil": True})
def _perm(n, k=None):
    if _integers(n) and (k is None or isinstance(k, types.NoneType | types.Omitted)):
        return lambda n, k=None: pymath.factorial(np.int64(n))  # CPython's perm(n)
    if _integers(n, k):
        return lambda n, k=None: pymath.perm(np.int64(n), np.int64(k))
    return None


@overload(math.comb, jit_options={"nogil": True})
def _comb(n, k):
    if _integers(n, k):
        return lambda n, k: pymath.comb(np.int64(n), np.int64(k))
    return None


@overload(math.lcm, jit_options={"nogil": True})
def _lcm(a, b):
    if _integers(a, b):
        return lambda a, b: pymath.lcm((np.int64(a), np.int64(b)))
    return None
