"""Device twins of runtime/pymath.py: `math.<name>` of a float as a kernel computes it, without CPython's
errors (a kernel cannot raise: codegen/cuda_checks.py tests library/numpy.py's DOMAINS condition before the
call, or calls runtime/cuda_checks.py's recording twin, so these never see an argument outside the domain).
Each converts its argument with float() first, as the CPU helper does (math of a float32 is float64).
"""

from __future__ import annotations

import math

from numba import cuda

# ruff: noqa: ANN001, ANN201 (device functions are typed by Numba at each call)

@cuda.jit(device=True)
def sqrt(x):
    return math.sqrt(float(x))

@cuda.jit(device=True)
def log(x):
    return math.log(float(x))

@cuda.jit(device=True)
def log10(x):
    return math.log10(float(x))

@cuda.jit(device=True)
def log2(x):
    return math.log2(float(x))

@cuda.jit(device=True)
def log1p(x):
    return math.log1p(float(x))

@cuda.jit(device=True)
def acos(x):
    return math.acos(float(x))

@cuda.jit(device=True)
def asin(x):
    return math.asin(float(x))

@cuda.jit(device=True)
def acosh(x):
    return math.acosh(float(x))

@cuda.jit(device=True)
def atanh(x):
    return math.atanh(float(x))

@cuda.jit(device=True)
def exp(x):
    return math.exp(float(x))

@cuda.jit(device=True)
def expm1(x):
    return math.expm1(float(x))

@cuda.jit(device=True)
def cosh(x):
    return math.cosh(float(x))

@cuda.jit(device=True)
def sinh(x):
    return math.sinh(float(x))


NAMES = frozenset(n for n, v in dict(globals()).items() if hasattr(v, "py_func"))
