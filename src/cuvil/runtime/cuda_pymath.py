"""Device twins of runtime/pymath.py: `math.<name>` of numbers as a kernel computes it, without CPython's
errors (a kernel cannot raise: codegen/cuda_checks.py tests library/numpy.py's DOMAINS condition before the
call, or calls runtime/cuda_checks.py's recording twin, so these never see an argument outside the domain).

A DOMAINS function converts its argument with float() first, as the CPU helper does (math of a float32 is
float64); a MATH_RAISES function is pymath.py's own (value, k) computation compiled for the device, its value
taken (k, the error, is cuda_checks.py's to record).
"""

from __future__ import annotations

import math
import types

from numba import cuda

from ..library.numpy import DOMAINS
from . import pymath

# ruff: noqa: ANN001, ANN201 (device functions are typed by Numba at each call)


def _domain(name: str):
    function = getattr(math, name)

    @cuda.jit(device=True)
    def twin(x):
        return function(float(x))

    return twin


def _value(compute, arity: int):
    if arity == 2:
        @cuda.jit(device=True)
        def twin2(x, y):
            value, k = compute(x, y)
            return value

        return twin2

    @cuda.jit(device=True)
    def twin(x):
        value, k = compute(x)
        return value

    return twin


def _device(function):
    """pymath.py's computation for the device: with math.fmod for its `_c_fmod` (a kernel has no np.fmod)."""
    scope = {**function.__globals__, "_c_fmod": math.fmod}
    return cuda.jit(device=True)(types.FunctionType(function.__code__, scope, function.__name__))


COMPUTES = {name: _device(compute) for name, compute in pymath.COMPUTES.items()}
"""pymath.py's (value, k) of the MATH_RAISES functions, for the device (cuda_checks.py records k)."""

globals().update({name: _domain(name) for name in DOMAINS})
globals().update({name: _value(compute, pymath.COMPUTES[name].__code__.co_argcount)
                  for name, compute in COMPUTES.items()})
ulp, frexp, hypot = _device(pymath.ulp_of), _device(pymath.frexp_of), _device(pymath.hypot_of)


@cuda.jit(device=True)
def floor_float(x):  # a kernel has no np.floor; x less its fraction (fmod's, exact) is x rounded toward zero
    if not math.isfinite(x):
        return x
    whole = x - math.fmod(x, 1.0)
    return whole - 1.0 if whole > x else whole


@cuda.jit(device=True)
def ceil_float(x):
    if not math.isfinite(x):
        return x
    whole = x - math.fmod(x, 1.0)
    return whole + 1.0 if whole < x else whole

NAMES = frozenset(n for n, v in dict(globals()).items() if hasattr(v, "py_func"))
