"""`np.trapezoid(y, x=None, dx=1.0)` of a 1-D `y` as NumPy computes it: `d * (y[1:] + y[:-1]) / 2.0` summed, the
pair added in y's own dtype first (uint8 wraps, bools are `or`: NumPy's trapezoid of uint8 [200, 100] is 22.0,
Numba's 150.0), then in the dtype NumPy's result_type gives (float32 for float32 `y` and no `x`, where Numba
returned a float64). `d` is `dx` (taken as a Python number) or np.diff(x) (in x's dtype; of bools, whether
neighbours differ)."""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from ..library.replaced import trapezoid_dtype


@register_jitable
def _changed(x, i):
    """np.diff of bools: whether neighbours differ."""
    return x[i + 1] != x[i]


def _step(dtype):
    @register_jitable
    def step(x, i):
        return dtype(x[i + 1] - x[i])  # in x's dtype: an integer step wraps, as NumPy's diff does

    return step


def trapezoid(y, x=None, dx=1.0):  # the plain-Python meaning: NumPy's own
    return np.trapezoid(y, x, dx)


@overload(trapezoid, jit_options={"nogil": True})
def _trapezoid(y, x=None, dx=1.0):
    if not isinstance(y, types.Array) or y.ndim != 1 or not isinstance(y.dtype, types.Number | types.Boolean):
        return None
    given = isinstance(x, types.Array)
    if given and (x.ndim != 1 or not isinstance(x.dtype, types.Number | types.Boolean)):
        return None
    if not given and not (x is None or isinstance(x, types.NoneType | types.Omitted)):
        return None
    own = getattr(np, "bool_" if isinstance(y.dtype, types.Boolean) else str(y.dtype))
    step = (_changed if isinstance(x.dtype, types.Boolean) else _step(getattr(np, str(x.dtype)))) if given else None
    out = getattr(np, trapezoid_dtype(np.dtype(str(y.dtype)), np.dtype(str(x.dtype)) if given else None).name)

    def impl(y, x=None, dx=1.0):
        total = out(0)
        for i in range(len(y) - 1):
            pair = own(y[i + 1] + y[i])
            d = out(step(x, i)) if given else out(dx)
            total += d * out(pair) / out(2.0)
        return total

    return impl
