"""`np.linalg.slogdet` and `np.linalg.cond` in NumPy's dtypes: Numba's compute float32 input and return it as
float64 (NumPy: float32 sign and log for float32, complex64 sign and float32 log for complex64, a float32
condition number). Integer input is converted to float64 first, as NumPy does. The values are Numba's (LAPACK's,
as NumPy's are)."""

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
