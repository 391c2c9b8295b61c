"""Python's int arithmetic on int64: an operation whose true result does not fit raises OverflowError where
Numba would wrap around silently (issue 10 §2; lower/checks.py decides which operations need it).

`add sub mul neg` compute with LLVM's `*.with.overflow` intrinsics (one flag, no division). `add(a, b, True)`
only tests: the condition a parallel loop evaluates before the statement (cfg/raising.py). Not with wrapped
arithmetic: Numba marks integer operations `nsw`, and LLVM folds `(a * b) // a != b` to False.
The plain-Python functions are the meaning, for running without Numba. `at` is the user's line the generated
code passes (lower/located.py): the compiled helpers raise `Error(message, at)` with it, for the dispatcher to
take off again and raise at that line (runtime/where.py).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload, register_jitable

from ..library.numpy import DIVISIONS, SPAN_MESSAGE

MESSAGE = ("int64 overflow: Python would give an int wider than 64 bits here; compute in float, or pass "
           "overflow=\"wrap\" to cuvil.jit for Numba's wrap-around")
_MIN, _MAX = -(2**63), 2**63 - 1


def _fits(v: int) -> int:
    if not _MIN <= v <= _MAX:
        raise OverflowError(MESSAGE)
    return v


def add(a, b, test=False, at=0):
    return not _MIN <= a + b <= _MAX if test else _fits(a + b)


def sub(a, b, test=False, at=0):
    return not _MIN <= a - b <= _MAX if test else _fits(a - b)


def mul(a, b, test=False, at=0):
    return not _MIN <= a * b <= _MAX if test else _fits(a * b)


def neg(a, test=False, at=0):
    return a == _MIN if test else _fits(-a)


def _with_overflow(op: str):
    @intrinsic
    def compute(typingctx, a, b):
        if not all(isinstance(x, types.Integer | types.Boolean) for x in (a, b)):  # a Python bool is an int
            return None
        sig = types.Tuple((types.int64, types.boolean))(types.int64, types.int64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            x = context.cast(builder, args[0], signature.args[0], types.int64)
            y = context.cast(builder, args[1], signature.args[1], types.int64)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(
                ir.LiteralStructType([i64, ir.IntType(1)]), [i64, i64]), f"llvm.s{op}.with.overflow.i64")
            pair = builder.call(fn, [x, y])
            return context.make_tuple(builder, signature.return_type,
                                      [builder.extract_value(pair, 0), builder.extract_value(pair, 1)])

        return sig, codegen

    return compute


_OPS = {"add": _with_overflow("add"), "sub": _with_overflow("sub"), "mul": _with_overflow("mul")}


def _register(stub, op):
    """Two overloads: `add(a, b)` inlined (Numba's IR then sees a plain operation), and the test `add(a, b,
    True)` that parallel loops evaluate (cfg/raising.py) not: Numba's parfor pass rejects a loop whose body
    inlines one function twice with the loop index as an argument ("Overwrite of parallel loop index"). LLVM
    inlines the test anyway."""
    compute = _OPS[op]

    @overload(stub, jit_options={"nogil": True}, inline="always")
    def checked(a, b, test=False, at=0):
        if isinstance(test, types.Boolean):
            return None

        def impl(a, b, test=False, at=0):
            value, overflow = compute(a, b)
            if overflow:
                if at:
                    raise OverflowError(MESSAGE, at)
                raise OverflowError(MESSAGE)
            return value

        return impl

    @overload(stub, jit_options={"nogil": True})
    def overflows(a, b, test=False, at=0):
        if isinstance(test, types.Boolean):
            return lambda a, b, test=False, at=0: compute(a, b)[1]
        return None


_register(add, "add")
_register(sub, "sub")
_register(mul, "mul")


_SUB = _OPS["sub"]


@overload(neg, jit_options={"nogil": True}, inline="always")
def _neg(a, test=False, at=0):
    if isinstance(test, types.Boolean):
        return lambda a, test=False, at=0: _SUB(0, a)[1]

    def impl(a, test=False, at=0):
        value, overflow = _SUB(0, a)
        if overflow:
            if at:
                raise OverflowError(MESSAGE, at)
            raise OverflowError(MESSAGE)
        return value

    return impl


def arm_checked(value, overflowed, at=0):
    """The value of a conditional expression whose checked arm was computed wrapped (lower/overflow_arms.py):
    `overflowed` when the arm taken did not fit."""
    if overflowed:
        if at:
            raise OverflowError(MESSAGE, at)
        raise OverflowError(MESSAGE)
    return value


@overload(arm_checked, jit_options={"nogil": True}, inline="always")
def _arm_checked(value, overflowed, at=0):
    def impl(value, overflowed, at=0):
        if overflowed:
            if at:
                raise OverflowError(MESSAGE, at)
            raise OverflowError(MESSAGE)
        return value

    return impl


# `a ** b`, `a << b`, `a // b`, abs(a) of Python ints, and int(x) / round(x) of a float, which Python answers
# with an int of any size: outside int64 they raise, where Numba wraps (or, for an out-of-range float, returns
# whatever the conversion instruction gives: -2**63 for nan, inf and 1e30 alike).
_NEGATIVE_POWER = "integer ** negative integer gives a float in Python; write float(base) ** exp"
_ZERO_POWER = "0.0 cannot be raised to a negative power"


