"""`math` functions with CPython's errors: `math.sqrt(-1)` raises ValueError("math domain error") and
`math.exp(1000)` OverflowError("math range error") where Numba returns nan and inf (issue 10 §3).

lower/casts.py calls these in place of `math.<name>` on numbers. Each tests the condition of
library/numpy.py's DOMAINS table (the one a parallel loop evaluates before the call, cfg/raising.py), then
calls Numba's own `math.<name>`. They are not inlined into Numba's IR: a `raise` inlined into a `prange` body
stops Numba from parallelizing it, and in a parallel loop the condition has been tested before the call.
The plain-Python functions are CPython's, for running without Numba.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, objmode, types
from numba.extending import intrinsic, overload

from ..library.numpy import DOMAINS


def _stub(name: str):
    function = getattr(math, name)

    def call(x, at=0):
        return function(x)

    call.__name__ = call.__qualname__ = name
    return call


sqrt, log, log10, log2, log1p, acos, asin, acosh, atanh, exp, expm1, cosh, sinh = (
    _stub(n) for n in ("sqrt", "log", "log10", "log2", "log1p", "acos", "asin", "acosh", "atanh", "exp", "expm1",
                       "cosh", "sinh"))

_EXP, _HYPERBOLIC = 709.782712893384, 710.4758600739439  # the largest finite arguments (CPython's libm)


def _register(stub, condition):
    function = getattr(math, stub.__name__)
    fails = njit(inline="always")(condition)
    exception = OverflowError if DOMAINS[stub.__name__][0] == "OverflowError" else ValueError
    message = DOMAINS[stub.__name__][1]

    @overload(stub, jit_options={"nogil": True})
    def typed(x, at=0):
        def impl(x, at=0):
            v = float(x)
            if fails(v):
                if at:  # the user's line (lower/located.py), taken off again by runtime/where.py
                    raise exception(message, at)
                raise exception(message)
            return function(v)

        return impl


_register(sqrt, lambda v: v < 0.0)
_register(log, lambda v: v <= 0.0)
_register(log10, lambda v: v <= 0.0)
_register(log2, lambda v: v <= 0.0)
_register(log1p, lambda v: v <= -1.0)
_register(acos, lambda v: v < -1.0 or v > 1.0)
_register(asin, lambda v: v < -1.0 or v > 1.0)
_register(acosh, lambda v: v < 1.0)
_register(atanh, lambda v: v <= -1.0 or v >= 1.0)
_register(exp, lambda v: _EXP < v < math.inf)
_register(expm1, lambda v: _EXP < v < math.inf)
_register(cosh, lambda v: _HYPERBOLIC < abs(v) < math.inf)
_register(sinh, lambda v: _HYPERBOLIC < abs(v) < math.inf)


def round_ndigits(x, n):
    """CPython's round(x, n) of a float: the double nearest to x's exact value rounded to n decimals."""
    return round(x, n)


_POW10 = tuple(float(10**k) for k in range(23))  # every one exact in a double


@njit("float64(float64, int64)", cache=True)  # object mode holds the GIL: no nogil
def _python_round(v, n):  # CPython's own, for the scaled values the FMA test below cannot decide
    with objmode(out="float64"):
        out = round(v, n)
    return out


@overload(round_ndigits, jit_options={"nogil": True})
def _round_ndigits(x, n):
    """Numba's round(x, n) scales by 10**n in floating point, so 2.675 (2.67499999...) rounds up to 2.68:
    CPython decides on the exact value. Here the scaled value's rounding error is recovered exactly with an
    FMA, so the half-way test is exact; the result is one correctly rounded division (or product), as
    CPython's conversion of the decimal result is. Beyond 22 digits either way 10**n is not exact: CPython's own
    (object mode, rare), where Numba's gave nan for round(123.0, -400) and kept 5e-324 to 323 digits."""
    if not isinstance(x, types.Float):
        return None
    powers = _POW10

    def impl(x, n):
        v = float(x)
        if not math.isfinite(v) or v == 0.0:
            return v
        if n > 22 or n < -22:  # 10**n is not a double: CPython's (5e-324 to 323 digits is 0.0; an OverflowError)
            return _python_round(v, n)
        s = powers[n] if n >= 0 else powers[-n]
        if n >= 0:
            p = v * s
            err = _fma(v, s, -p)  # v * s == p + err exactly
        else:
            p = v / s
            err = _fma(-p, s, v) / s  # v / s == p + err (the remainder is exact; its quotient's sign is)
        if abs(p) >= 4503599627370496.0:  # 2**52: p is an integer, but p + err need not be one (rare: ask CPython)
            return _python_round(v, n)
        f = math.floor(p)
        d = (p - f - 0.5) + err  # the sign of (exact value - f - 1/2)
        r = f + 1.0 if d > 0.0 or (d == 0.0 and f % 2.0 != 0.0) else f
        out = r / s if n >= 0 else r * s
        return math.copysign(out, v) if out == 0.0 else out

    return impl


@intrinsic
def _fma(typingctx, a, b, c):
    if not all(isinstance(t, types.Float) for t in (a, b, c)):
        return None

    def codegen(context, builder, signature, args):
        d = ir.DoubleType()
        fn = builder.module.declare_intrinsic("llvm.fma", [d], ir.FunctionType(d, [d, d, d]))
        wide = [context.cast(builder, v, t, types.float64) for v, t in zip(args, signature.args)]
        return builder.call(fn, wide)

    return types.float64(a, b, c), codegen


def int_float_cmp(i, f):
    """The sign of i - f for a Python int and a float, exactly (nan when f is nan): CPython's comparison."""
    if f != f:
        return math.nan
    return float((i > f) - (i < f))


_TWO63 = 9.223372036854775808e18


@overload(int_float_cmp, jit_options={"nogil": True})
def _int_float_cmp(i, f):
    def impl(i, f):
        if f != f:
            return math.nan
        if f >= _TWO63:
            return -1.0
        if f < -_TWO63:
            return 1.0
        t = np.int64(f)  # truncated: exact, as |f| < 2**63
        if i != t:
            return 1.0 if i > t else -1.0
        rest = f - float(t)  # f's fraction, exact
        return -1.0 if rest > 0.0 else 1.0 if rest < 0.0 else 0.0

    return impl
