"""`np.cumprod` along an axis, which Numba lacks (its `np.cumprod` and `.cumprod()` take no `axis`; its cumsum
does): the lowering calls `cumprod_axis(a, axis)` for `np.cumprod(a, axis=k)` and `a.cumprod(k)`
(lower/library_results.py). NumPy's dtype (an integer or bool array accumulates in int64, uint8 to uint64 in
uint64), its wrap-around, and its AxisError at the user's line for an axis out of range.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload

from .where import located


def cumprod_axis(a, axis, at=0):  # the plain-Python meaning: NumPy's own
    return np.cumprod(a, axis=axis)


def _raise_axis(axis, ndim, at):
    message = f"axis {axis} is out of bounds for array of dimension {ndim}"
    raise located(np.exceptions.AxisError, message, at)


@numba.njit("void(int64, int64, int64)", cache=True)
def _axis_error(axis, ndim, at):
    """Compiled once and cached, its message built in Python (object mode; runtime/messages.py says why)."""
    with numba.objmode():
        _raise_axis(axis, ndim, at)


@overload(cumprod_axis, jit_options={"nogil": True})
def _cumprod_axis(a, axis, at=0):
    if not isinstance(a, types.Array) or not isinstance(axis, types.Integer):
        return None
    dtype = np.cumprod(np.ones(1, np.dtype(str(a.dtype)))).dtype
    ndim = a.ndim
    if ndim == 0:  # no axis at all (`a.shape[k]` of an empty tuple would not type)
        def scalar(a, axis, at=0):
            _axis_error(np.int64(axis), np.int64(0), np.int64(at))
            return np.empty((), dtype)

        return scalar

    def impl(a, axis, at=0):
        k = axis + ndim if axis < 0 else axis
        if k < 0 or k >= ndim:
            _axis_error(np.int64(axis), np.int64(ndim), np.int64(at))
        n = a.shape[k]
        inner = 1
        for d in range(k + 1, ndim):
            inner *= a.shape[d]
        outer = a.size // (n * inner) if n * inner else 0
        out = np.empty(a.shape, dtype)
        rows = np.ascontiguousarray(a).reshape((outer, n, inner))
        into = out.reshape((outer, n, inner))
        for o in range(outer):
            for i in range(inner):
                if n:
                    into[o, 0, i] = rows[o, 0, i]
                for j in range(1, n):
                    into[o, j, i] = into[o, j - 1, i] * rows[o, j, i]
        return out

    return impl
