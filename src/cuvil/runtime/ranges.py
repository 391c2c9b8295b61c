"""`np.arange` with a float among its arguments, valued as NumPy's: NumPy stores `start` and `start + step` cast
to the dtype, then fills element i with `start + i * delta`, `delta` being their difference in the dtype
(`np.arange(1, 2, 0.1)[2]` is 1.2000000000000002; `np.arange(-2.5, 2, dtype=np.int8)` is [-2 … 2], both casts
truncating). Numba computes `start + i * step` (1.2; [-2, -1, 0, 0, 1]). The length is NumPy's,
ceil((stop - start) / step); a zero float step is its ZeroDivisionError, at the user's line. The lowering calls
this for float arguments (lower/library_results.py); integer ones are exact in Numba already.

`np.linspace(start, stop, num, endpoint, retstep, dtype)` of numbers, valued as NumPy's: in `compute` (the
inexact result type of start and stop, which the lowering works out because a Python int and an np.int64 are
one type here), `step = (stop - start) / div` and element i is `i * step + start` (`i / div * delta + start`
where the step underflows to 0), the last element `stop` when `endpoint`, floored for an integer `dtype`, then
cast to it. Numba's takes no endpoint, retstep or dtype and computes float32 arguments in float64."""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .where import located


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


def linspace(start, stop, num, endpoint, compute, dtype, at=0):  # the plain-Python meaning: NumPy's own
    return np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)


def linspace_step(start, stop, num, endpoint, compute, dtype, at=0):
    return np.linspace(start, stop, num, endpoint=endpoint, retstep=True, dtype=dtype)


def _raise_samples(num, at):
    raise located(ValueError, f"Number of samples, {num}, must be non-negative.", at)


@numba.njit("void(int64, int64)", cache=True)
def _negative_samples(num, at):
    """No `nogil`: object mode cannot honour it, and it matters only for calls from Python."""
    with numba.objmode():
        _raise_samples(num, at)


def _linspace_impl(with_step):
    def typer(start, stop, num, endpoint, compute, dtype, at=0):
        inner = compute.dtype if isinstance(compute, types.NumberClass) else None
        target = dtype.dtype if isinstance(dtype, types.NumberClass) else None
        if not isinstance(inner, types.Float) or not isinstance(target, types.Number) \
                or not isinstance(num, types.Integer):
            return None
        fill = _fill(getattr(np, str(inner)), getattr(np, str(target)), isinstance(target, types.Integer))

        def impl(start, stop, num, endpoint, compute, dtype, at=0):
            if num < 0:
                _negative_samples(np.int64(num), np.int64(at))
            out, step = fill(start, stop, num, endpoint)
            return (out, step) if with_step else out

        return impl

    return typer


def _fill(cast, target, integer):
    @register_jitable
    def fill(start, stop, num, endpoint):
        div = num - 1 if endpoint else num
        first, last = cast(start), cast(stop)
        delta = cast(last - first)
        y = np.empty(num, cast)
        step = cast(np.nan)
        if div > 0:
            step = delta / cast(div)
            if step == 0:  # a subnormal step: NumPy divides first (gh-5437)
                for i in range(num):
                    y[i] = cast(i) / cast(div) * delta
            else:
                for i in range(num):
                    y[i] = cast(i) * step
        else:
            for i in range(num):
                y[i] = cast(i) * delta
        for i in range(num):
            y[i] = y[i] + first
        if endpoint and num > 1:
            y[num - 1] = last
        if integer:
            y = np.floor(y)
        return y.astype(target), step

    return fill


overload(linspace, jit_options={"nogil": True})(_linspace_impl(False))
overload(linspace_step, jit_options={"nogil": True})(_linspace_impl(True))
