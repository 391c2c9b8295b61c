"""Integer `floor_divide`, `remainder`, `fmod`, `left_shift` and `right_shift` into an existing array with
NumPy's meaning: `a //= b`, `a %= b`, `np.fmod(a, b, out=o)`, `a <<= n`, `a >>= n`. `floor_divide_update(t, v)`
and `remainder_update(t, v)` are `t //= v` and `t %= v` where the compiler could not type `t` or `v` (an array
from a library call Cuvil has no rule for): they choose when Numba types them, the loop below for integer
arrays, Numba's own operator otherwise.

Numba's own array loops for these give 0 for INT_MIN // -1 (NumPy: INT_MIN, wrapped), execute the x86 division
that traps on INT_MIN % -1 (SIGFPE: the interpreter dies), compute integer fmod as C's `%` of the operands
widened (7 fmod -1 is 7), and shift by the count modulo 64 (`a <<= 64` left `a` as it was). Each element goes
through the scalar kernels of runtime/elementwise.py instead, which are NumPy's. The operands are checked and
copied first when they overlap the output (runtime/inplace.py), as NumPy buffers them; the call's value is the
output, as a ufunc's is.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .elementwise import floor_divide, fmod, left_shift, remainder, right_shift
from .inplace import inplace_value


def floor_divide_into(out, a, b, at=0):  # the plain-Python meaning: NumPy's own
    return np.floor_divide(a, b, out=out)


def remainder_into(out, a, b, at=0):
    return np.remainder(a, b, out=out)


def fmod_into(out, a, b, at=0):
    return np.fmod(a, b, out=out)


def left_shift_into(out, a, b, at=0):
    return np.left_shift(a, b, out=out)


def right_shift_into(out, a, b, at=0):
    return np.right_shift(a, b, out=out)


def _into(element):
    def typer(out, a, b, at=0):
        if not isinstance(out, types.Array):
            return None

        def impl(out, a, b, at=0):
            x = np.broadcast_to(inplace_value(out, a, at), out.shape)
            y = np.broadcast_to(inplace_value(out, b, at), out.shape)
            for index in np.ndindex(out.shape):
                out[index] = element(x[index], y[index])
            return out

        return impl

    return typer


for _plain, _element in ((floor_divide_into, floor_divide), (remainder_into, remainder), (fmod_into, fmod),
                         (left_shift_into, left_shift), (right_shift_into, right_shift)):
    overload(_plain, jit_options={"nogil": True})(_into(_element))


def floor_divide_update(t, v, at=0):  # the plain-Python meaning: `t //= v`, in place on an array
    t //= v
    return t


def remainder_update(t, v, at=0):
    t %= v
    return t


def _integers(t) -> bool:
    dtype = t.dtype if isinstance(t, types.Array) else t
    return isinstance(dtype, types.Integer | types.Boolean)


def _update(into, scalar):
    def typer(t, v, at=0):
        if isinstance(t, types.Array) and _integers(t) and _integers(v):
            return lambda t, v, at=0: into(t, t, v, at)
        return lambda t, v, at=0: scalar(t, v)  # floats, scalars: Numba's own operator is NumPy's or Python's

    return typer


@register_jitable
def _floor_divide_in_place(t, v):
    t //= v
    return t


@register_jitable
def _remainder_in_place(t, v):
    t %= v
    return t


overload(floor_divide_update, jit_options={"nogil": True})(_update(floor_divide_into, _floor_divide_in_place))
overload(remainder_update, jit_options={"nogil": True})(_update(remainder_into, _remainder_in_place))
