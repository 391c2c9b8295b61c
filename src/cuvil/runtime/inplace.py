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

from .messages import NOT_BROADCAST, OUTPUT_MISMATCH, UFUNC_OUT, raise_shapes


def inplace_value(target, value, at=0):  # the plain-Python meaning: NumPy does all this by itself
    return value


def unshared(target, value, at=0):  # the plain-Python meaning: inplace_value's copy, without its shape check
    return value


def ufunc_out(out, operands, at=0):  # the plain-Python meaning: NumPy checks a ufunc's `out=` by itself
    return out


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


def _sharing(target, value, check):
    """inplace_value's implementation: the shapes checked first when `check`, then the value copied if it
    overlaps the target."""
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
        if check and not _fits(target.shape, value.shape):
            raise_shapes(OUTPUT_MISMATCH, (target.shape, value.shape), np.int64(at))
        if _overlaps(target, value) and not same_elements(target, value):
            return copy(value)
        return value

    return impl


@overload(inplace_value, jit_options={"nogil": True})
def _inplace_value(target, value, at=0):
    return _sharing(target, value, True)


@overload(unshared, jit_options={"nogil": True})
def _unshared(target, value, at=0):
    return _sharing(target, value, False)


@overload(ufunc_out, jit_options={"nogil": True})
def _ufunc_out(out, operands, at=0):
    """`np.add(x, y, out=o)`: NumPy names every operand when one does not broadcast into `o` (inplace_value
    checks one input at a time, and names two)."""
    if not (isinstance(out, types.Array) and isinstance(operands, types.BaseTuple)):
        return None
    shapes = [f"operands[{k}].shape" if isinstance(t, types.Array) else "()" for k, t in enumerate(operands)]
    fits = " and ".join(f"_fits(out.shape, {s})" for s in shapes if s != "()") or "True"
    text = (f"def impl(out, operands, at=0):\n    if not ({fits}):\n"
            f"        raise_shapes(UFUNC_OUT, ({''.join(s + ', ' for s in shapes)}out.shape), np.int64(at))\n"
            "    return out\n")
    env = {"_fits": _fits, "raise_shapes": raise_shapes, "UFUNC_OUT": UFUNC_OUT, "np": np}
    exec(text, env)
    return env["impl"]
