"""NumPy's shape-error messages, raised by functions compiled once and cached, for the generated code to call.

Building a message in compiled code (`"(" + str(n) + ...`) compiles Numba's int-to-str and string concatenation
into every function that can raise it: measured 1.4 s of a 2.4 s first compile of `(a + b) * c - a`, paid again
by every new function and every new set of operand ranks, for a message that is almost never raised. These
take the shapes as int64 arrays and are compiled with explicit signatures and `cache=True`: once per
installation, after that loaded from Numba's cache in milliseconds. `dims(shape)` turns a shape tuple into such
an array (written out per rank, so a 0-d shape works too); the callers are runtime/elementwise.py (a broadcast
between operands) and runtime/inplace.py (an in-place update's value against its target).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload


@numba.njit("unicode_type(int64[::1], int64, int64)", nogil=True, cache=True)
def _text(dims, start, stop):
    """`dims[start:stop]` as NumPy prints a shape: `(3,)`, `(4,1)`, `()`."""
    text = "("
    for k in range(start, stop):
        text += ("," if k > start else "") + str(dims[k])
    return text + ("," if stop - start == 1 else "") + ")"


@numba.njit("void(int64[::1], int64[::1], int64)", nogil=True, cache=True)
def raise_not_broadcast(dims, ranks, at):
    """ValueError for operands that do not broadcast; `dims` holds every operand's shape, one after another,
    `ranks` how many dims each has; `at` the user's line, or 0 (lower/located.py, runtime/where.py)."""
    text = "operands could not be broadcast together with shapes "
    start = 0
    for rank in ranks:
        text += _text(dims, start, start + rank) + " "
        start += rank
    if at:
        raise ValueError(text, at)
    raise ValueError(text)


@numba.njit("void(int64[::1], int64[::1], int64)", nogil=True, cache=True)
def raise_output_mismatch(target, value, at):
    """ValueError for an in-place update whose value does not broadcast to its target's shape: NumPy's two
    messages (the shapes do not broadcast at all; they do, but to a shape other than the target's)."""
    nt, nv = len(target), len(value)
    n = max(nt, nv)
    out = np.empty(n, np.int64)
    for k in range(1, n + 1):
        t = target[nt - k] if k <= nt else 1
        v = value[nv - k] if k <= nv else 1
        if t != v and t != 1 and v != 1:
            shown = _text(target, 0, nt)
            text = "operands could not be broadcast together with shapes " + shown + " " + _text(value, 0, nv) \
                + " " + shown + " "
            if at:
                raise ValueError(text, at)
            raise ValueError(text)
        out[n - k] = v if t == 1 else t
    text = "non-broadcastable output operand with shape " + _text(target, 0, nt) + " doesn't match the broadcast " \
        "shape " + _text(out, 0, n)
    if at:
        raise ValueError(text, at)
    raise ValueError(text)


def dims(shape):
    """`shape` (a tuple of ints) as an int64 array."""
    return np.array(shape, np.int64)


@overload(dims, jit_options={"nogil": True})
def _dims(shape):
    if not isinstance(shape, types.BaseTuple):
        return None
    lines = ["def impl(shape):", f"    out = np.empty({len(shape)}, np.int64)"]
    lines += [f"    out[{k}] = shape[{k}]" for k in range(len(shape))]
    lines.append("    return out")
    env = {"np": np}
    exec("\n".join(lines), env)
    return env["impl"]
