"""NumPy's errors where Numba's own library would raise its own: NumPy's exception and words, at the user's line.

Numba raises from its library code with its wording ("item(): can only convert …", "negative dimensions not
allowed", "total size of new array must be unchanged") and a traceback ending in Numba's source, which names no
line of the user's. lower/library_raises.py calls these before the statement that would fail, with the
user's line as `at=<line>` (lower/located.py, runtime/where.py):

    y = b.item()           →  one_element(b.size, at=3); y = b.item()
    out = np.empty(m)      →  nonnegative_dims(m, at=3); out = np.empty(m)
    c = b.reshape(n, -1)   →  reshapes(b.size, dims((n, -1)), at=3); c = b.reshape(n, -1)
    c[1:] = v              →  fits_into(c[1:].shape, v.shape, at=3); c[1:] = v
    x, y = a               →  unpacks(a.shape[0], 2, 1, at=3); x, y = a
    a[0] = v               →  sequence_into_element(at=3)      (v an array of 1 or more dims; Numba refuses it)
    if a > 0:              →  if truth(a > 0, at=3):           (an array's truth: one element, or ValueError)

Each costs a comparison or two when nothing is wrong; the message of a reshape is built by a function compiled
once and cached (runtime/messages.py: building text in the caller would compile string code into every caller).
The plain-Python functions do nothing: without Numba the statement itself raises NumPy's error.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .messages import NOT_INTO, raise_shapes
from .where import located

__all__ = ["fits_into", "nonnegative_dims", "one_element", "reshapes", "sequence_into_element", "truth", "unpacks"]

_ONE_ELEMENT = "can only convert an array of size 1 to a Python scalar"
_NEGATIVE = "negative dimensions are not allowed"
_SEQUENCE = "setting an array element with a sequence."
_AMBIGUOUS = "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
_EMPTY = "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty."


def one_element(size, at=0):  # the plain-Python meaning: `.item()` raises by itself
    return None


def truth(value, at=0):  # the plain-Python meaning
    return bool(value)


def scale(value, at=0):  # the plain-Python meaning: np.random.normal and exponential raise by themselves
    return value


def nonnegative_dims(shape, at=0):  # the plain-Python meaning: the allocation raises by itself
    return None


def reshapes(size, shape, at=0):  # the plain-Python meaning: reshape raises by itself
    return None


def fits_into(target, value, at=0):  # the plain-Python meaning: the assignment raises by itself
    return None


def sequence_into_element(at=0):  # the plain-Python meaning: the store raises by itself
    return None


@overload(sequence_into_element, jit_options={"nogil": True})
def _sequence_into_element(at=0):
    def impl(at=0):
        if at:
            raise ValueError(_SEQUENCE, at)
        raise ValueError(_SEQUENCE)

    return impl


def unpacks(got, expected, sequence, at=0):  # the plain-Python meaning: the unpacking raises by itself
    return None


def unpack_message(got: int, expected: int, sequence: bool) -> str:
    """CPython's own words for unpacking `got` values into `expected` names (they differ between versions, and
    between a tuple, whose length it knows, and an iterable such as an array)."""
    names = "".join(f"_{k}, " for k in range(expected))
    values = tuple(range(got)) if sequence else iter(range(got))
    try:
        exec(f"{names}= values", {"values": values})  # noqa: S102 (our own code: names and a tuple)
    except ValueError as exc:
        return str(exc)
    return ""


def _raise_unpack(got, expected, sequence, at):
    message = unpack_message(int(got), int(expected), bool(sequence))
    raise located(ValueError, message, at)


@numba.njit("void(int64, int64, int64, int64)", cache=True)
def _unpack_failed(got, expected, sequence, at):
    """No `nogil`: object mode cannot honour it, and it matters only for calls from Python."""
    with numba.objmode():
        _raise_unpack(got, expected, sequence, at)


@overload(unpacks, jit_options={"nogil": True})
def _unpacks(got, expected, sequence, at=0):
    def impl(got, expected, sequence, at=0):
        if got != expected:
            _unpack_failed(np.int64(got), np.int64(expected), np.int64(sequence), np.int64(at))

    return impl


@overload(one_element, jit_options={"nogil": True})
def _one_element(size, at=0):
    def impl(size, at=0):
        if size != 1:
            if at:
                raise ValueError(_ONE_ELEMENT, at)
            raise ValueError(_ONE_ELEMENT)

    return impl


@overload(scale, jit_options={"nogil": True})
def _scale(value, at=0):
    """np.random.normal(loc, scale) and exponential(scale) with a negative scale: NumPy's ValueError (Numba's
    draw a number). NumPy tests the sign bit: -0.0 and a NaN with its sign set are refused too."""
    def impl(value, at=0):
        if math.copysign(1.0, value) < 0:
            if at:
                raise ValueError("scale < 0", at)
            raise ValueError("scale < 0")
        return value

    return impl


def arange_step(step, at=0):  # the plain-Python meaning: np.arange raises by itself
    return step


def arange_float_step(step, at=0):
    return step


def _zero_step(message):
    def typer(step, at=0):
        def impl(step, at=0):
            if step == 0:
                if at:
                    raise ZeroDivisionError(message, at)
                raise ZeroDivisionError(message)
            return step

        return impl

    return typer


# np.arange(a, b, 0): NumPy's ZeroDivisionError (Numba's ValueError "Maximum allowed size exceeded"); NumPy says
# "float division by zero" when an argument is a float
overload(arange_step, jit_options={"nogil": True})(_zero_step("division by zero"))
overload(arange_float_step, jit_options={"nogil": True})(_zero_step("float division by zero"))


@register_jitable
def _negative(at):
    if at:
        raise ValueError(_NEGATIVE, at)
    raise ValueError(_NEGATIVE)


@register_jitable
def _ambiguous(size, at):
    if size == 0:
        if at:
            raise ValueError(_EMPTY, at)
        raise ValueError(_EMPTY)
    if at:
        raise ValueError(_AMBIGUOUS, at)
    raise ValueError(_AMBIGUOUS)


@overload(truth, jit_options={"nogil": True})
def _truth(value, at=0):
    """NumPy's words for an empty array (Numba: False) and for more than one element, at the user's line."""
    if not isinstance(value, types.Array):
        return lambda value, at=0: bool(value)

    def impl(value, at=0):
        if value.size != 1:
            _ambiguous(value.size, at)
        return bool(value)

    return impl


@overload(nonnegative_dims, jit_options={"nogil": True})
def _nonnegative_dims(shape, at=0):
    if isinstance(shape, types.Integer):
        def one(shape, at=0):
            if shape < 0:
                _negative(at)

        return one
    if isinstance(shape, types.BaseTuple) and all(isinstance(t, types.Integer) for t in shape):
        lines = ["def each(shape, at=0):"]  # written out per dim: the tuple may mix int types
        lines += [f"    if shape[{k}] < 0:\n        _negative(at)" for k in range(len(shape))]
        lines.append("    return None")
        env = {"_negative": _negative}
        exec("\n".join(lines), env)  # noqa: S102 (our own code, from the tuple's length)
        return env["each"]
    return None


def _reshape_shape(shape) -> str:
    """`shape` as NumPy's reshape error prints it: leading unknown dims left out, later ones "newaxis"."""
    first = 0
    while first < len(shape) and shape[first] < 0:
        first += 1
    if first == len(shape):
        return "()"
    text = "(" + ",".join("newaxis" if d < 0 else str(int(d)) for d in shape[first:])
    return text + (",)" if len(shape) == 1 else ")")


