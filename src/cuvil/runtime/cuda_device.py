"""Device functions a generated CUDA kernel calls: the CUDA twins of the CPU helpers the lowering emits
(runtime/elementwise.py, vmath.py, intrinsics.py) and the error slot of codegen/cuda.py.

The CPU helpers are `@overload`s for Numba's CPU target, which numba.cuda cannot call, so each has a device
function of the same name here (codegen/launch.py binds these names in the kernels' module and the CPU ones
for the host launcher). They keep NumPy's meaning where it costs nothing (an integer `// 0` is 0, NaN wins
in maximum); what a CPU helper raises, a kernel cannot (see cuda_runtime.py for how kernels report errors).
"""

from __future__ import annotations

import math

import numpy as np
from numba import cuda

from .cuda_runtime import CODES
from .elementwise import _C_CAST_WRAPS

# ruff: noqa: ANN001, ANN201 (device functions are typed by Numba at each call)


@cuda.jit(device=True)
def record_error(slots, iteration, code):
    """The lowest failing iteration and its code win: Python raises at the first."""
    cuda.atomic.min(slots, 0, iteration * CODES + code)


@cuda.jit(device=True)
def record_error_values(slots, iteration, code, a, b):
    """record_error, with the two values of its message (a bounds check's index and size). Two failing
    threads may both lower the slot; the values written are those of the lowest one, under a lock
    (slots[3]; independent thread scheduling, compute capability 7.0 and up, lets a warp's threads spin on
    it), so the message is the one Python's first failing iteration gives."""
    packed = iteration * CODES + code
    if packed < cuda.atomic.min(slots, 0, packed):
        while cuda.atomic.cas(slots, 3, 0, 1) != 0:
            pass
        if packed < slots[4]:
            slots[1] = a
            slots[2] = b
            slots[4] = packed
        cuda.threadfence()
        cuda.atomic.exch(slots, 3, 0)


@cuda.jit(device=True)
def index(i, n, axis):  # runtime/checks.index: a kernel cannot raise its IndexError (not checked on the GPU)
    return i


@cuda.jit(device=True)
def true_divide(a, b):
    return a / b


@cuda.jit(device=True)
def left_shift(a, b):  # runtime/elementwise.py: every bit shifted out for a count of 64 or more, or a negative one
    if b < 0 or b >= 64:
        return a ^ a
    return a << b


@cuda.jit(device=True)
def right_shift(a, b):
    if b < 0 or b >= 64:
        return (a >> 63) if a < 0 else a ^ a
    return a >> b


@cuda.jit(device=True)
def signed_unsigned_cmp(s, u):  # runtime/elementwise.py: the sign of s - u, exactly
    if s < 0:
        return -1
    v = np.uint64(s)
    return -1 if v < u else 1 if v > u else 0


@cuda.jit(device=True)
def floor_divide(a, b):
    if b == 0 and isinstance(a, int):  # numba folds this per type
        return a - a
    return a // b


@cuda.jit(device=True)
def remainder(a, b):
    return a % b


@cuda.jit(device=True)
def power(a, b):
    return a ** b


@cuda.jit(device=True)
def py_pow(base, exp):
    return base ** exp


@cuda.jit(device=True)
def fmod(a, b):
    return math.fmod(a, b)


@cuda.jit(device=True)
def sign(a):
    return (a > 0) - (a < 0)


@cuda.jit(device=True)
def python_int_as(value, dtype):
    return dtype(value)


@cuda.jit(device=True)
def numpy_int_as(value, dtype):
    return dtype(value)


@cuda.jit(device=True)
def _x86_int64(v):
    if -9.223372036854775808e18 <= v < 9.223372036854775808e18:
        return np.int64(v)
    return np.int64(-9223372036854775808)


@cuda.jit(device=True)
def float_as_unsigned(value, dtype):  # the host NumPy's C cast (runtime/elementwise.float_as_unsigned)
    if not _C_CAST_WRAPS:
        return dtype(value)
    v = np.float64(value)
    if dtype(np.uint64(65536)) == 0:  # uint8, uint16: the low bits of the int32 conversion
        if -2147483648.0 <= v < 2147483648.0:
            return dtype(np.int32(v))
        return dtype(0)
    if dtype(np.uint64(4294967296)) == 0:  # uint32: the low half of the int64 conversion
        return dtype(np.uint64(_x86_int64(v)) & np.uint64(0xFFFFFFFF))
    if v >= 9.223372036854775808e18:
        return dtype(np.uint64(_x86_int64(v - 9.223372036854775808e18)) ^ np.uint64(9223372036854775808))
    return dtype(np.uint64(_x86_int64(v)))


@cuda.jit(device=True)
def maximum(a, b):  # np.maximum: NaN wins
    if a != a:
        return a
    if b != b:
        return b
    return a if a >= b else b


@cuda.jit(device=True)
def minimum(a, b):
    if a != a:
        return a
    if b != b:
        return b
    return a if a <= b else b


@cuda.jit(device=True)
def maximum_nonan(a, b):  # the caller counts NaNs apart (runtime/vmath.py)
    return a if a >= b else b


@cuda.jit(device=True)
def minimum_nonan(a, b):
    return a if a <= b else b


@cuda.jit(device=True)
def add_any_order(acc, v):  # runtime/reorder.py: on the CPU, a sum LLVM may vectorize; a thread adds in order
    return acc + v


@cuda.jit(device=True)
def exp_f32(x):
    return math.exp(x)


@cuda.jit(device=True)
def exp_f64(x):
    return math.exp(x)


@cuda.jit(device=True)
def log_f32(x):
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


@cuda.jit(device=True)
def log_f64(x):
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


@cuda.jit(device=True)
def tanh_f32(x):
    return math.tanh(x)


@cuda.jit(device=True)
def tanh_f64(x):
    return math.tanh(x)


@cuda.jit(device=True)
def erf_f32(x):
    return math.erf(x)


@cuda.jit(device=True)
def erf_f64(x):
    return math.erf(x)


@cuda.jit(device=True)
def sigmoid_f32(x):
    return 1 / (1 + math.exp(-x))


@cuda.jit(device=True)
def sigmoid_f64(x):
    return 1.0 / (1.0 + math.exp(-x))


NAMES = frozenset(n for n, v in dict(globals()).items() if hasattr(v, "py_func")
                  and n not in ("record_error", "record_error_values"))
