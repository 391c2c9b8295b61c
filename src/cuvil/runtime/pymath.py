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

from numba import njit
from numba.extending import overload

from ..library.numpy import DOMAINS


def _stub(name: str):
    function = getattr(math, name)

    def call(x):
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
    def typed(x):
        def impl(x):
            v = float(x)
            if fails(v):
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