def _raise_reshape(size, shape, at):
    text = f"cannot reshape array of size {size} into shape {_reshape_shape(shape)}"
    raise located(ValueError, text, at)


@numba.njit("void(int64, int64[::1], int64)", cache=True)
def _check_reshape(size, shape, at):
    """NumPy's checks of a new shape (`_fix_unknown_dimension`): one unknown dim at most, and the known dims'
    product equal to the size, or dividing it when a dim is unknown. The message is built in Python (object
    mode, runtime/messages.py says why; no `nogil`, which object mode cannot honour)."""
    unknown, known = 0, 1
    for dim in shape:
        if dim < 0:
            unknown += 1
        else:
            known *= dim
    if unknown > 1:
        if at:
            raise ValueError("can only specify one unknown dimension", at)
        raise ValueError("can only specify one unknown dimension")
    if (unknown == 0 and known == size) or (unknown == 1 and known != 0 and size % known == 0):
        return
    with numba.objmode():
        _raise_reshape(size, shape, at)


@overload(reshapes, jit_options={"nogil": True})
def _reshapes(size, shape, at=0):
    def impl(size, shape, at=0):
        _check_reshape(size, shape, at)

    return impl


@overload(fits_into, jit_options={"nogil": True})
def _fits_into(target, value, at=0):
    """`view[...] = value` as NumPy broadcasts it: each of the value's dims, right-aligned, is 1 or the view's,
    and any it has beyond the view's rank are 1. Compared dim by dim, written out per rank (nothing is
    allocated unless it fails: the check may run in a loop). Two ints are the lengths of a 1-D view and a 1-D
    value: the form a parallel loop tests before the store and records (cfg/raising.py)."""
    if isinstance(target, types.Integer) and isinstance(value, types.Integer):
        def lengths(target, value, at=0):
            if value != 1 and value != target:
                raise_shapes(NOT_INTO, ((value,), (target,)), np.int64(at))

        return lengths
    if not (isinstance(target, types.BaseTuple) and isinstance(value, types.BaseTuple)):
        return None
    nt, nv = len(target), len(value)
    tests = [f"(value[{nv - k}] != 1 and value[{nv - k}] != target[{nt - k}])" if k <= nt else
             f"value[{nv - k}] != 1" for k in range(1, nv + 1)]
    lines = ["def impl(target, value, at=0):", f"    if {' or '.join(tests) or 'False'}:",
             "        raise_shapes(NOT_INTO, (value, target), np.int64(at))"]
    env = {"raise_shapes": raise_shapes, "NOT_INTO": NOT_INTO, "np": np}
    exec("\n".join(lines), env)  # noqa: S102 (our own code, from the ranks)
    return env["impl"]
