"""`t op= a` on arrays as NumPy runs it: the shapes checked, the value copied first when it overlaps the target.

The generated code writes `t += inplace_value(t, a)` for each in-place update that may involve two arrays
(analysis/shapes.py drops the call where it proves it useless). Numba alone gets two things wrong:

- shapes: it writes a (2, 3) array `+=` a (2, 4) one without complaint; NumPy raises ValueError (the messages
  here are NumPy's, word for word);
- overlap: it reads the value while it writes the target, so `x[1:] += x[:-1]` reads what it wrote a step
  before and `a += a.T` reads half-updated transposes. NumPy behaves as if the value were copied first when the
  two share memory, so this returns a copy exactly then.

The overlap test is `np.may_share_memory`'s: the byte ranges the two arrays span intersect. A value that is the
target itself, element for element (`a += a`), needs no copy: each element is read before it is written. The
copy keeps the value's layout, so the expression's type does not change.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .messages import NOT_BROADCAST, OUTPUT_MISMATCH, raise_shapes


def inplace_value(target, value, at=0):  # the plain-Python meaning: NumPy does all this by itself
    return value


@register_jitable
def _fits(target_shape, value_shape):
    """The value broadcasts to the target's shape exactly (NumPy's rule for an output operand)."""
    nt, nv = len(target_shape), len(value_shape)
    if nv > nt:
        return False
    for k in range(1, nv + 1):
        v = value_shape[nv - k]
        if v != 1 and v != target_shape[nt - k]:
            return False
    return True


@register_jitable
def check_operands(a_shape, b_shape):
    """Raise NumPy's ValueError when two operands' shapes do not broadcast (Numba's own says "unable to
    broadcast argument 1 to output array" and names a file of ours)."""
    na, nb = len(a_shape), len(b_shape)
    for k in range(1, min(na, nb) + 1):
        x, y = a_shape[na - k], b_shape[nb - k]
        if x != y and x != 1 and y != 1:
            raise_shapes(NOT_BROADCAST, (a_shape, b_shape), np.int64(0))


@register_jitable
def _extent(a):
    """The bytes `a` spans, [low, high); empty (low == high) when it has no element."""
    low = np.intp(a.ctypes.data)
    high = low
    for k in range(a.ndim):
        n = a.shape[k]
        if n == 0:
            return low, low
        step = a.strides[k] * (n - 1)
        if step < 0:
            low += step
        else:
            high += step
    return low, high + a.itemsize


@register_jitable
def _same_elements(target, value):
    return target.ctypes.data == value.ctypes.data and target.shape == value.shape \
        and target.strides == value.strides


@register_jitable
def _overlaps(target, value):
    t_low, t_high = _extent(target)
    v_low, v_high = _extent(value)
    return t_low < t_high and v_low < v_high and t_low < v_high and v_low < t_high


@overload(inplace_value, jit_options={"nogil": True})
def _inplace_value(target, value, at=0):
    if not (isinstance(target, types.Array) and isinstance(value, types.Array)):
        return lambda target, value, at=0: value  # a scalar on either side: nothing to check, nothing to share
    if target.ndim == 0 or value.ndim == 0:
        return lambda target, value, at=0: value
    if target.ndim == value.ndim and target.dtype == value.dtype:
        same_elements = _same_elements
    else:
        same_elements = register_jitable(lambda target, value: False)

    if value.layout == "F":

        def copy(value):
            return value.T.copy().T
    else:

        def copy(value):
            return value.copy()

    copy = register_jitable(copy)

    def impl(target, value, at=0):
        if not _fits(target.shape, value.shape):
            raise_shapes(OUTPUT_MISMATCH, (target.shape, value.shape), np.int64(at))
        if _overlaps(target, value) and not same_elements(target, value):
            return copy(value)
        return value

    return impl
