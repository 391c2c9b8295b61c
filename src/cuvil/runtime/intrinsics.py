"""Operations whose Python or NumPy semantics Numba does not reproduce, as Numba overloads the generated code calls.

`inplace_value(t, a)`, the value of `t += a` as NumPy sees it (runtime/inplace.py): Numba runs an in-place
update on arrays whose shapes do not broadcast to the target's without complaint (a (2, 3) `+=` a (2, 4) writes
garbage), and reads the value while it writes the target, so `x[1:] += x[:-1]` sees its own writes. NumPy
raises on the first and, on the second, behaves as if the value had been copied first.

`py_pow(base, exp)`, `base ** exp`: on scalars Numba computes `int ** negative int` in integers (2 ** -1 == 0),
where Python returns the float 0.5, `negative ** fractional float` as nan, where Python returns a complex
number, and `0.0 ** -1.0` and an overflowing float power as inf, where Python raises ZeroDivisionError and
OverflowError. Python's result type depends on the operands' *values*, which no static type can follow, so the
first two raise instead of silently answering wrong — except for a literal exponent, whose value the type
carries (`x ** -2` is a float). On arrays NumPy's semantics apply: `np.power` (Numba's `**` raises
ZeroDivisionError where NumPy gives inf), and an integer result with a negative exponent raises ValueError,
where Numba returns garbage. `pow_exponent(base, exp)` makes the same checks before `base **= exp` and returns
the exponent to use. `math_pow(x, y)` is `math.pow` with CPython's errors, where Numba returns nan and inf.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic, overload, register_jitable

from .inplace import check_operands, inplace_value, ufunc_out, unshared

__all__ = ["inplace_value", "math_pow", "pow_exponent", "py_pow", "ufunc_out", "unshared"]

_NEGATIVE_INT_POWER = "Integers to negative integer powers are not allowed."
_ZERO_NEGATIVE = "0.0 cannot be raised to a negative power"
_ZERO_COMPLEX = "0.0 to a negative or complex power"


def py_pow(base, exp, at=0):  # the plain-Python meaning, for CUVIL_DISABLE_JIT and for reading
    return base ** exp


def pow_exponent(base, exp, at=0):  # the plain-Python meaning: `base **= exp` checks by itself
    return exp


def math_pow(x, y, at=0):  # the plain-Python meaning
    return math.pow(x, y)


# `at`: the user's line (lower/located.py), raised with the error and taken off again by runtime/where.py
@register_jitable
def _zero_negative(at):
    if at:
        raise ZeroDivisionError(_ZERO_NEGATIVE, at)
    raise ZeroDivisionError(_ZERO_NEGATIVE)


@register_jitable
def _value_error(message, at):
    if at:
        raise ValueError(message, at)
    raise ValueError(message)


def _integral(ty) -> bool:
    dtype = ty.dtype if isinstance(ty, types.Array) else ty
    return isinstance(dtype, types.Integer | types.Boolean)


def _real(ty) -> bool:
    return isinstance(ty, types.Integer | types.Boolean | types.Float)


def _scalar_checks(base, exp):
    """The implementation of `pow_exponent` for two scalars, or None when nothing needs checking."""
    if _integral(base) and isinstance(exp, types.IntegerLiteral):
        if exp.literal_value >= 0:
            return None
        as_float = float(exp.literal_value)  # Python: a float, and the literal says so before run time

        def negative_literal(base, exp, at=0):
            if base == 0:
                _zero_negative(at)
            return as_float

        return negative_literal
    if _integral(base) and _integral(exp):

        def int_exp(base, exp, at=0):
            if exp < 0:
                _value_error("integer ** negative integer gives a float in Python; write float(base) ** exp", at)
            return exp

        return int_exp
    if _real(base) and _real(exp):

        def real_exp(base, exp, at=0):
            if base == 0 and exp < 0:
                _zero_negative(at)
            if base < 0 and np.isfinite(exp) and exp != np.floor(exp):
                _value_error("a negative number ** a fractional power is complex in Python; "
                             "write complex(base) ** exp", at)
            return float(exp)  # CPython uses C's pow() for an int exponent too; Numba would multiply

        return real_exp
    return None


@intrinsic
def _c_pow(typingctx, x, y):
    """C's pow() of two float64s, as CPython's float `**` calls it. LLVM rewrites a pow() whose exponent it
    knows (a literal, once inlined): pow(x, -1.0) as 1.0 / x, pow(x, 2.0) as x * x, which differ from the C
    library's pow() in the last bit for some x (6.898715980997042e-15 ** -1: ...840.5 in CPython, ...840.47 as
    1 / x). `nobuiltin` on the declaration keeps the call a call."""
    if not (x == types.float64 and y == types.float64):
        return None

    def codegen(context, builder, signature, args):
        double = ir.DoubleType()
        fn = builder.module.globals.get("pow")
        if fn is None:
            fn = ir.Function(builder.module, ir.FunctionType(double, [double, double]), "pow")
        fn.attributes.add("nobuiltin")
        return builder.call(fn, list(args))

    return types.float64(types.float64, types.float64), codegen


def _power(base, exp):  # the plain-Python meaning
    return base ** exp


@overload(_power, jit_options={"nogil": True}, inline="always")
def _power_impl(base, exp):
    """`base ** exp` once checked: C's pow() where CPython calls it (a float64 result of Python numbers), the
    operator elsewhere (ints; NumPy's float32 and float16 scalars keep NumPy's)."""
    narrow = any(isinstance(t, types.Float) and t.bitwidth < 64 for t in (base, exp))
    if narrow or not any(isinstance(t, types.Float) for t in (base, exp)):
        return lambda base, exp: base ** exp
    return lambda base, exp: _c_pow(float(base), float(exp))


def _negative_int_power(base, exp) -> bool:  # the plain-Python meaning, for reading
    return np.size(base) > 0 and bool(np.any(np.asarray(exp) < 0))


@overload(_negative_int_power, jit_options={"nogil": True})
def _negative_int_power_impl(base, exp):
    """NumPy's refusal: some element of an integer power with a non-empty result has a negative exponent."""
    base_size = (lambda base: base.size) if isinstance(base, types.Array) else (lambda base: 1)
    base_size = register_jitable(base_size)
    if isinstance(exp, types.Array):
        return lambda base, exp: base_size(base) > 0 and exp.size > 0 and (exp < 0).any()
    return lambda base, exp: base_size(base) > 0 and exp < 0


