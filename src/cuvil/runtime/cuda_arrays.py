"""Device arrays on the host side of the CUDA target: views the launcher takes (`a[1:]`, `a[::-1]`) and copies
back to the host, safe for empty and reversed arrays.

numba-cuda refuses two things the simulator (NumPy inside) does without a word: a view of an empty device
array whose extent it computes as non-empty ("non-empty slice into empty slice": an empty array has a NULL
pointer), and copying a view with a negative stride to the host ("D->H copy not implemented for negative
strides"). So an empty view is a fresh empty array (no memory to point at), and a view that is not
C-contiguous is copied into one on the device first.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import cuda

from .cuda_runtime import grid, simulated

# ruff: noqa: ANN001 (kernels are typed by Numba at each launch)


def view(a: Any, key: Any) -> Any:
    """`a[key]` of a device array; an empty result is a new empty array of the view's shape."""
    if simulated(a) or not hasattr(a, "shape"):
        return a[key]
    shape = np.lib.stride_tricks.as_strided(np.zeros(1, np.bool_), a.shape, (0,) * len(a.shape))[key].shape
    if 0 in shape:
        return cuda.device_array(shape, dtype=a.dtype)
    return a[key]


def to_host(a: Any) -> np.ndarray:
    """A device array's values as a new NumPy array (C order)."""
    if a.size == 0:
        return np.empty(a.shape, dtype=a.dtype)
    return contiguous(a).copy_to_host()


def contiguous(a: Any) -> Any:
    """`a` when it is C-contiguous, else a C-contiguous device copy of it (copied by a kernel: numba-cuda copies
    only contiguous memory)."""
    if a.size == 0 or a.is_c_contiguous():
        return a
    out = cuda.device_array(a.shape, dtype=a.dtype)
    if a.ndim > 3:
        out.copy_to_device(np.ascontiguousarray(a.copy_to_host()))  # positive strides only; rare
        return out
    blocks, threads = grid(a.size)
    _copy_kernel(a.ndim)[blocks, threads](out, a)
    return out


@functools.cache
def _copy_kernel(ndim: int) -> Any:
    if ndim == 1:
        @cuda.jit
        def copy1(out, a):  # pragma: no cover (runs on the device)
            for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
                out[i] = a[i]

        return copy1
    if ndim == 2:
        @cuda.jit
        def copy2(out, a):  # pragma: no cover
            for f in range(cuda.grid(1), a.size, cuda.gridsize(1)):
                i, j = f // a.shape[1], f % a.shape[1]
                out[i, j] = a[i, j]

        return copy2

    @cuda.jit
    def copy3(out, a):  # pragma: no cover
        for f in range(cuda.grid(1), a.size, cuda.gridsize(1)):
            i, rest = f // (a.shape[1] * a.shape[2]), f % (a.shape[1] * a.shape[2])
            out[i, rest // a.shape[2], rest % a.shape[2]] = a[i, rest // a.shape[2], rest % a.shape[2]]

    return copy3
