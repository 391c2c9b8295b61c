"""np.nextafter and np.spacing of half values, in a half's own steps.

Compiled code holds a half value as the float32 equal to it (runtime/half.py). Every other operation NumPy
gives a half for is computed in float32 and rounded once, which is NumPy's own answer; these two are about the
format's steps, and float32's are 2**13 times finer: `np.nextafter(np.float16(3), 5)` computed so is 3.0
again, and `np.spacing(np.float16(3))` is float32's 2.4e-07 where NumPy's is 0.001953. Here they step the
half's bits (NumPy's npy_half_nextafter and npy_half_spacing; for bfloat16 torch.nextafter), exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba.extending import overload, register_jitable

from .half import bf16, bf16_to_f32, f16, f16_to_f32

_JIT: Any = {"error_model": "numpy", "forceinline": True, "fastmath": False, "nogil": True}


def nextafter_f16(a, b):  # the plain-Python meaning: NumPy's own, on float16
    return np.float32(np.nextafter(np.float16(a), np.float16(b)))


def spacing_f16(x):
    return np.float32(np.spacing(np.float16(x)))


def nextafter_bf16(a, b):
    """torch.nextafter on bfloat16 values (NumPy has no bfloat16)."""
    return _next_bf16(np.float32(a), np.float32(b))


@register_jitable(**_JIT)
def _next_bits(a, b, h, hb):
    """The bits of the half after the half `a` (bits `h`) toward `b` (bits `hb`): a's magnitude steps by one
    unit up or down (the bits of a sign-magnitude format count magnitudes); from a zero, the smallest subnormal
    with b's sign."""
    if a == 0:
        return (hb & 0x8000) | 1
    return h + 1 if (b > a) == (a > 0) else h - 1


@register_jitable(**_JIT)
def _next_f16(a, b):
    if a != a or b != b:
        return np.float32(np.nan)
    if a == b:  # NumPy's half gives `a` (-0.0 toward 0.0 stays -0.0); C's nextafter, and torch's, `b`
        return a
    return f16_to_f32(np.uint16(_next_bits(a, b, np.int64(f16(a)), np.int64(f16(b)))))


@register_jitable(**_JIT)
def _next_bf16(a, b):
    if a != a or b != b:
        return np.float32(np.nan)
    if a == b:
        return b
    return bf16_to_f32(np.uint16(_next_bits(a, b, np.int64(bf16(a)), np.int64(bf16(b)))))


@register_jitable(**_JIT)
def _spacing_f16(x):
    """NumPy's half spacing: positive for negative numbers too, one binade lower at a negative power of two,
    inf after the largest half, NaN for inf and NaN."""
    h = np.int64(f16(x))
    e, sig = h & 0x7C00, h & 0x03FF
    if e == 0x7C00:
        bits = 0x7E00
    elif h == 0x7BFF:
        bits = 0x7C00
    elif (h & 0x8000) != 0 and sig == 0:
        bits = e - 0x2C00 if e > 0x2C00 else (1 << ((e >> 10) - 2) if e > 0x0400 else 1)
    else:
        bits = e - 0x2800 if e > 0x2800 else (1 << ((e >> 10) - 1) if e > 0x0400 else 1)
    return f16_to_f32(np.uint16(bits))


@overload(nextafter_f16, jit_options=_JIT)
def _nextafter_f16(a, b):
    return lambda a, b: _next_f16(np.float32(a), np.float32(b))


@overload(spacing_f16, jit_options=_JIT)
def _spacing_f16_impl(x):
    return lambda x: _spacing_f16(np.float32(x))


@overload(nextafter_bf16, jit_options=_JIT)
def _nextafter_bf16(a, b):
    return lambda a, b: _next_bf16(np.float32(a), np.float32(b))
