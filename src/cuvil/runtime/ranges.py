"""`np.arange` with a float among its arguments, valued as NumPy's: NumPy stores `start` and `start + step` cast
to the dtype, then fills element i with `start + i * delta`, `delta` being their difference in the dtype
(`np.arange(1, 2, 0.1)[2]` is 1.2000000000000002; `np.arange(-2.5, 2, dtype=np.int8)` is [-2 … 2], both casts
truncating). Numba computes `start + i * step` (1.2; [-2, -1, 0, 0, 1]). The length is NumPy's,
ceil((stop - start) / step); a zero float step is its ZeroDivisionError, at the user's line. The lowering calls
this for float arguments (lower/library_results.py); integer ones are exact in Numba already."""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload


def arange(start, stop, step, dtype, at=0):  # the plain-Python meaning: NumPy's own
    return np.arange(start, stop, step, dtype=dtype)


@overload(arange, jit_options={"nogil": True})
def _arange(start, stop, step, dtype, at=0):
    target = dtype.dtype if isinstance(dtype, types.NumberClass) else None
    if not isinstance(target, types.Integer | types.Float):
        return None
    cast = getattr(np, str(target))
    floats = isinstance(target, types.Float)

    def impl(start, stop, step, dtype, at=0):
        if step == 0:
            if at:
                raise ZeroDivisionError("float division by zero", at)
            raise ZeroDivisionError("float division by zero")
        length = np.ceil((np.float64(stop) - np.float64(start)) / np.float64(step))
        n = int(length) if length > 0 else 0
        out = np.empty(n, cast)
        if n > 0:
            out[0] = cast(start)
        if n > 1:
            out[1] = cast(start + step)
        first = out[0] if n > 0 else cast(0)
        delta = cast(out[1] - first) if n > 1 else cast(0)  # in the dtype, wrapped as NumPy's
        for i in range(2, n):
            out[i] = first + cast(i) * delta if floats else cast(first + i * delta)  # C: i converted to the float
        return out

    return impl
