"""`a.item(k)`: the element at flat index `k`, in C order (lower/pyscalars.py turns it into a Python number as
`.item()`'s). Numba's `item` takes no index; NumPy's IndexError "index 7 is out of bounds for size 6" ("… for
axis 0 with size 6" of a 1-D array) is raised at the user's line for `k` outside -size .. size - 1."""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload

from .where import located


def item_at(a, k, at=0):
    return a.flat[k if k >= 0 else k + a.size]


def _raise_outside(k, size, axis, at):
    where = "axis 0 with size" if axis else "size"  # a 1-D array's words are its indexing's
    raise located(IndexError, f"index {k} is out of bounds for {where} {size}", at)


@numba.njit("void(int64, int64, boolean, int64)", cache=True)
def _outside(k, size, axis, at):  # compiled once; the message is built in Python (object mode)
    with numba.objmode():
        _raise_outside(k, size, axis, at)


@overload(item_at, jit_options={"nogil": True})
def _item_at(a, k, at=0):
    if not isinstance(a, types.Array) or not isinstance(k, types.Integer):
        return None
    axis = a.ndim == 1

    def impl(a, k, at=0):
        size = a.size
        flat = np.int64(k) + size if k < 0 else np.int64(k)
        if flat < 0 or flat >= size:
            _outside(np.int64(k), np.int64(size), axis, np.int64(at))
        return a.flat[flat]

    return impl
