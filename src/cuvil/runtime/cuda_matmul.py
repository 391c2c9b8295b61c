"""`a @ b` of device arrays in a CUDA launcher (codegen/launch.py prints `_rt.matmul(a, b)` on the host): NumPy's
rules for 1-D and 2-D operands — shapes, result dtype, the errors and their messages — and a grid-stride
kernel with a thread per element of the result, each a dot product in the result's dtype in the order of k.

A 1-D left operand is a row, a 1-D right operand a column, and those dims are dropped from the result; two
1-D operands give a scalar (a NumPy scalar, as `x @ y` does). More than two dims (a batch of products) has no
CUDA form here: a CuvilError says so.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import cuda

from ..errors import CuvilError


@functools.cache
def _kernel() -> Any:
    @cuda.jit
    def product(a, b, out, zero):  # pragma: no cover (runs on the device)
        n, m = out.shape
        for e in range(cuda.grid(1), n * m, cuda.gridsize(1)):
            i, j = e // m, e % m
            acc = zero  # of the result's dtype
            for k in range(a.shape[1]):
                acc += a[i, k] * b[k, j]
            out[i, j] = acc

    return product


def _numpy_check(a: tuple[int, ...], b: tuple[int, ...], dtypes: tuple[Any, Any]) -> np.dtype:
    """NumPy's result dtype; NumPy's own error (its message) for shapes it refuses, checked on stand-ins of
    the operands' shapes that hold no memory."""
    if not a or not b or a[-1] != b[0 if len(b) == 1 else -2]:
        np.matmul(*(np.lib.stride_tricks.as_strided(np.zeros(1, t), s, (0,) * len(s)) for s, t in zip((a, b), dtypes)))
    return np.result_type(*dtypes)


def matmul(a: Any, b: Any) -> Any:
    from .cuda_runtime import copy, grid

    ashape, bshape = tuple(a.shape), tuple(b.shape)  # the simulator's shapes take no negative index
    dtype = _numpy_check(ashape, bshape, (a.dtype, b.dtype))
    if len(ashape) > 2 or len(bshape) > 2:
        raise CuvilError(f"'@' of arrays with more than 2 dims ({len(ashape)} and {len(bshape)}) has no "
                         "target='cuda' form; use target='cpu', or write the products as loops")
    rows = ashape[0] if len(ashape) == 2 else 1
    cols = bshape[1] if len(bshape) == 2 else 1
    left = _as_2d(a, copy, (1, ashape[0]))
    right = _as_2d(b, copy, (bshape[0], 1))
    out = cuda.device_array((rows, cols), dtype=dtype)
    if out.size:
        blocks, threads = grid(out.size)
        _kernel()[blocks, threads](left, right, out, dtype.type(0))
    if len(ashape) == 1 and len(bshape) == 1:
        return out.copy_to_host()[0, 0]
    if len(ashape) == 1 or len(bshape) == 1:
        return out.reshape(cols if len(ashape) == 1 else rows)
    return out


def _as_2d(x: Any, copy: Any, shape: tuple[int, int]) -> Any:
    if len(x.shape) == 2:
        return x
    if not x.is_c_contiguous():
        x = copy(x)
    return x.reshape(shape)
