"""fp16 and bf16 on a target that has neither (issue 12): half arrays are stored as uint16 bits, and these
convert between the bits and the float32 compiled code computes in.

Numba's CPU target has no float16 type (numba#4402) and nobody has bfloat16. A half value in compiled code is a
float32 that a half can hold exactly: loads widen it (`f16_to_f32`, exact), every result NumPy would round to
half is rounded (`round_f16`: to the nearest half, ties to even, then widened again), stores narrow
(`f32_to_f16`). One operation computed in float32 and rounded once gives the correctly rounded half result
(float32 carries more than twice half's 11 bits), which is how NumPy's float16 loops and torch's bf16 kernels
compute too, so results agree bit for bit.

The conversions are integer code with selects, no branches, so LLVM vectorizes a loop of them; on a CPU with
F16C, fp16 uses the hardware conversions instead, with NumPy's NaN bits selected in (bench/precision.py).
`x.view` of a value written as `np.<dtype>(...)` compiles to a bitcast (runtime/vmath.py
says why no llvmlite intrinsic is needed for that). Rounding to a subnormal half adds 0.5 in float32, whose
unit in the last place is exactly half's smallest subnormal, so the FPU does the round-to-nearest-even.

Bit for bit (tests/precision/test_half_bits.py, all 65,536 patterns each way):
- fp16 as NumPy's `astype`: NaN payloads kept (a signalling NaN stays signalling, as in NumPy's software
  conversion; F16C hardware would quiet it), overflow to inf, subnormals, ties to even; float64 rounds once
  (`f64_to_f16`, NumPy's direct double-to-half), not through float32.
- bf16 as torch's `.to(torch.bfloat16)` on every number; a NaN becomes a quiet NaN with its sign and top
  payload bits (torch itself gives 0x7FC0 from a scalar and 0xFFFF from a vector loop).
The plain-Python functions are the same code on NumPy scalars: the meaning, and what runs without Numba.
"""

from __future__ import annotations

from typing import Any

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic, overload, register_jitable

_JIT: Any = {"error_model": "numpy", "forceinline": True, "fastmath": False, "nogil": True}


@register_jitable(**_JIT)
def _int_f16_to_f32(h):
    """The float32 equal to the half with bits `h` (a uint16)."""
    b = np.int64(h)
    sign = (b & 0x8000) << 16
    exp, sig = b & 0x7C00, b & 0x03FF
    normal = ((b & 0x7FFF) + 0x1C000) << 13  # rebias the exponent 15 -> 127
    special = 0x7F800000 | (sig << 13)  # inf, NaN with its payload
    tiny = np.int64(np.float32(np.float32(sig) * np.float32(5.9604644775390625e-08)).view(np.uint32))  # exact
    bits = special if exp == 0x7C00 else (tiny if exp == 0 else normal)
    return np.uint32(sign | bits).view(np.float32)


@register_jitable(**_JIT)
def _f32_to_f16(x):
    """The bits of the half nearest to the float32 `x`, ties to even."""
    u = np.int64(np.float32(x).view(np.uint32))
    sign = (u >> 16) & 0x8000
    a = u & 0x7FFFFFFF
    normal = (a - 0x38000000) >> 13
    rest = a & 0x1FFF
    normal = normal + ((rest > 0x1000) | ((rest == 0x1000) & ((normal & 1) == 1)))
    tiny = np.int64(np.float32(np.uint32(a).view(np.float32) + np.float32(0.5)).view(np.uint32)) - 0x3F000000
    nan = 0x7C00 | ((a >> 13) & 0x3FF)
    nan = nan | (nan == 0x7C00)  # a payload only in the dropped bits: still a NaN
    bits = nan if a > 0x7F800000 else (0x7C00 if a >= 0x477FF000 else (normal if a >= 0x38800000 else tiny))
    return np.uint16(sign | bits)


