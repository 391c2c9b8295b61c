"""Operations whose Python semantics Numba does not reproduce, as Numba overloads the generated code calls.

`inplace_check`: Numba runs `t += a` on arrays whose shapes do not broadcast to `t`'s without complaint (a
(2, 3) `+=` a (2, 4) writes garbage); NumPy raises. The generated code calls this before each such update the
shape analysis could not prove safe; on scalars it compiles to nothing.

`py_pow`: Numba computes `int ** negative int` in integers (2 ** -1 == 0), where Python returns the float 0.5,
and `negative ** fractional float` as nan, where Python returns a complex number. Python's result type depends
on the operands' *values*, which no static type can follow, so both raise instead of silently answering wrong.
(NumPy integers raise on the first too.)
"""

from __future__ import annotations

import math

from numba import types
from numba.extending import overload


def py_pow(base, exp):  # the plain-Python meaning, for CUVIL_DISABLE_JIT and for reading
    return base ** exp


@overload(py_pow, jit_options={"nogil": True})
def _py_pow(base, exp):
    if isinstance(base, types.Integer | types.Boolean) and isinstance(exp, types.Integer | types.Boolean):

        def int_pow(base, exp):
            if exp < 0:
                raise ValueError("integer ** negative integer gives a float in Python; write float(base) ** exp")
            return base ** exp

        return int_pow

    if isinstance(exp, types.Float):

        def float_pow(base, exp):
            if base < 0 and exp != math.floor(exp):
                raise ValueError("a negative number ** a fractional power is complex in Python; "
                                 "write complex(base) ** exp")
            return base ** exp

        return float_pow

    def any_pow(base, exp):
        return base ** exp

    return any_pow


def inplace_check(target, value):  # the plain-Python meaning: NumPy checks by itself
    return None


@overload(inplace_check, jit_options={"nogil": True})
def _inplace_check(target, value):
    if not (isinstance(target, types.Array) and isinstance(value, types.Array)):
        return lambda target, value: None
    if value.ndim > target.ndim:

        def too_many(target, value):
            raise ValueError("non-broadcastable output operand: the value has more dimensions than the target")

        return too_many

    def same_or_one(target, value):
        offset = target.ndim - value.ndim
        for k in range(value.ndim):
            v, t = value.shape[k], target.shape[offset + k]
            if v != t and v != 1:
                raise ValueError("non-broadcastable output operand: shapes do not match for an in-place update")

    return same_or_one