def power(a, b, at=0):
    if b < 0:
        if a == 0:
            if at:
                raise ZeroDivisionError(_ZERO_POWER, at)
            raise ZeroDivisionError(_ZERO_POWER)
        if at:
            raise ValueError(_NEGATIVE_POWER, at)
        raise ValueError(_NEGATIVE_POWER)
    return _fits(a**b)


def lshift(a, b, at=0):
    if b < 0:
        if at:
            raise ValueError("negative shift count", at)
        raise ValueError("negative shift count")
    return _fits(a << b)


def rshift(a, b, at=0):
    if b < 0:
        if at:
            raise ValueError("negative shift count", at)
        raise ValueError("negative shift count")
    return a >> b


def floordiv(a, b, at=0):
    return _fits(a // b)


def absolute(a, at=0):
    return _fits(abs(a))


def to_int(x, at=0):
    return _fits(int(x))


def round_int(x, at=0):
    return _fits(round(x))


def round_int_ndigits(x, n, at=0):
    """round(x, n) of a Python int: half to even at 10**-n, an int (CPython's; Numba rounds a float)."""
    return _fits(round(x, n))


@overload(power, jit_options={"nogil": True})
def _power(a, b, at=0):
    mul = _OPS["mul"]

    def impl(a, b, at=0):
        if b < 0:
            if a == 0:
                if at:
                    raise ZeroDivisionError(_ZERO_POWER, at)
                raise ZeroDivisionError(_ZERO_POWER)
            if at:
                raise ValueError(_NEGATIVE_POWER, at)
            raise ValueError(_NEGATIVE_POWER)
        result, base, e = 1, a, b
        while e > 0:  # by squaring; a square that overflows means the result does (|a| >= 2)
            if e & 1:
                result, over = mul(result, base)
                if over:
                    if at:
                        raise OverflowError(MESSAGE, at)
                    raise OverflowError(MESSAGE)
            e >>= 1
            if e > 0:
                base, over = mul(base, base)
                if over:
                    if at:
                        raise OverflowError(MESSAGE, at)
                    raise OverflowError(MESSAGE)
        return result

    return impl


@overload(lshift, jit_options={"nogil": True})
def _lshift(a, b, at=0):
    def impl(a, b, at=0):
        if b < 0:
            if at:
                raise ValueError("negative shift count", at)
            raise ValueError("negative shift count")
        if a == 0:
            return 0
        if b > 63 or (b == 63 and a != -1):  # -1 << 63 is -2**63, the one 63-bit shift that fits
            if at:
                raise OverflowError(MESSAGE, at)
            raise OverflowError(MESSAGE)
        result = a << b
        if (result >> b) != a:
            if at:
                raise OverflowError(MESSAGE, at)
            raise OverflowError(MESSAGE)
        return result

    return impl


@overload(rshift, jit_options={"nogil": True})
def _rshift(a, b, at=0):
    def impl(a, b, at=0):
        if b < 0:
            if at:
                raise ValueError("negative shift count", at)
            raise ValueError("negative shift count")
        return a >> min(b, 63)  # Python's sign fill for any count; LLVM's shift by 64 or more is undefined

    return impl


@overload(floordiv, jit_options={"nogil": True}, inline="always")
def _floordiv(a, b, at=0):
    def impl(a, b, at=0):
        if b == 0:
            if at:
                raise ZeroDivisionError("integer division or modulo by zero", at)
            raise ZeroDivisionError("integer division or modulo by zero")  # CPython's words, not Numba's
        if b == -1 and a == _MIN:
            if at:
                raise OverflowError(MESSAGE, at)
            raise OverflowError(MESSAGE)
        return a // b

    return impl


def range_stop(start, stop, at=0):
    """`range(start, stop, ...)`'s stop, once Numba can count the range: it counts `stop - start` in int64,
    and a span beyond it wrapped to a negative count, so a loop over range(-2**62, 2**62, 2**61) ran no
    iteration where Python runs four."""
    if stop > start and stop - start > _MAX or start > stop and start - stop > _MAX:
        raise OverflowError(SPAN_MESSAGE)
    return stop


@overload(range_stop, jit_options={"nogil": True}, inline="always")
def _range_stop(start, stop, at=0):
    def impl(start, stop, at=0):
        # the span beyond int64, tested without computing it (no arithmetic here can wrap)
        if start < 0 and stop > _MAX + start or stop < 0 and start > _MAX + stop:
            if at:
                raise OverflowError(SPAN_MESSAGE, at)
            raise OverflowError(SPAN_MESSAGE)
        return stop

    return impl


@overload(absolute, jit_options={"nogil": True}, inline="always")
def _absolute(a, at=0):
    def impl(a, at=0):
        if a == _MIN:
            if at:
                raise OverflowError(MESSAGE, at)
            raise OverflowError(MESSAGE)
        return abs(a)

    return impl


_TOO_BIG = 9.223372036854775807e18  # 2**63 as a float: every float below it in magnitude fits in int64


@register_jitable(nogil=True)
def nonfinite(x, at):
    """CPython's error for `int(x)` of a NaN or an infinity (nothing for a finite x)."""
    if x != x:
        if at:
            raise ValueError("cannot convert float NaN to integer", at)
        raise ValueError("cannot convert float NaN to integer")
    if x == np.inf or x == -np.inf:
        if at:
            raise OverflowError("cannot convert float infinity to integer", at)
        raise OverflowError("cannot convert float infinity to integer")


@register_jitable(nogil=True)
def _checked_int(x, at):
    nonfinite(x, at)
    if not -_TOO_BIG <= x < _TOO_BIG:
        if at:
            raise OverflowError(MESSAGE, at)
        raise OverflowError(MESSAGE)
    return np.int64(x)


@overload(to_int, jit_options={"nogil": True})
def _to_int(x, at=0):
    if isinstance(x, types.Float):
        return lambda x, at=0: _checked_int(x, at)
    if isinstance(x, types.Integer) and not x.signed and x.bitwidth == 64:  # `.item()` of a uint64 array
        def impl(x, at=0):
            if x > np.uint64(_MAX):
                if at:
                    raise OverflowError(MESSAGE, at)
                raise OverflowError(MESSAGE)
            return np.int64(x)

        return impl
    return lambda x, at=0: np.int64(x)  # Numba's int() of an int8 stays an int8


@overload(round_int, jit_options={"nogil": True})
def _round_int(x, at=0):
    if isinstance(x, types.Float):
        return lambda x, at=0: _checked_int(np.round(x), at)  # NumPy's round is half-to-even, as Python's round()
    return lambda x, at=0: to_int(x, at)  # an integer is its own round; Numba's round goes through a float


@overload(round_int_ndigits, jit_options={"nogil": True})
def _round_int_ndigits(x, n, at=0):
    mul = _OPS["mul"]

    def impl(x, n, at=0):
        if n >= 0:
            return x
        if n < -19 or (n == -19 and -5 * 10**18 <= x <= 5 * 10**18):  # to the nearest 10**19 or more: 0
            return 0
        over = n == -19  # beyond half of 10**19: 10**19 itself, beyond int64
        result = 0
        if not over:
            p = 10 ** (-n)
            q = x // p
            twice = 2 * (x - q * p)  # the floored remainder, below p <= 10**18: no overflow
            if twice > p or (twice == p and q % 2 == 1):
                q += 1
            result, over = mul(q, p)
        if over:
            if at:
                raise OverflowError(MESSAGE, at)
            raise OverflowError(MESSAGE)
        return result

    return impl


def as_index(x, at=0):
    """range()'s argument: a float is a TypeError in Python, where Numba truncates it (range(2.5): 0, 1)."""
    if isinstance(x, float):
        raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")
    return x


@overload(as_index, jit_options={"nogil": True})
def _as_index(x, at=0):
    if isinstance(x, types.Float):
        def impl(x, at=0):
            if x == x or x != x:  # always; a bare raise would leave the function without an int type
                if at:
                    raise TypeError("'float' object cannot be interpreted as an integer", at)
                raise TypeError("'float' object cannot be interpreted as an integer")
            return np.int64(0)

        return impl
    return lambda x, at=0: x


# `//`, `%`, `/` of Python numbers with CPython's ZeroDivisionError messages (lower/zerodivision.py), where Numba
# words its own ("integer division by zero", "division by zero", "modulo by zero"). The message is the helper's:
# lower/zerodivision.py picks `py_float_*` when an operand is a float (booleans divide as ints), so that a
# parallel loop, which tests `b == 0` before the statement (cfg/raising.py), raises the same words.


def _division(name: str):
    message, plain = DIVISIONS[name]
    template = plain.replace("{a}", "a").replace("{b}", "b")
    meaning = eval(f"lambda a, b: {template}")  # noqa: S307 (our own table's operator)

    def call(a, b, at=0):
        if b == 0:
            raise ZeroDivisionError(message)
        return meaning(float(a) if name.startswith("py_float_") else a, b)

    call.__name__ = call.__qualname__ = name
    return call


py_floordiv, py_mod, py_truediv, py_float_floordiv, py_float_mod, py_float_truediv, py_divmod, py_float_divmod = (
    _division(n) for n in DIVISIONS)


def _register_division(stub, compute):
    message = DIVISIONS[stub.__name__][0]

    @overload(stub, jit_options={"nogil": True}, inline="always")
    def typed(a, b, at=0):
        def impl(a, b, at=0):
            if b == 0:
                if at:
                    raise ZeroDivisionError(message, at)
                raise ZeroDivisionError(message)
            return compute(a, b)

        return impl


_register_division(py_floordiv, register_jitable(inline="always")(lambda a, b: a // b))
_register_division(py_float_floordiv, register_jitable(inline="always")(lambda a, b: a // b))
_register_division(py_mod, register_jitable(inline="always")(lambda a, b: a % b))
_register_division(py_float_mod, register_jitable(inline="always")(lambda a, b: a % b))
_register_division(py_truediv, register_jitable(inline="always")(lambda a, b: a / b))
_register_division(py_float_truediv, register_jitable(inline="always")(lambda a, b: a / b))
_register_division(py_divmod, register_jitable(inline="always")(lambda a, b: divmod(a, b)))
_register_division(py_float_divmod, register_jitable(inline="always")(lambda a, b: divmod(a, b)))
