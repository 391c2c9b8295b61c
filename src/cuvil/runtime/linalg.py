"""`np.linalg.slogdet` and `np.linalg.cond` in NumPy's dtypes: Numba's compute float32 input and return it as
float64 (NumPy: float32 sign and log for float32, complex64 sign and float32 log for complex64, a float32
condition number). Integer input is converted to float64 first, as NumPy does. The values are Numba's (LAPACK's,
as NumPy's are). `pinv`, `inv` and `solve` of float32 and complex64 compute in double precision and return
the input's dtype, as NumPy's do."""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload, register_jitable


def slogdet(a):  # the plain-Python meaning: NumPy's own
    return np.linalg.slogdet(a)


def cond(a):
    return np.linalg.cond(a)


def _dtypes(a: types.Type) -> tuple[type, type] | None:
    """(the dtype NumPy computes in, its real part's) for a square-matrix argument Cuvil takes; else None."""
    if not isinstance(a, types.Array) or a.ndim != 2 or not isinstance(a.dtype, types.Number | types.Boolean):
        return None
    if isinstance(a.dtype, types.Float | types.Complex):
        inner = np.dtype(str(a.dtype))
        return getattr(np, inner.name), getattr(np, np.empty(0, inner).real.dtype.name)
    return np.float64, np.float64


@register_jitable
def _as(a, dtype):
    return a.astype(dtype)


@overload(slogdet, jit_options={"nogil": True})
def _slogdet(a):
    found = _dtypes(a)
    if found is None:
        return None
    inner, real = found

    def impl(a):
        sign, log = np.linalg.slogdet(_as(a, inner))
        return inner(sign), real(log)

    return impl


@overload(cond, jit_options={"nogil": True})
def _cond(a):
    found = _dtypes(a)
    if found is None:
        return None
    inner, real = found
    return lambda a: real(np.linalg.cond(_as(a, inner)))


def pinv(a):
    return np.linalg.pinv(a)


def inv(a):
    return np.linalg.inv(a)


def solve(a, b):
    return np.linalg.solve(a, b)


def _widened(a: types.Type) -> tuple[type, type] | None:
    """(the double dtype NumPy's LAPACK call computes a float32 or complex64 matrix in, the dtype it returns);
    None for other dtypes, whose Numba call is NumPy's."""
    if isinstance(a, types.Array) and str(a.dtype) in ("float32", "complex64"):
        return (np.float64, np.float32) if str(a.dtype) == "float32" else (np.complex128, np.complex64)
    return None


@overload(pinv, jit_options={"nogil": True})
def _pinv(a):
    """NumPy computes the pseudo-inverse of a float32 matrix in float64 and returns it in float32 (its
    _commonType); Numba's computes in float32, where a singular value NumPy's float64 SVD finds to be 0 is
    1e-7, inverted to 1e7 (np.linalg.pinv of a singular float32 matrix)."""
    found = _widened(a)
    if found is None:
        return lambda a: np.linalg.pinv(a)
    inner, out = found
    return lambda a: np.linalg.pinv(_as(a, inner)).astype(out)


@overload(inv, jit_options={"nogil": True})
def _inv(a):
    """In float64 for float32, as NumPy's (a nearly singular matrix: NumPy's rounding, not float32's)."""
    found = _widened(a)
    if found is None:
        return lambda a: np.linalg.inv(a)
    inner, out = found
    return lambda a: np.linalg.inv(_as(a, inner)).astype(out)


@overload(solve, jit_options={"nogil": True})
def _solve(a, b):
    found = _widened(a) if isinstance(b, types.Array) and b.dtype == getattr(a, "dtype", None) else None
    if found is None:
        return lambda a, b: np.linalg.solve(a, b)
    inner, out = found
    return lambda a, b: np.linalg.solve(_as(a, inner), _as(b, inner)).astype(out)
