"""NumPy's text for the NumPy scalars Numba prints as something else, and Python's `str`, `repr` and `format`
of numbers and arrays, which Numba gets wrong.

Numba's `print` boxes a float32 as a Python float, a float64: `print(np.float32(0.1))` showed
0.10000000149011612 where Python shows 0.1 (NumPy prints the shortest text that reads back as the same
float32). The value converts back to its own type exactly, so NumPy's str of it is Python's text. Numba's
`str(2.5)` and `repr(2.5)` are "<object type:float64>", of an array likewise, and it has no `format`: a message
built from them (`raise ValueError(f"x = {x}")`) was wrong. Object mode costs a GIL round trip per call; it
runs only where the program prints or builds text. lower/prints.py calls these.
"""

from __future__ import annotations

import numba
import numba.extending
import numpy as np
from numba import types
from numba.extending import register_jitable


@numba.njit(cache=True)
def float32_text(x):
    with numba.objmode(text="unicode_type"):
        text = str(np.float32(x))
    return text


@numba.njit(cache=True)
def float16_text(x):  # a half's value, held in float32 by the compiled code
    with numba.objmode(text="unicode_type"):
        text = str(np.float16(x))
    return text


@numba.njit(cache=True)
def complex64_text(x):
    with numba.objmode(text="unicode_type"):
        text = str(np.complex64(x))
    return text


# str(), repr() and format() of a number, made again as the NumPy scalar (or Python number: `python`) it is in
# the user's program: the dtype's name says which, as a half is held in float32 by the compiled code.
@numba.njit(cache=True)
def number_str(x, dtype):
    with numba.objmode(text="unicode_type"):
        text = str(getattr(np, dtype)(x))
    return text


@numba.njit(cache=True)
def number_repr(x, dtype, python):
    with numba.objmode(text="unicode_type"):
        value = getattr(np, dtype)(x)
        text = repr(value.item() if python else value)
    return text


@numba.njit(cache=True)
def number_format(x, dtype, spec):
    with numba.objmode(text="unicode_type"):
        text = format(getattr(np, dtype)(x), spec)
    return text


def int_str(x):
    return str(x)


@numba.extending.overload(int_str)
def _int_str(x):
    """Numba's str of a signed integer's least value (-128 of an int8, -2**63) negates it, overflows and asks
    for an allocation of about 2**64 bytes (MemoryError); every other value, in int64, it writes right."""
    def impl(x):
        v = np.int64(x)
        if v == np.int64(-9223372036854775808):
            return "-9223372036854775808"
        return str(v)

    return impl


# str(), repr() and format() of an array, a tuple or a string: the value boxed to Python (one copy-free
# round trip), as Numba's own text of them is "<object type:...>"
def value_str(a):
    return str(a)


def value_repr(a):
    return repr(a)


def value_format(a, spec):
    return format(a, spec)


@register_jitable
def _list_text(a):
    """A list's text, element by element: object mode cannot take a list (its elements are Python numbers
    in compiled code, as a returned list's are)."""
    text = "["
    for k in range(len(a)):
        if k:
            text += ", "
        text += value_repr(a[k])
    return text + "]"


@numba.extending.overload(value_str)
def _value_str(a):
    if isinstance(a, types.List):
        return lambda a: _list_text(a)

    def impl(a):
        with numba.objmode(text="unicode_type"):
            text = str(a)
        return text

    return impl


@numba.extending.overload(value_repr)
def _value_repr(a):
    if isinstance(a, types.List):
        return lambda a: _list_text(a)

    def impl(a):
        with numba.objmode(text="unicode_type"):
            text = repr(a)
        return text

    return impl


@numba.extending.overload(value_format)
def _value_format(a, spec):
    if isinstance(a, types.List):
        def listed(a, spec):
            if len(spec):
                raise TypeError("unsupported format string passed to list.__format__")
            return _list_text(a)

        return listed

    def impl(a, spec):
        with numba.objmode(text="unicode_type"):
            text = format(a, spec)
        return text

    return impl
