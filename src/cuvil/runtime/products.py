"""`np.dot`, `a.dot(b)` and `a @ b` of integer and bool arrays (1-D and 2-D operands): Numba's are
BLAS only and refuse them in their own words ("No implementation of function dot", "unsupported dtype for
<BLAS function>"). These loop in NumPy's result dtype: the exact products summed in 64 bits and wrapped into the
dtype once (the same residue NumPy's per-step wrap gives), a bool product true where any pair is; NumPy's
ValueError, in its words, at the user's line for operands that do not align. The lowering calls them
(lower/library_results.py); float operands stay Numba's BLAS."""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .where import located


def int_dot(a, b, at=0):  # the plain-Python meaning: NumPy's own
    return np.dot(a, b)


def int_matmul(a, b, at=0):
    return np.matmul(a, b)


def _raise_unaligned(matmul, a0, a1, b0, b1, a_ndim, b_ndim, at):
    if matmul:
        message = (f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                   f"(n?,k),(k,m?)->(n?,m?) (size {b0} is different from {a1 if a_ndim == 2 else a0})")
    else:
        shape_a = f"({a0},)" if a_ndim == 1 else f"({a0},{a1})"
        shape_b = f"({b0},)" if b_ndim == 1 else f"({b0},{b1})"
        message = (f"shapes {shape_a} and {shape_b} not aligned: {a1 if a_ndim == 2 else a0} (dim {a_ndim - 1}) "
                   f"!= {b0} (dim 0)")
    raise located(ValueError, message, at)


@numba.njit("void(int64, int64, int64, int64, int64, int64, int64, int64)", cache=True)
def _unaligned(matmul, a0, a1, b0, b1, a_ndim, b_ndim, at):
    """Compiled once and cached, its message built in Python (object mode; runtime/messages.py says why)."""
    with numba.objmode():
        _raise_unaligned(matmul, a0, a1, b0, b1, a_ndim, b_ndim, at)


def _product(matmul):
    def typer(a, b, at=0):
        if not (isinstance(a, types.Array) and isinstance(b, types.Array)) or a.ndim not in (1, 2) \
                or b.ndim not in (1, 2):
            return None
        dtype = np.result_type(np.dtype(str(a.dtype)), np.dtype(str(b.dtype)))
        if dtype.kind not in "biu":
            return None
        cast = getattr(np, dtype.name if dtype.kind != "b" else "bool_")
        logical = dtype.kind == "b"
        wide = np.uint64 if dtype.kind == "u" else np.int64
        two_a, two_b = a.ndim == 2, b.ndim == 2

        def impl(a, b, at=0):
            m = a.shape[0] if two_a else 1
            k = a.shape[1] if two_a else a.shape[0]
            p = b.shape[1] if two_b else 1
            if b.shape[0] != k:
                _unaligned(np.int64(matmul), np.int64(a.shape[0]), np.int64(a.shape[-1]), np.int64(b.shape[0]),
                           np.int64(b.shape[-1]), np.int64(a.ndim), np.int64(b.ndim), np.int64(at))
            a2 = np.ascontiguousarray(a).reshape((m, k))
            b2 = np.ascontiguousarray(b).reshape((k, p))
            out = np.empty((m, p), cast)
            for i in range(m):
                for j in range(p):
                    if logical:
                        found = False
                        for t in range(k):
                            if a2[i, t] and b2[t, j]:
                                found = True
                                break
                        out[i, j] = found
                    else:
                        s = wide(0)
                        for t in range(k):
                            s += wide(a2[i, t]) * wide(b2[t, j])
                        out[i, j] = cast(s)
            return out

        return _ranked(register_jitable(impl), two_a, two_b)

    return typer


def _ranked(product, two_a, two_b):
    """`product` (an m × p array) in NumPy's result rank: a number for two vectors, a vector for one."""
    if two_a and two_b:
        return product
    if two_a or two_b:
        def vector(a, b, at=0):
            return product(a, b, at).ravel()

        return vector

    def number(a, b, at=0):
        return product(a, b, at)[0, 0]

    return number