@register_jitable(**_JIT)
def _f64_to_f16(x):
    """The bits of the half nearest to the float64 `x`: one rounding, as NumPy's float64 -> float16."""
    u = np.uint64(np.float64(x).view(np.uint64))
    sign = np.int64((u >> np.uint64(48)) & np.uint64(0x8000))
    a = u & np.uint64(0x7FFFFFFFFFFFFFFF)
    # Round to odd onto float32 first (truncate, then set the last bit if anything was dropped): a second
    # rounding to nearest-even from there is exact, as float32 keeps 13 more bits than half.
    f = np.float64(np.uint64(a).view(np.float64))
    r = np.float32(f)
    rb = np.int64(np.float32(r).view(np.uint32))
    rb = rb - (np.float64(r) > f)  # rounded up: step back toward zero
    odd = rb | (np.float64(np.uint32(rb).view(np.float32)) != f)
    half = np.int64(_f32_to_f16(np.uint32(odd).view(np.float32)))
    nan = np.int64(0x7C00) | np.int64((a >> np.uint64(42)) & np.uint64(0x3FF))
    nan = nan | (nan == 0x7C00)
    bits = nan if a > np.uint64(0x7FF0000000000000) else half
    return np.uint16(sign | bits)


def bf16_to_f32(h):
    """The float32 equal to the bfloat16 with bits `h`: its top 16 bits."""
    return np.uint32(np.int64(h) << 16).view(np.float32)


@register_jitable(**_JIT)
def _f32_to_bf16(x):
    """The bits of the bfloat16 nearest to the float32 `x`, ties to even (torch's rounding)."""
    u = np.int64(np.float32(x).view(np.uint32))
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    nan = (u >> 16) | 0x40
    return np.uint16(nan if (u & 0x7FFFFFFF) > 0x7F800000 else rounded)


# bf16 in 32-bit integer operations (the code above is int64: half as many lanes per vector instruction, and a
# bf16 axpy measured 3x slower than torch.compile's). Same bits.
@intrinsic
def _narrow_bf16_i32(typingctx, x):
    if x != types.float32:
        return None

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        u = builder.bitcast(args[0], i32)
        odd = builder.and_(builder.lshr(u, ir.Constant(i32, 16)), ir.Constant(i32, 1))
        rounded = builder.lshr(builder.add(builder.add(u, ir.Constant(i32, 0x7FFF)), odd), ir.Constant(i32, 16))
        nan = builder.or_(builder.lshr(u, ir.Constant(i32, 16)), ir.Constant(i32, 0x40))
        is_nan = builder.icmp_unsigned(">", builder.and_(u, ir.Constant(i32, 0x7FFFFFFF)),
                                       ir.Constant(i32, 0x7F800000))
        return builder.trunc(builder.select(is_nan, nan, rounded), ir.IntType(16))

    return types.uint16(types.float32), codegen


