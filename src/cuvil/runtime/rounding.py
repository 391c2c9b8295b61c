"""`np.round(a, decimals)` (also `np.around`, `a.round(decimals)`) computed as NumPy computes it: in the array's
own dtype. NumPy multiplies by 10**decimals converted to the dtype, rounds half to even (`rint`) and divides
again, each step in the dtype (a negative `decimals` divides first and multiplies after), so a float32 0.35
rounds to 0.4 (0.35f * 10 is 3.5 in float32). Numba computes in float64 (0.3), and returns the value itself
where the product overflows, where NumPy's is inf. The power of ten is NumPy's own (`power_of_ten`: a table
to 1e8, then products by 10). A complex number rounds each part so; an integer is itself for
`decimals >= 0` and rounds as runtime/elementwise.round_integer does otherwise; a half (a float32 holding a
half's value, runtime/half.py) rounds to half after each step, as NumPy's float16 loops do. The lowering calls
these (lower/library_results.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .elementwise import round_integer
from .half import round_f16
from .messages import UFUNC_OUT, raise_shapes

_NUMPY: Any = {"error_model": "numpy", "nogil": True}
_TABLE = (1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8)


def around(a, decimals):  # the plain-Python meaning: NumPy's own
    return np.round(a, decimals)


def around_into(a, decimals, out):
    """`np.round(a, decimals, out)`, `out` of `a`'s dtype: `out`, rounded into (NumPy's ValueError when `out`
    has another size, or another shape a cannot go into)."""
    return np.round(a, decimals, out)


def around_f16(x, decimals):
    """`np.round(h, decimals)` of a half `h`, given and returned as the float32 that holds its value."""
    return np.float32(np.round(np.float16(x), decimals))


@register_jitable(nogil=True)
def _power_of_ten(n):
    """NumPy's power_of_ten (numpy/_core/src/multiarray/calculation.c), in float64."""
    if n < 9:
        return _TABLE[n]
    value = 1e9
    for _ in range(9, n):
        value *= 10.0
    return value


def _float_rounding(dtype: types.Type):
    """The rounding of one value of the float `dtype`, as NumPy's loops compute it."""
    cast = getattr(np, str(dtype))

    def rounded(x, decimals):
        if decimals >= 0:
            f = cast(_power_of_ten(decimals))
            return np.rint(x * f) / f
        f = cast(_power_of_ten(-decimals))
        return np.rint(x / f) * f

    return register_jitable(**_NUMPY)(rounded)


_ROUNDINGS = {dtype: _float_rounding(dtype) for dtype in (types.float32, types.float64)}


def _element_rounding(dtype: types.Type):
    """The rounding of one element of `dtype` (None for a dtype NumPy does not round so)."""
    if isinstance(dtype, types.Float) and dtype in _ROUNDINGS:
        return _ROUNDINGS[dtype]
    if isinstance(dtype, types.Complex) and dtype.underlying_float in _ROUNDINGS:
        part = _ROUNDINGS[dtype.underlying_float]
        make = getattr(np, str(dtype))
        return register_jitable(**_NUMPY)(lambda x, decimals: make(complex(part(x.real, decimals),
                                                                            part(x.imag, decimals))))
    if isinstance(dtype, types.Integer):
        return register_jitable(**_NUMPY)(lambda x, decimals: round_integer(x, decimals))
    return None


@overload(around, jit_options=_NUMPY)
def _around(a, decimals):
    if not isinstance(decimals, types.Integer):
        return None
    if isinstance(a, types.Array):
        rounded = _element_rounding(a.dtype)
        if rounded is None:
            return None
        dtype = getattr(np, str(a.dtype))

        def impl(a, decimals):
            flat = np.ravel(a)
            out = np.empty(flat.size, dtype)
            for i in range(flat.size):
                out[i] = rounded(flat[i], decimals)
            return out.reshape(a.shape)

        return impl
    rounded = _element_rounding(a)
    if rounded is None:
        return None
    return lambda a, decimals: rounded(a, decimals)


@overload(around_into, jit_options=_NUMPY)
def _around_into(a, decimals, out):
    if not (isinstance(a, types.Array) and isinstance(out, types.Array) and a.dtype == out.dtype
            and isinstance(decimals, types.Integer)):
        return None
    rounded = _element_rounding(a.dtype)
    if rounded is None:
        return None

    def impl(a, decimals, out):
        if a.size != out.size:
            raise ValueError("invalid output shape")
        if a.shape != out.shape:  # NumPy's multiply(a, 10**d, out) refuses them
            raise_shapes(UFUNC_OUT, (a.shape, (), out.shape), 0)
        for index in np.ndindex(a.shape):
            out[index] = rounded(a[index], decimals)
        return out

    return impl


@overload(around_f16, jit_options=_NUMPY)
def _around_f16(x, decimals):
    if not (isinstance(x, types.Float) and isinstance(decimals, types.Integer)):
        return None

    def impl(x, decimals):
        h = round_f16(np.float32(x))
        if decimals >= 0:
            f = round_f16(np.float32(_power_of_ten(decimals)))
            return round_f16(np.rint(round_f16(h * f)) / f)
        f = round_f16(np.float32(_power_of_ten(-decimals)))
        return round_f16(np.rint(round_f16(h / f)) * f)

    return impl
