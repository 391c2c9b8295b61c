"""`math` functions Numba does not implement, registered as Numba overloads with CPython's semantics, so
`math.fmod(x, y)` in a jitted function means what it means in Python. Imported before anything compiles.

Where Python would return an integer wider than 64 bits (factorial, comb, perm, lcm), the compiled code
raises OverflowError instead of wrapping around.
"""

from __future__ import annotations

import math

import numpy as np
from numba import types
from numba.extending import overload

_INT64_MAX = 2**63 - 1


@overload(math.fmod, jit_options={"nogil": True})
def _fmod(x, y):
    def impl(x, y):
        if y == 0 or math.isinf(x):
            raise ValueError("math domain error")
        return np.fmod(float(x), float(y))

    return impl


@overload(math.cbrt, jit_options={"nogil": True})
def _cbrt(x):
    return lambda x: np.cbrt(float(x))


@overload(math.modf, jit_options={"nogil": True})
def _modf(x):
    def impl(x):
        x = float(x)
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
        if a == b:
            return True
        if math.isinf(a) or math.isinf(b):
            return False
        diff = abs(b - a)
        return diff <= abs(rel_tol * b) or diff <= abs(rel_tol * a) or diff <= abs_tol

    return impl


def _integers(*args: object) -> bool:
    return all(isinstance(a, types.Integer) for a in args)


@overload(math.isqrt, jit_options={"nogil": True})
def _isqrt(n):
    if not _integers(n):
        return None

    def impl(n):
        if n < 0:
            raise ValueError("isqrt() argument must be nonnegative")
        r = int(math.sqrt(n))
        # correct the float estimate, exactly, in integers; compared by division, since (r + 1) * (r + 1)
        # passes 2**63 - 1 for n above 3037000499**2 (it wrapped, and isqrt(2**63 - 1) never returned)
        while r > 0 and r > n // r:  # r * r > n
            r -= 1
        while r + 1 <= n // (r + 1):  # (r + 1) * (r + 1) <= n
            r += 1
        return r

    return impl


@overload(math.factorial, jit_options={"nogil": True})
def _factorial(n):
    if not _integers(n):
        return None

    def impl(n):
        if n < 0:
            raise ValueError("factorial() not defined for negative values")
        if n > 20:
            raise OverflowError("factorial() of more than 20 does not fit in 64 bits")
        out = 1
        for k in range(2, n + 1):
            out *= k
        return out

    return impl


@overload(math.perm, jit_options={"nogil": True})
def _perm(n, k):
    if not _integers(n, k):
        return None

    def impl(n, k):
        if n < 0:  # CPython's messages, n first
            raise ValueError("n must be a non-negative integer")
        if k < 0:
            raise ValueError("k must be a non-negative integer")
        if k > n:
            return 0
        out = 1
        for m in range(n - k + 1, n + 1):
            if out > _INT64_MAX // m:
                raise OverflowError("perm() does not fit in 64 bits")
            out *= m
        return out

    return impl


@overload(math.comb, jit_options={"nogil": True})
def _comb(n, k):
    if not _integers(n, k):
        return None

    def impl(n, k):
        if n < 0:  # CPython's messages, n first
            raise ValueError("n must be a non-negative integer")
        if k < 0:
            raise ValueError("k must be a non-negative integer")
        if k > n:
            return 0
        k = min(k, n - k)
        out = 1
        for m in range(1, k + 1):  # out becomes C(n - k + m, m) = out * (n - k + m) / m, exactly:
            g = math.gcd(out, m)  # out / g and m / g are coprime, so m / g divides (n - k + m)
            factor = (n - k + m) // (m // g)
            if out // g > _INT64_MAX // factor:
                raise OverflowError("comb() does not fit in 64 bits")
            out = (out // g) * factor
        return out

    return impl


@overload(math.lcm, jit_options={"nogil": True})
def _lcm(a, b):
    if not _integers(a, b):
        return None

    def impl(a, b):
        if a == 0 or b == 0:
            return 0
        g = math.gcd(a, b)
        q = abs(a) // g
        if q > _INT64_MAX // abs(b):
            raise OverflowError("lcm() does not fit in 64 bits")
        return q * abs(b)

    return impl
