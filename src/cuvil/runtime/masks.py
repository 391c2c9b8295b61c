"""Boolean masks of two or more dims, `a[m]` and `a[m] = v` (lower/masks.py): Numba indexes with a 1-D mask
only and fails an assertion on others. NumPy selects the elements where the mask is True, in C order, after
checking the mask's shape against the array's ("boolean index did not match indexed array along axis 0; …",
an IndexError at the user's line); a value array must hold one element or one per selected element. A store
reads the mask and the values as they were before it (`a[m] = a[0]`, `b[b.T] = False`): overlapping ones are
copied first, as NumPy does."""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .parallel import overlaps
from .where import located


def mask_read(a, mask, at=0):
    return a[mask]


def mask_store(a, mask, value, at=0):
    a[mask] = value


def _raise_mismatch(axis, size, masked, at):
    raise located(IndexError, f"boolean index did not match indexed array along axis {axis}; size of axis is "
                              f"{size} but size of corresponding boolean axis is {masked}", at)


def _raise_values(given, selected, at):
    raise located(ValueError, f"NumPy boolean array indexing assignment cannot assign {given} input values to the "
                              f"{selected} output values where the mask is true", at)


@numba.njit("void(int64, int64, int64, int64)", cache=True)
def _mismatch(axis, size, masked, at):  # compiled once; the message is built in Python (object mode)
    with numba.objmode():
        _raise_mismatch(axis, size, masked, at)


@numba.njit("void(int64, int64, int64)", cache=True)
def _values(given, selected, at):
    with numba.objmode():
        _raise_values(given, selected, at)


@register_jitable
def _same_shape(shape, masked, at):
    for k in range(len(shape)):
        if shape[k] != masked[k]:
            _mismatch(np.int64(k), np.int64(shape[k]), np.int64(masked[k]), np.int64(at))


def _typed(a, mask):
    return isinstance(a, types.Array) and isinstance(mask, types.Array) and isinstance(mask.dtype, types.Boolean) \
        and mask.ndim == a.ndim


@overload(mask_read, jit_options={"nogil": True})
def _mask_read(a, mask, at=0):
    if not _typed(a, mask):
        return None

    def impl(a, mask, at=0):
        _same_shape(a.shape, mask.shape, at)
        out = np.empty(np.count_nonzero(mask), a.dtype)
        k = 0
        for at_index in np.ndindex(a.shape):
            if mask[at_index]:
                out[k] = a[at_index]
                k += 1
        return out

    return impl


@overload(mask_store, jit_options={"nogil": True})
def _mask_store(a, mask, value, at=0):
    if not _typed(a, mask) or isinstance(value, types.Array) and value.ndim > 1:
        return None
    if isinstance(value, types.Array):
        def from_array(a, mask, value, at=0):
            _same_shape(a.shape, mask.shape, at)
            selected = np.count_nonzero(mask)
            if value.size != 1 and value.size != selected:
                _values(np.int64(value.size), np.int64(selected), np.int64(at))
            m = mask.copy() if overlaps(a, mask) else mask
            v = value.copy() if overlaps(a, value) else value
            k = 0
            for at_index in np.ndindex(a.shape):
                if m[at_index]:
                    a[at_index] = v[k if v.size != 1 else 0]
                    k += 1

        return from_array

    def from_number(a, mask, value, at=0):
        _same_shape(a.shape, mask.shape, at)
        m = mask.copy() if overlaps(a, mask) else mask
        for at_index in np.ndindex(a.shape):
            if m[at_index]:
                a[at_index] = value

    return from_number
