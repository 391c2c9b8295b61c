"""exp, log, tanh, erf and sigmoid for float32 and float64 that LLVM vectorizes inside the lowered loops, and
the NaN-propagating maximum and minimum a vectorized reduction needs (issue 9 §7; lower/math.py chooses).

Why not `np.exp` in the loop: Numba calls libm per element (pip's llvmlite has no SVML), so a fused loop runs
at libm speed, 5-10x below NumPy's own SIMD loops. These are polynomials and rationals in plain arithmetic
(coefficients in runtime/vmath_coefficients.py), with 2**k built from its bits: `np.int32(..).view(np.float32)`
compiles to the same vector code as an llvmlite bitcast intrinsic (measured: the same <16 x float> loop, 2.15
against 2.18 ms for 4M float32) and needs no LLVM code of our own; Numba accepts `.view` only on a value
written as `np.<dtype>(...)`. Every special case is a select, not a branch, so each is straight-line code.

Each is compiled with `error_model="numpy"` (a Python-semantics division has a ZeroDivisionError branch that
stops vectorization) and `forceinline=True` (LLVM's inliner otherwise leaves tanh and erf as calls once they
outgrow its threshold, and a call is never vectorized), and with `fastmath=False` set explicitly, so that a
`fastmath=True` caller does not pass its flags on: the results do not change with the caller's options.

Each is a Numba function cached on disk (`cache=True`), not an overload: an overload is compiled anew in every
process, and again for every caller's flags (a parallel caller's), 0.1-0.4 s each of a first call (exp_f32
0.39 s, tanh_f32 0.16 s measured under load), where a cached function is loaded in milliseconds. Inlining, and so
vectorization, is unchanged: Numba keeps a cached function's bitcode and links it into each caller before the
caller's module is optimized. Each takes one dtype only (`_exactly`): a float64 never silently goes through
float32 arithmetic. The constants of runtime/vmath_coefficients.py are compiled into the cached code, which Numba
keys by this file's modification time: touch this file after changing them.

NaN, infinities, signed zeros, overflow, underflow and subnormals behave as in NumPy. The error bounds, and
which function is used by default, are in lower/math.py and measured by tests/lower/test_math.py. Each means
NumPy's function of its name for its dtype (erf: CPython's math.erf, rounded once to float32).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic, register_jitable

from . import vmath_coefficients as C

# Every flag set here: an unset one is inherited from the calling function (Numba's ConfigStack), and a
# fastmath caller would reassociate the two-step 2**k scaling (subnormals become 0) and the log's reduction.
_JIT: Any = {"error_model": "numpy", "forceinline": True, "fastmath": False, "nogil": True}
F32 = np.float32
F64 = np.float64
_INF32, _NAN32 = F32(np.inf), F32(np.nan)
_INF64, _NAN64 = F64(np.inf), F64(np.nan)


@intrinsic
def fma(typingctx, a, b, c):
    """a * b + c rounded once (llvm.fma). Numba contracts nothing without fastmath; a fused step is one rounding
    instead of two, so a float32 polynomial keeps about 1 ulp where separate steps lose 3-5, and it is one
    instruction on every x86-64 CPU with FMA (a libm call elsewhere: slower, the same result)."""
    if not (isinstance(a, types.Float) and a == b == c):
        return None

    def codegen(context, builder, sig, args):
        ty = context.get_value_type(sig.return_type)
        fn = builder.module.declare_intrinsic("llvm.fma", [ty], ir.FunctionType(ty, [ty, ty, ty]))
        return builder.call(fn, args)

    return a(a, b, c), codegen


@register_jitable(**_JIT)
def horner(c, v):
    """c[0] + c[1] v + c[2] v**2 ...: a loop over a constant tuple, fully unrolled and folded by LLVM."""
    p = c[len(c) - 1]
    for j in range(len(c) - 2, -1, -1):
        p = fma(p, v, c[j])
    return p


@register_jitable(**_JIT)
def _scale_f32(y, kf):
    """y * 2**kf for an integral kf in [-252, 254], as two factors so that a subnormal result rounds once."""
    k = np.int32(kf)
    k1 = k >> 1
    return y * np.int32((k1 + 127) << 23).view(np.float32) * np.int32((k - k1 + 127) << 23).view(np.float32)


@register_jitable(**_JIT)
def _scale_f64(y, kf):
    k = np.int64(kf)
    k1 = k >> 1
    return y * np.int64((k1 + 1023) << 52).view(np.float64) * np.int64((k - k1 + 1023) << 52).view(np.float64)


@intrinsic
def _exactly(typingctx, x, dtype):
    """`x`, where it is of `dtype`; a typing error where not."""
    if not (isinstance(dtype, types.NumberClass) and x == dtype.instance_type):
        return None
    return x(x, dtype), lambda context, builder, sig, args: args[0]


@njit(cache=True, **_JIT)
def exp_f32(x):
    x = _exactly(x, F32)
    # Clamped so that 2**k stays within two float32 factors; -104 and 89 already give 0 and inf. Each clamp is
    # written so that a NaN passes it (one vmaxps/vminps) and every step after, where a clamp that caught NaN
    # needed a compare and a blend to put it back. The reduction's two fused steps change 141 of the 2**32
    # results and neither worst error (3 from NumPy, 0.986 ulp from exact); the polynomial's last steps stay
    # separate (fused: 1.013 ulp from exact). 0.34 against 0.41 ns/element in L1.
    xc = F32(-104.0) if x < F32(-104.0) else x
    xc = F32(89.0) if xc > F32(89.0) else xc
    kf = np.rint(xc * C.LOG2E32)
    r = fma(kf, -C.LN2_LO32, fma(kf, -C.LN2_HI32, xc))
    y = (r * r * horner(C.EXP32, r) + r) + F32(1.0)
    return _scale_f32(y, kf)


@njit(cache=True, **_JIT)
def exp_f64(x):
    x = _exactly(x, F64)
    xc = -746.0 if x < -746.0 else x  # NaN passes, as in exp_f32
    xc = 710.0 if xc > 710.0 else xc
    kf = np.rint(xc * C.LOG2E64)
    r = fma(kf, -C.LN2_LO64, fma(kf, -C.LN2_HI64, xc))
    y = (r * r * horner(C.EXP64, r) + r) + 1.0
    return _scale_f64(y, kf)


@njit(cache=True, **_JIT)
def log_f32(x):
    x = _exactly(x, F32)
    # x = 2**k * m, m in [sqrt(1/2), sqrt(2)): the bias is added first so that k and m come from the bits
    # directly; subnormals are scaled by 2**23 first.
    tiny = x < F32(1.1754943508222875e-38)
    xs = x * F32(8388608.0) if tiny else x
    bias = F32(150.0) if tiny else F32(127.0)
    ix = np.int64(np.float32(xs).view(np.int32)) + (0x3F800000 - 0x3F3504F3)
    kf = F32(ix >> 23) - bias
    f = np.int32((ix & 0x7FFFFF) + 0x3F3504F3).view(np.float32) - F32(1.0)
    s = f / (F32(2.0) + f)
    z = s * s
    hfsq = F32(0.5) * f * f
    y = s * (hfsq + z * horner(C.LOG32, z)) + kf * C.LN2_LO32 - hfsq + f + kf * C.LN2_HI32
    y = y if x < _INF32 else x  # inf and NaN
    y = -_INF32 if x == F32(0.0) else y
    return _NAN32 if x < F32(0.0) else y


@njit(cache=True, **_JIT)
def log_f64(x):
    x = _exactly(x, F64)
    tiny = x < 2.2250738585072014e-308
    xs = x * 4503599627370496.0 if tiny else x
    bias = 1075.0 if tiny else 1023.0
    ix = np.float64(xs).view(np.int64) + (0x3FF0000000000000 - 0x3FE6A09E667F3BCD)
    kf = F64(ix >> 52) - bias
    f = np.int64((ix & 0xFFFFFFFFFFFFF) + 0x3FE6A09E667F3BCD).view(np.float64) - 1.0
    s = f / (2.0 + f)
    z = s * s
    hfsq = 0.5 * f * f
    y = s * (hfsq + z * horner(C.LOG64, z)) + kf * C.LN2_LO64 - hfsq + f + kf * C.LN2_HI64
    y = y if x < _INF64 else x
    y = -_INF64 if x == 0.0 else y
    return _NAN64 if x < 0.0 else y


@njit(cache=True, **_JIT)
def sigmoid_f32(x):
    x = _exactly(x, F32)
    return F32(1.0) / (F32(1.0) + exp_f32(-x))


@njit(cache=True, **_JIT)
def sigmoid_f64(x):
    x = _exactly(x, F64)
    return 1.0 / (1.0 + exp_f64(-x))


@intrinsic
def _llvm_extreme(typingctx, a, b, which):
    """llvm.maximum / llvm.minimum: NaN if either is NaN, and -0 < +0. LLVM vectorizes a reduction through
    them (a `vector.reduce.fmaximum`); `max(m, x)` and every select form measured here stay scalar.

    llvm.maxnum / llvm.minnum (`which` "maxnum", "minnum") under `nnan nsz`: one vmaxps, and a reduction through
    it vectorizes to one per 16 float32 where llvm.maximum's NaN and signed-zero ordering cost three times as
    much in L1 (measured 0.025 against 0.080 ns per element). A NaN operand makes the result undefined (poison):
    only a reduction that counts its NaNs and replaces the result when there was one may use it
    (lower/reductions.py)."""
    if not (isinstance(a, types.Float) and a == b and isinstance(which, types.StringLiteral)):
        return None
    name = "llvm." + which.literal_value
    flags = ("nnan", "nsz") if which.literal_value in ("maxnum", "minnum") else ()

    def codegen(context, builder, sig, args):
        ty = context.get_value_type(sig.return_type)
        fn = builder.module.declare_intrinsic(name, [ty], ir.FunctionType(ty, [ty, ty]))
        return builder.call(fn, args[:2], fastmath=flags)

    return a(a, b, which), codegen


@njit(cache=True, **_JIT)
def maximum(a, b):  # np.maximum of two floats of one type: NaN wins
    return _llvm_extreme(a, b, "maximum")


@njit(cache=True, **_JIT)
def minimum(a, b):
    return _llvm_extreme(a, b, "minimum")


@njit(cache=True, **_JIT)
def maximum_nonan(a, b):  # a reduction's step whose caller counts the NaNs apart: either zero of two zeros
    return _llvm_extreme(a, b, "maxnum")


@njit(cache=True, **_JIT)
def minimum_nonan(a, b):
    return _llvm_extreme(a, b, "minnum")


@njit(cache=True, **_JIT)
def tanh_f32(x):
    x = _exactly(x, F32)
    # tanh(t) = e / (e + 2), e = expm1(2t), t = |x| clamped where float32's tanh is 1: one path for every input,
    # where a polynomial below 0.8 and 1 - 2 / (exp(2t) + 1) above computed both and chose (1.05 ulp from exact,
    # 0.49 ns/element in L1). expm1 is exp's reduction and polynomial, 2**k (1 + q) - 1 rounded once by a fused
    # step; e + 2 and the division round once each, so the error is up to 2.4 ulp (tests/lower/test_math.py's
    # exhaustive run), within NumPy's 4 and glibc's tanhf's 2-3, at 0.30 ns/element: the serial GELU's tanh
    # was two thirds of its time. ±0 and NaN pass through (0 / 2; NaN), the sign is a copysign.
    a = abs(x)
    t = C.TANH_CLAMP32 if a > C.TANH_CLAMP32 else a
    u = t + t
    kf = np.rint(u * C.LOG2E32)
    r = fma(kf, -C.LN2_LO32, fma(kf, -C.LN2_HI32, u))
    q = fma(r * r, horner(C.EXP32, r), r)  # expm1(r), |r| <= ln 2 / 2
    s = np.int32((np.int32(kf) + 127) << 23).view(np.float32)  # 2**k, k in [0, 27]
    e = fma(s, q, s - F32(1.0))
    return math.copysign(e / (e + F32(2.0)), x)


@njit(cache=True, **_JIT)
def tanh_f64(x):
    x = _exactly(x, F64)
    # A polynomial near 0; 1 - 2 / (exp(2|x|) + 1) beyond, where the cancellation is mild (tanh > 0.66).
    t = abs(x)
    z = x * x
    small = x + x * (z * horner(C.TANH64, z))
    big = 1.0 - 2.0 / (exp_f64(t + t) + 1.0)
    big = -big if x < 0.0 else big
    y = small if t < C.TANH_SMALL64 else big
    return x if x == 0.0 else y


@njit(cache=True, **_JIT)
def erf_f32(x):
    x = _exactly(x, F32)
    # As tanh: below 1, x + x P(z), a correction of at most 0.13 of the result. Above, 1 - 2**V(|x|), V fitted to
    # log2(erfc(x)), where erfc/erf < 0.19 scales the errors down: 2**k from the bits, 2**f a polynomial. The
    # fraction f = V - k is taken from the last Horner step, fma(p, t, -k) + V0, not from V rounded (which cost
    # 0.14 ulp at x = 1, where |V| > 2). No division (the rational exp(x**2) erfc(x) before had one) and no
    # Cody-Waite step; the small branch keeps +-0 and NaN (quieted), so one select ends it, and the sign is a
    # copysign: 0.99 against 1.21 ulp from exact, 0.44 against 0.63 ns/element (2M float32, same run).
    a = abs(x)
    small = fma(x, horner(C.ERF_SMALL32, x * x), x)
    t = a if a < C.ERF_CLAMP32 else C.ERF_CLAMP32
    p = horner(C.ERFC_LOG2_32[1:], t)
    kf = np.rint(fma(p, t, C.ERFC_LOG2_32[0]))  # in [-26, -2]
    f = fma(p, t, -kf) + C.ERFC_LOG2_32[0]
    e = F32(fma(f, horner(C.EXP2_32, f), F32(1.0)))  # 2**f in [0.7, 1.42]; times 2**k stays normal, so k is
    e = np.int32(e.view(np.int32) + (np.int32(kf) << 23)).view(np.float32)  # added to its exponent bits
    return math.copysign(F32(1.0) - e, x) if a >= F32(1.0) else small


@njit(cache=True, **_JIT)
def erf_f64(x):
    x = _exactly(x, F64)
    # A polynomial near 0; 1 - exp(-t**2) * P(t) / Q(t) beyond, t clamped where erf is 1 (NaN kept).
    t = abs(x)
    z = x * x
    small = x + x * horner(C.ERF64, z)
    tc = C.ERFC_CLAMP64 if t > C.ERFC_CLAMP64 else t
    big = 1.0 - exp_f64(-(tc * tc)) * (horner(C.ERFC_P64, tc) / horner(C.ERFC_Q64, tc))
    big = -big if x < 0.0 else big
    return small if t < C.ERF_SMALL else big
