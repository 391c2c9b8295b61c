"""Elementwise operations with NumPy's meaning, for loops the lowering made from array expressions.

In an array expression NumPy never raises for a value: `x / 0.0` is inf, `0.0 / 0.0` nan, an integer `// 0`
is 0 (each with a RuntimeWarning). A Numba function compiled for Python's scalar semantics (its default
`error_model="python"`) raises ZeroDivisionError instead, so the lowered loops call these, compiled with
`error_model="numpy"`; LLVM inlines them and still vectorizes the loop. Integers to negative integer powers
raise NumPy's ValueError, as NumPy does for arrays.

`broadcast_shape(shapes)` is the shape operands broadcast to, with NumPy's error (its shapes, word for word).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from . import wrapping
from .messages import NOT_BROADCAST, raise_shapes
from .pyint import nonfinite
from .where import located

_NUMPY: Any = {"error_model": "numpy", "nogil": True}


def true_divide(a, b):  # the plain-Python meaning: NumPy's own
    return np.true_divide(a, b)


def left_shift(a, b):
    return np.left_shift(a, b)


def right_shift(a, b):
    return np.right_shift(a, b)


def round_integer(x, n):
    """round(x, n) of a NumPy integer: NumPy's, in x's dtype (a negative n rounds x / 10**-n as a float64 half
    to even and scales back, wrapping into the dtype: round(np.uint8(255), -1) is 4)."""
    return round(x, n)


def signed_unsigned_cmp(s, u):
    """The sign of s - u for a signed integer and a uint64, exactly: NumPy compares them by value, where their
    common type (and Numba's comparison) is float64, equal for 2**63 - 1 and 2**63."""
    return (int(s) > int(u)) - (int(s) < int(u))


def floor_divide(a, b):
    return np.floor_divide(a, b)


def remainder(a, b):
    return np.remainder(a, b)


def power(a, b):
    return np.power(a, b)


def divmod_(a, b):
    """`divmod()` of NumPy scalars is NumPy's divmod (np.float32.__divmod__): its dtype, no ZeroDivisionError."""
    return np.divmod(a, b)


def python_int_as(value, dtype, at=0):
    """A Python int taking part in an operation with a NumPy integer of `dtype`: NumPy 2 refuses one the dtype
    cannot hold (OverflowError) instead of wrapping it."""
    info = np.iinfo(dtype)
    if not info.min <= value <= info.max:
        raise OverflowError(f"Python integer {value} out of bounds for {np.dtype(dtype).name}")
    return dtype(value)


def numpy_int_as(value, dtype, at=0):
    """A NumPy integer stored into a signed integer array: NumPy's setitem takes it as a Python int, then a C long
    ("Python int too large to convert to C long": a uint64 above 2**63 - 1), then checks the dtype's range.
    Unsigned arrays take any integer modulo their size, as a cast does."""
    if int(value) > 2**63 - 1:
        raise OverflowError(_TOO_LARGE)
    return python_int_as(int(value), dtype, at)


def python_float_as(value, dtype, at=0):
    """A Python float stored into a NumPy integer array (or given to its dtype's constructor): NumPy 2 takes
    `int(value)` (ValueError for nan, OverflowError for infinities) and refuses what the dtype cannot hold."""
    whole = int(value)
    if not -2**63 <= whole < (2**64 if np.dtype(dtype) == np.uint64 else 2**63):
        raise OverflowError(_TOO_LARGE)
    return python_int_as(whole, dtype)


def float_as_unsigned(value, dtype):
    """A NumPy float stored into an unsigned integer array: NumPy's C cast, which for a value the dtype cannot
    hold (NumPy warns "invalid value encountered in cast") is whatever the machine's conversion gives. On x86
    that wraps a negative value (-2.0 stores 2**64 - 2; into uint8, 254) and gives 0 for what int32 (uint8, uint16)
    or int64 cannot hold, where Numba's AVX-512 conversion saturates (2**64 - 1, 255)."""
    with np.errstate(invalid="ignore"):
        return np.array(value).astype(dtype)[()]


def clip_low(value, dtype, at=0):
    """np.clip's lower bound, a Python int, for an integer array: NumPy 2 drops one at or below the dtype's least
    value (nothing lies below it) and takes any other as an operand (OverflowError above the greatest)."""
    return dtype(np.iinfo(dtype).min) if value <= np.iinfo(dtype).min else python_int_as(value, dtype, at)


def clip_high(value, dtype, at=0):
    """np.clip's upper bound, a Python int: dropped at or above the dtype's greatest value, else an operand."""
    return dtype(np.iinfo(dtype).max) if value >= np.iinfo(dtype).max else python_int_as(value, dtype, at)


def fmod(a, b):
    return np.fmod(a, b)


def sign(a):
    return np.sign(a)


def numpy_refuses(operand, message, at=0):
    """An operation NumPy has no loop for (`bool - bool`): NumPy's TypeError, when it runs."""
    raise TypeError(message)


def broadcast_shape(shapes, at=0):
    """The shape operands of these shapes (a tuple of shape tuples) broadcast to; NumPy's ValueError, word for
    word, when they do not."""
    return np.broadcast_shapes(*shapes)


@overload(left_shift, jit_options=_NUMPY)
def _left_shift(a, b):
    """NumPy shifts out every bit for a count of 64 or more, or a negative one; Numba's shift is the CPU's, which
    takes the count modulo 64 (`np.int64(1) << 64` was 1). Counts up to 63 shift the 64-bit value Numba
    computes in, which the casts pass wraps to NumPy's dtype (`np.int8(1) << 8` is 0)."""
    if not (isinstance(a, types.Integer | types.Boolean) and isinstance(b, types.Integer | types.Boolean)):
        return None
    if isinstance(a, types.Boolean) or isinstance(b, types.Boolean):  # NumPy shifts bools as int64s
        return lambda a, b: left_shift(np.int64(a), np.int64(b))

    def impl(a, b):
        if b < 0 or b >= 64:
            return a ^ a
        return a << b

    return impl


@overload(right_shift, jit_options=_NUMPY)
def _right_shift(a, b):
    """A count of 64 or more, or a negative one: the sign's bits (-1 or 0), as NumPy."""
    if not (isinstance(a, types.Integer | types.Boolean) and isinstance(b, types.Integer | types.Boolean)):
        return None
    if isinstance(a, types.Boolean) or isinstance(b, types.Boolean):
        return lambda a, b: right_shift(np.int64(a), np.int64(b))

    def impl(a, b):
        if b < 0 or b >= 64:
            return (a >> 63) if a < 0 else a ^ a
        return a >> b

    return impl


@overload(round_integer, jit_options={"nogil": True})
def _round_integer(x, n):
    if not isinstance(x, types.Integer):
        return None
    cast = getattr(np, str(x))
    # NumPy's C cast of the float: through a 32-bit int below 32 bits (out of range: INT32_MIN on x86), 64 bits
    # for uint32, then truncated to the dtype
    wide = {"uint32": np.int64, "int64": np.int64, "uint64": np.uint64}.get(str(x), np.int32)

    def impl(x, n):
        if n >= 0:
            return x
        f = 10.0 ** (-n)
        y = np.rint(np.float64(x) / f) * f
        if y >= 18446744073709551616.0:  # 2**64: NumPy's uint64 cast subtracts 2**63 first and gets 0
            return cast(0)
        return cast(wide(y))

    return impl


@overload(signed_unsigned_cmp, jit_options={"nogil": True})
def _signed_unsigned_cmp(s, u):
    if isinstance(s, types.Array) or isinstance(u, types.Array):
        return _signed_unsigned_cmp_arrays

    def impl(s, u):
        if s < 0:
            return -1
        v = np.uint64(s)
        return -1 if v < u else 1 if v > u else 0

    return impl


def _signed_unsigned_cmp_arrays(s, u):
    """The signs for arrays, broadcast: a comparison the Plan left whole (one inside a tuple) reaches NumPy's
    ufunc in Numba, whose loop for int64 with uint64 is float64's."""
    a, b = np.asarray(s), np.asarray(u)
    shape = np.broadcast_shapes(a.shape, b.shape)
    a, b = np.broadcast_to(a, shape), np.broadcast_to(b, shape)
    out = np.empty(shape, np.int8)
    for at in np.ndindex(shape):
        out[at] = signed_unsigned_cmp(a[at], b[at])
    return out


@overload(true_divide, jit_options=_NUMPY)
def _true_divide(a, b):
    if isinstance(a, types.Complex) or isinstance(b, types.Complex):
        return _complex_divide(a, b)
    return lambda a, b: a / b


def _complex_divide(a, b):
    """NumPy's complex division (Smith's, as its loops and scalars do it): a zero divisor gives infinities and
    NaNs, where Numba raises ZeroDivisionError, and the rounding is NumPy's."""
    # NumPy's result type: complex64 with complex64, float32 or narrow ints; complex128 with a float64 or int32+
    # (np.float64(1.1) / np.complex64(1+2j) is a complex128). A weak Python number the casts pass converted.
    narrow = np.result_type(*(np.dtype(str(t)) for t in (a, b))) == np.complex64
    part = np.float32 if narrow else np.float64
    make = np.complex64 if narrow else np.complex128

    def impl(a, b):
        ar, ai, br, bi = part(a.real), part(a.imag), part(b.real), part(b.imag)
        abs_br, abs_bi = abs(br), abs(bi)
        if abs_br >= abs_bi:
            if abs_br == 0 and abs_bi == 0:
                return make(complex(ar / abs_br, ai / abs_br))
            rat = bi / br
            scl = part(1.0) / (br + bi * rat)
            return make(complex((ar + ai * rat) * scl, (ai - ar * rat) * scl))
        rat = br / bi
        scl = part(1.0) / (bi + br * rat)
        return make(complex((ar * rat + ai) * scl, (ai * rat - ar) * scl))

    return impl


def _integer_arrays(into, a, b):
    """`floor_divide(a, b)` and its kind on integer arrays that reach Numba unlowered (`np.fmod(a, b)` in a
    returned tuple): Numba's own array loops are not NumPy's (runtime/division_into.py), so each element goes
    through the scalar kernel, into a new array of NumPy's dtype. None for anything else."""
    kinds = [t.dtype if isinstance(t, types.Array) else t for t in (a, b)]
    if not any(isinstance(t, types.Array) for t in (a, b)) or not all(isinstance(k, types.Integer) for k in kinds):
        return None
    dtype = np.promote_types(*(np.dtype(str(k)) for k in kinds))

    def impl(a, b):
        shape = np.broadcast_shapes(np.shape(a), np.shape(b))
        return into(np.empty(shape, dtype), a, b)

    return impl


@overload(floor_divide, jit_options=_NUMPY)
def _floor_divide(a, b):
    from .division_into import floor_divide_into  # it loops over these kernels

    arrays = _integer_arrays(floor_divide_into, a, b)
    if arrays is not None:
        return arrays
    if isinstance(a, types.Integer) and isinstance(b, types.Integer) and a.signed and b.signed:
        def integers(a, b):  # NumPy's INT_MIN // -1 is INT_MIN (wrapped, with a warning); Numba's is 0
            if b == -1:
                return -a
            return a // b

        return integers
    return lambda a, b: a // b


@overload(remainder, jit_options=_NUMPY)
def _remainder(a, b):
    from .division_into import remainder_into

    arrays = _integer_arrays(remainder_into, a, b)
    if arrays is not None:
        return arrays
    return lambda a, b: a % b


@overload(divmod_, jit_options=_NUMPY)
def _divmod(a, b):
    # The lowering converted both operands to NumPy's loop dtype; Numba computes integers narrower than 64
    # bits in int64, so both halves are narrowed back to it (wrapping as NumPy's do).
    dtype = a if a == b and isinstance(a, types.Integer | types.Float) else None
    if dtype is None:
        return lambda a, b: (floor_divide(a, b), remainder(a, b))
    return lambda a, b: (dtype(floor_divide(a, b)), dtype(remainder(a, b)))


@overload(power, jit_options=_NUMPY)
def _power(a, b):
    if isinstance(a, types.Integer) and isinstance(b, types.Integer):
        # Squaring in NumPy's dtype, wrapping at each product, as NumPy's integer power does. Numba's own `**`
        # computes in int64 and gives INT64_MIN for a large exponent (3 ** 65537), so its low bits are wrong.
        dtype = numba.from_dtype(np.promote_types(np.dtype(str(a)), np.dtype(str(b))))

        def integers(a, b):
            if b < 0:
                raise ValueError("Integers to negative integer powers are not allowed.")
            result, base, e = dtype(1), dtype(a), b
            while e:  # (wrapping.mul: Numba's int64 `*` is `nsw`, and LLVM may assume it does not wrap)
                if e & 1:
                    result = dtype(wrapping.mul(result, base))
                base = dtype(wrapping.mul(base, base))
                e >>= 1
            return result

        return integers
    if isinstance(a, types.Complex) or isinstance(b, types.Complex):
        # NumPy's complex power of 0: 1 for an exponent 0, 0 for one with a positive real part (whatever its
        # imaginary part), nan+nanj otherwise; Numba's exp(b log 0) is nan+nanj for all but 0 ** 0
        make = np.complex64 if np.result_type(np.dtype(str(a)), np.dtype(str(b))) == np.complex64 \
            else np.complex128

        def complexes(a, b):
            if a == 0 and b != 0:
                return make(0) if b.real > 0 else make(complex(np.nan, np.nan))
            return make(a ** b)

        return complexes
    return lambda a, b: a ** b


def _raise_int_out_of_bounds(value, dtype, at):
    text = f"Python integer {value} out of bounds for {_INT_NAMES[dtype]}"
    raise located(OverflowError, text, at)


_INT_NAMES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_TOO_LARGE = "Python int too large to convert to C long"


@numba.njit("void(int64, int64, int64)", cache=True)
def _int_out_of_bounds(value, dtype, at):
    """Compiled once and cached, its message built in Python (object mode; runtime/messages.py says why)."""
    with numba.objmode():
        _raise_int_out_of_bounds(value, dtype, at)


def _int_range(dtype):
    """The integer dtype a `dtype` argument names (a NumberClass or a type), its bounds and its name's code."""
    target = np.dtype(str(dtype.dtype if isinstance(dtype, types.NumberClass) else dtype))
    info = np.iinfo(target)
    return target, int(info.min), int(info.max), _INT_NAMES.index(target.name)


@overload(python_int_as, jit_options={"nogil": True})
def _python_int_as(value, dtype, at=0):
    _, low, high, name = _int_range(dtype)

    def impl(value, dtype, at=0):
        if value < low or value > high:
            _int_out_of_bounds(np.int64(value), np.int64(name), np.int64(at))
        return dtype(value)

    return impl


@register_jitable
def _too_large(at):
    if at:
        raise OverflowError(_TOO_LARGE, at)
    raise OverflowError(_TOO_LARGE)


@register_jitable
def _fit_int64(v, dtype, low, high, name, at):
    if v < low or v > high:
        _int_out_of_bounds(v, np.int64(name), np.int64(at))
    return dtype(v)


@overload(numpy_int_as, jit_options={"nogil": True})
def _numpy_int_as(value, dtype, at=0):
    _, low, high, name = _int_range(dtype)
    if isinstance(value, types.Integer) and not value.signed:
        def unsigned(value, dtype, at=0):
            if value > np.uint64(9223372036854775807):
                _too_large(at)
            return _fit_int64(np.int64(value), dtype, low, high, name, at)

        return unsigned
    return lambda value, dtype, at=0: _fit_int64(np.int64(value), dtype, low, high, name, at)


@overload(clip_low, jit_options={"nogil": True})
def _clip_low(value, dtype, at=0):
    _, low, _, _ = _int_range(dtype)

    def impl(value, dtype, at=0):
        if value <= low:
            return dtype(low)
        return python_int_as(value, dtype, at)

    return impl


@overload(clip_high, jit_options={"nogil": True})
def _clip_high(value, dtype, at=0):
    target, _, high, _ = _int_range(dtype)
    if target == np.uint64:  # above every int64 a Python int argument can be
        return lambda value, dtype, at=0: python_int_as(value, dtype, at)

    def impl(value, dtype, at=0):
        if value >= high:
            return dtype(high)
        return python_int_as(value, dtype, at)

    return impl


with np.errstate(invalid="ignore"):  # how NumPy's build converts a float out of an unsigned dtype's range
    _C_CAST_WRAPS = int(np.array([-2.0]).astype(np.uint64)[0]) == 2**64 - 2  # x86's cvttsd2si; else saturating


@register_jitable
def _x86_int64(v):
    """x86's float to int64 (cvttsd2si): INT64_MIN for NaN and whatever int64 cannot hold, where LLVM's fptosi
    leaves them undefined."""
    if -9.223372036854775808e18 <= v < 9.223372036854775808e18:
        return np.int64(v)
    return np.int64(-9223372036854775808)


@overload(float_as_unsigned, jit_options={"nogil": True})
def _float_as_unsigned(value, dtype):
    target, _, _, _ = _int_range(dtype)
    if not _C_CAST_WRAPS:  # a saturating machine (Arm): Numba's conversion is the C compiler's
        return lambda value, dtype: dtype(value)
    if target == np.uint64:  # the C compilers' sequence: above 2**63, convert v - 2**63 and set the top bit
        def unsigned64(value, dtype):
            v = np.float64(value)
            if v >= 9.223372036854775808e18:
                return np.uint64(_x86_int64(v - 9.223372036854775808e18)) ^ np.uint64(9223372036854775808)
            return np.uint64(_x86_int64(v))

        return unsigned64
    if target.itemsize < 4:  # uint8, uint16: the low bits of the int32 conversion (cvttsd2si to 32 bits)
        return lambda value, dtype: dtype(_x86_int32(np.float64(value)))
    return lambda value, dtype: dtype(np.uint64(_x86_int64(np.float64(value))) & np.uint64(0xFFFFFFFF))


@register_jitable
def _x86_int32(v):
    if -2147483648.0 <= v < 2147483648.0:
        return np.int32(v)
    return np.int32(-2147483648)


@register_jitable
def _float_not_int(value, at):
    """int(value) fails, or NumPy cannot take the int: CPython's ValueError or OverflowError."""
    nonfinite(value, at)
    _too_large(at)


@overload(python_float_as, jit_options={"nogil": True})
def _python_float_as(value, dtype, at=0):
    target, low, high, name = _int_range(dtype)
    top = 18446744073709551616.0 if target == np.uint64 else 9223372036854775808.0  # int() beyond: too large

    def impl(value, dtype, at=0):
        whole = np.trunc(value)
        if not -9223372036854775808.0 <= whole < top:  # nan and infinities fail this too
            _float_not_int(value, at)
        if whole >= 9223372036854775808.0:  # uint64 only: above int64
            return dtype(np.uint64(whole))
        exact = np.int64(whole)
        if exact < low or exact > high:
            _int_out_of_bounds(exact, np.int64(name), np.int64(at))
        return dtype(exact)

    return impl


@overload(fmod, jit_options=_NUMPY)
def _fmod(a, b):
    from .division_into import fmod_into

    arrays = _integer_arrays(fmod_into, a, b)
    if arrays is not None:
        return arrays
    if isinstance(a, types.Integer) and isinstance(b, types.Integer):
        def integers(a, b):  # C's fmod: the remainder takes the sign of the dividend; NumPy's 0 for b == 0
            if b == 0 or b == -1:  # -1: INT_MIN % -1 traps, and abs(INT_MIN) is INT_MIN
                return a - a
            r = a % b  # Python's: the sign of the divisor
            if r != 0 and (a < 0) != (b < 0):
                r -= b
            return r

        return integers
    return lambda a, b: np.fmod(a, b)


@overload(sign, jit_options=_NUMPY)
def _sign(a):
    if isinstance(a, types.Integer) and not a.signed:
        return lambda a: a - a + (1 if a > 0 else 0)
    if isinstance(a, types.Integer | types.Boolean):
        return lambda a: a - a + ((a > 0) - (a < 0))
    float_type = a.dtype if isinstance(a, types.Array) else a
    if isinstance(float_type, types.Float):  # NumPy's sign of -0.0 is +0.0 (Numba's keeps it); nan stays nan
        one, zero = getattr(np, str(float_type))(1.0), getattr(np, str(float_type))(0.0)

        def of(v):
            return one if v > 0 else -one if v < 0 else (v if v != v else zero)

        element = register_jitable(of)
        if not isinstance(a, types.Array):
            return lambda a: element(a)

        def array(a):  # an array expression the lowering left whole
            out = np.empty(a.shape, a.dtype)
            for index in np.ndindex(a.shape):
                out[index] = element(a[index])
            return out

        return array
    return lambda a: np.sign(a)


@overload(numpy_refuses, jit_options={"nogil": True})
def _numpy_refuses(operand, message, at=0):
    def impl(operand, message, at=0):
        if len(message):  # (always: a branch, so Numba types the value, not a function that never returns)
            if at:
                raise TypeError(message, at)
            raise TypeError(message)
        return operand  # the type the expression it stands for has, for Numba

    return impl


@overload(broadcast_shape, jit_options={"nogil": True})
def _broadcast_shape(shapes, at=0):
    """Written out for these ranks: one dim at a time, right-aligned, as NumPy broadcasts."""
    ranks = [len(t) for t in shapes.types]
    top = max(ranks, default=0)
    lines = ["def impl(shapes, at=0):"]
    for k in range(1, top + 1):
        lines.append(f"    d{k} = 1")
        for i, rank in enumerate(ranks):
            if rank >= k:
                lines += [f"    x = shapes[{i}][{rank - k}]", "    if x != 1:", f"        if d{k} != 1 and d{k} != x:",
                          "            raise_shapes(NOT_BROADCAST, shapes, np.int64(at))", f"        d{k} = x"]
    lines.append("    return (" + "".join(f"d{k}, " for k in range(top, 0, -1)) + ")")
    env = {"raise_shapes": raise_shapes, "NOT_BROADCAST": NOT_BROADCAST, "np": np}
    exec("\n".join(lines), env)
    return env["impl"]