@intrinsic
def _widen_bf16_i32(typingctx, h):
    if not isinstance(h, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        bits = builder.trunc(args[0], ir.IntType(16)) if h.bitwidth > 16 else args[0]
        wide = builder.shl(builder.zext(bits, i32), ir.Constant(i32, 16))
        return builder.bitcast(wide, ir.FloatType())

    return types.float32(h), codegen


# F16C (x86 since 2012) converts 8 halves per instruction, where the integer code above takes a dozen
# operations per element: measured 4x faster on a whole loop (bench/precision.md). It quiets signalling NaNs,
# which NumPy keeps, so a NaN takes the integer code's bits (a compare and a select, still vectorized).
F16C = bool(llvm.get_host_cpu_features().get("f16c"))


def _i32(value: int) -> ir.Constant:
    return ir.Constant(ir.IntType(32), value)


# F16C's conversions with NumPy's NaN bits, in 32-bit integer operations (int64 ones, as Numba types the bit
# arithmetic written in Python, halve the lanes per vector instruction: a float16 copy loop measured 0.54 ns per
# element against bf16's 0.13).
@intrinsic
def _hw_f16_to_f32(typingctx, h):
    """The float32 equal to the half with bits `h`: `fpext`, or for a NaN its payload kept (F16C quiets it)."""
    if h != types.uint16:
        return None

    def codegen(context, builder, signature, args):
        value = builder.fpext(builder.bitcast(args[0], ir.HalfType()), ir.FloatType())
        b = builder.zext(args[0], ir.IntType(32))
        sign = builder.shl(builder.and_(b, _i32(0x8000)), _i32(16))
        payload = builder.shl(builder.and_(b, _i32(0x03FF)), _i32(13))
        nan = builder.bitcast(builder.or_(builder.or_(sign, _i32(0x7F800000)), payload), ir.FloatType())
        is_nan = builder.icmp_unsigned(">", builder.and_(b, _i32(0x7FFF)), _i32(0x7C00))
        return builder.select(is_nan, nan, value)

    return types.float32(types.uint16), codegen


@intrinsic
def _hw_f32_to_f16(typingctx, x):
    """The half bits nearest to the float32 `x`: `fptrunc` (ties to even), or for a NaN NumPy's bits: the top
    payload bits kept, and at least one set (a payload only in the dropped bits is still a NaN)."""
    if x != types.float32:
        return None

    def codegen(context, builder, signature, args):
        i16 = ir.IntType(16)
        bits = builder.bitcast(builder.fptrunc(args[0], ir.HalfType()), i16)
        u = builder.bitcast(args[0], ir.IntType(32))
        nan = builder.or_(_i32(0x7C00), builder.and_(builder.lshr(u, _i32(13)), _i32(0x3FF)))
        empty = builder.zext(builder.icmp_unsigned("==", nan, _i32(0x7C00)), ir.IntType(32))
        nan = builder.or_(builder.or_(builder.and_(builder.lshr(u, _i32(16)), _i32(0x8000)), nan), empty)
        is_nan = builder.icmp_unsigned(">", builder.and_(u, _i32(0x7FFFFFFF)), _i32(0x7F800000))
        return builder.select(is_nan, builder.trunc(nan, i16), bits)

    return types.uint16(types.float32), codegen


def f16_to_f32(h):
    """The float32 equal to the half with bits `h` (a uint16)."""
    return _int_f16_to_f32(h)


@overload(bf16_to_f32, jit_options=_JIT)
def _bf16_to_f32(h):
    if isinstance(h, types.Integer):
        return lambda h: _widen_bf16_i32(h)
    return None


@overload(f16_to_f32, jit_options=_JIT)
def _f16_to_f32(h):
    if isinstance(h, types.Integer):
        return (lambda h: _hw_f16_to_f32(np.uint16(h))) if F16C else (lambda h: _int_f16_to_f32(h))
    return None


# What generated code calls: narrowing from any number (float32 rounds once; float64, ints and bools go through
# the one-rounding float64 path, as NumPy's casts do), and rounding a computed value to what a half holds.

def f16(x):
    """The fp16 bits of the number `x`."""
    return np.float16(x).view(np.uint16)


def bf16(x):
    """The bf16 bits of the number `x` (torch converts a float64 through float32, and so does this)."""
    return _f32_to_bf16(np.float32(x))


def round_f16(x):
    """`x` rounded to the nearest half, as a float32: the value NumPy's float16 result holds."""
    return f16_to_f32(f16(x))


def round_bf16(x):
    return bf16_to_f32(bf16(x))


@overload(f16, jit_options=_JIT)
def _f16(x):
    if x == types.float32:
        return (lambda x: _hw_f32_to_f16(np.float32(x))) if F16C else (lambda x: _f32_to_f16(x))
    if isinstance(x, types.Float | types.Integer | types.Boolean):
        return lambda x: _f64_to_f16(np.float64(x))
    return None


@overload(bf16, jit_options=_JIT)
def _bf16(x):
    if isinstance(x, types.Float | types.Integer | types.Boolean):
        return lambda x: _narrow_bf16_i32(np.float32(x))
    return None


@overload(round_f16, jit_options=_JIT)
def _round_f16(x):
    return lambda x: f16_to_f32(f16(x))


@overload(round_bf16, jit_options=_JIT)
def _round_bf16(x):
    return lambda x: bf16_to_f32(bf16(x))
