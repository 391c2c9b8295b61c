"""np.tile, which Numba lacks: `a` repeated `reps` times along each axis, NumPy's shapes and dtype.

The result has max(a.ndim, len(reps)) axes: `a`'s shape and `reps` are both padded with leading 1s to that
length, and element `i` of the result is `a[i % a_shape]` along each axis. Written out element by element over
the result (its multi-index is the flat index taken apart by the result's shape): one loop whatever the rank.
A negative count is NumPy's ValueError (of an empty array NumPy words it as a failed reshape; the class is the
same); one on an axis of length 0 gives that axis length 0, as NumPy's does.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload
from numba.np.unsafe.ndarray import to_fixed_tuple

from .where import located


def tile(a, reps, at=0):  # the plain-Python meaning: NumPy's own
    return np.tile(a, reps)


def _raise_negative(at):
    raise located(ValueError, "negative dimensions are not allowed", at)


@numba.njit("void(int64)", cache=True)
def _negative(at):
    with numba.objmode():
        _raise_negative(at)


def _counts(reps):
    return np.asarray(reps, np.int64).ravel()


@overload(_counts, jit_options={"nogil": True})
def _counts_of(reps):
    if isinstance(reps, types.Integer):
        return lambda reps: np.full(1, reps, np.int64)
    return lambda reps: np.asarray(reps).astype(np.int64)


@overload(tile, jit_options={"nogil": True})
def _tile(a, reps, at=0):
    if isinstance(reps, types.Integer):
        count = 1
    elif isinstance(reps, types.UniTuple) and isinstance(reps.dtype, types.Integer):
        count = reps.count
    elif isinstance(reps, types.Tuple) and len(reps.types) == 0:
        count = 0
    else:
        return None
    if isinstance(a, types.Array):
        ndim, dtype = a.ndim, a.dtype
    elif isinstance(a, types.Number | types.Boolean):
        ndim, dtype = 0, a
    else:
        return None
    rank = max(ndim, count)

    def impl(a, reps, at=0):
        source = np.ascontiguousarray(np.asarray(a)).ravel()
        inner = np.ones(rank, np.int64)  # a's shape, padded
        shape = np.asarray(a).shape
        for d in range(ndim):
            inner[rank - ndim + d] = shape[d]
        times = np.ones(rank, np.int64)
        if count:
            given = _counts(reps)
            for d in range(count):
                times[rank - count + d] = given[d]
        if np.any(inner * times < 0):  # NumPy's repeat (or, of an empty array, its reshape) fails there
            _negative(np.int64(at))
        times = np.maximum(times, 0)  # a negative count of an empty axis: -0 is 0
        outer = inner * times
        out = np.empty(to_fixed_tuple(outer, rank), dtype)
        flat = out.reshape(-1)
        for k in range(flat.size):
            rest, offset, stride = k, 0, 1
            for d in range(rank - 1, -1, -1):
                index = rest % outer[d]
                rest //= outer[d]
                offset += (index % inner[d]) * stride
                stride *= inner[d]
            flat[k] = source[offset]
        return out

    return impl