overload(int_dot, jit_options={"nogil": True})(_product(False))
overload(int_matmul, jit_options={"nogil": True})(_product(True))


@register_jitable
def _as_row(v):
    return v.reshape((1, v.size))


@register_jitable
def _as_is(v):
    return v


def kron(a, b):  # the plain-Python meaning: NumPy's own
    return np.kron(a, b)


@overload(kron, jit_options={"nogil": True})
def _kron(a, b):
    """np.kron of 1-D and 2-D arrays in NumPy's result dtype (Numba's computes in the first operand's: int * float
    truncated to int64): each operand as a 2-D block (a 1-D one a row), the products cast as NumPy's multiply
    casts them (integers wrap, bools are `and`), 1-D when both are."""
    if not (isinstance(a, types.Array) and isinstance(b, types.Array) and a.ndim in (1, 2) and b.ndim in (1, 2)):
        return None
    dtype = np.result_type(np.dtype(str(a.dtype)), np.dtype(str(b.dtype)))
    if dtype.kind not in "biufc" or dtype.itemsize > 16:
        return None
    of = getattr(np, "bool_" if dtype.kind == "b" else dtype.name)
    flat = a.ndim == 1 and b.ndim == 1

    rows_a, rows_b = (_as_row if a.ndim == 1 else _as_is), (_as_row if b.ndim == 1 else _as_is)

    def impl(a, b):
        a2, b2 = rows_a(a), rows_b(b)
        rows, cols = b2.shape
        out = np.empty((a2.shape[0] * rows, a2.shape[1] * cols), of)
        for i in range(a2.shape[0]):
            for j in range(a2.shape[1]):
                x = of(a2[i, j])
                for k in range(rows):
                    for m in range(cols):
                        out[i * rows + k, j * cols + m] = x * of(b2[k, m])
        return out.ravel() if flat else out

    return impl


def correlate(a, v):  # the plain-Python meaning: NumPy's own
    return np.correlate(a, v)


@overload(correlate, jit_options={"nogil": True})
def _correlate(a, v):
    """np.correlate of two bool arrays is a bool array in NumPy (true where any pair is), Numba's an int8 count: the
    counts in int64, then whether each is nonzero. Other dtypes are Numba's."""
    if not (isinstance(a, types.Array) and isinstance(v, types.Array)):
        return None
    if isinstance(a.dtype, types.Boolean) and isinstance(v.dtype, types.Boolean):
        return lambda a, v: np.correlate(a.astype(np.int64), v.astype(np.int64)) != 0
    return lambda a, v: np.correlate(a, v)


_BOOL_SUBTRACT = ("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                  "operator, or the logical_xor function instead.")


_CROSS_DIMENSIONS = "incompatible dimensions for cross product\n(dimension must be 2 or 3)"


def cross(a, b, at=0):  # the plain-Python meaning: NumPy's own
    return np.cross(a, b)


@overload(cross, jit_options={"nogil": True})
def _cross(a, b, at=0):
    """np.cross of two bool arrays is NumPy's TypeError (it subtracts products), where Numba's gave a bool array.
    Other dtypes are Numba's."""
    if not (isinstance(a, types.Array) and isinstance(b, types.Array)):
        return None
    if not (isinstance(a.dtype, types.Boolean) and isinstance(b.dtype, types.Boolean)):
        return lambda a, b, at=0: np.cross(a, b)

    def refused(a, b, at=0):
        if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):  # NumPy checks the dimensions first
            if at:
                raise ValueError(_CROSS_DIMENSIONS, at)
            raise ValueError(_CROSS_DIMENSIONS)
        if at:
            raise TypeError(_BOOL_SUBTRACT, at)
        raise TypeError(_BOOL_SUBTRACT)

    return refused