@overload(pow_exponent, jit_options={"nogil": True}, prefer_literal=True)
def _pow_exponent(base, exp, at=0):
    if isinstance(base, types.Array) or isinstance(exp, types.Array):
        if not (_integral(base) and _integral(exp)):
            return lambda base, exp, at=0: exp

        def int_array_exp(base, exp, at=0):
            if _negative_int_power(base, exp):
                _value_error(_NEGATIVE_INT_POWER, at)
            return exp

        return int_array_exp
    checks = _scalar_checks(base, exp)
    return checks if checks is not None else (lambda base, exp, at=0: exp)


def _number(x):
    return x


@overload(_number, inline="always")
def _number_impl(x):
    return (lambda x: int(x)) if isinstance(x, types.Boolean) else (lambda x: x)


@overload(py_pow, jit_options={"nogil": True}, prefer_literal=True)
def _py_pow(base, exp, at=0):
    if isinstance(base, types.Boolean) or isinstance(exp, types.Boolean):  # a Python bool is the int 0 or 1
        return lambda base, exp, at=0: py_pow(_number(base), _number(exp), at)
    if isinstance(base, types.Array) or isinstance(exp, types.Array):
        integral = _integral(base) and _integral(exp)
        both = isinstance(base, types.Array) and isinstance(exp, types.Array)

        def array_pow(base, exp, at=0):
            if both:
                check_operands(base.shape, exp.shape)  # first: NumPy's first complaint too
            result = np.power(base, exp)  # not `**`: Numba's raises ZeroDivisionError where NumPy gives inf
            if integral and result.size > 0 and _negative_int_power(base, exp):
                _value_error(_NEGATIVE_INT_POWER, at)
            return result

        return array_pow
    if isinstance(base, types.Complex) or isinstance(exp, types.Complex):
        def complex_pow(base, exp, at=0):  # CPython's complex_pow at a zero base (Numba's exp(b log 0): nan)
            e = complex(exp)
            if base == 0 and e != 0:
                if e.imag != 0 or e.real < 0:
                    if at:
                        raise ZeroDivisionError(_ZERO_COMPLEX, at)
                    raise ZeroDivisionError(_ZERO_COMPLEX)
                return complex(0.0)
            return base ** exp

        return complex_pow
    if not (_real(base) and _real(exp)) or (_integral(base) and _integral(exp)):
        return lambda base, exp, at=0: _power(base, pow_exponent(base, exp, at))  # float for int ** -2

    def real_pow(base, exp, at=0):
        result = _power(base, pow_exponent(base, exp, at))
        if np.isinf(result) and np.isfinite(base) and np.isfinite(exp):
            if at:  # what CPython's float pow says
                raise OverflowError("(34, 'Numerical result out of range')", at)
            raise OverflowError("(34, 'Numerical result out of range')")
        return result

    return real_pow


@overload(math_pow, jit_options={"nogil": True})
def _math_pow(x, y, at=0):
    """CPython's math.pow: C's pow() of two floats; a result that is not finite from finite operands is an
    error — nan (a negative number to a fractional power) and 0.0 to a negative power are "math domain
    error", any other infinity "math range error". Non-finite operands give C's value and no error."""
    if not (_real(x) and _real(y)):
        return None

    def impl(x, y, at=0):
        a, b = float(x), float(y)
        result = _c_pow(a, b)  # C's pow(), a call LLVM leaves (Numba's `**` raises ZeroDivisionError for 0.0 ** -inf)
        if not np.isfinite(result) and np.isfinite(a) and np.isfinite(b):
            if np.isnan(result) or a == 0.0:
                _value_error("math domain error", at)
            if at:
                raise OverflowError("math range error", at)
            raise OverflowError("math range error")
        return result

    return impl
