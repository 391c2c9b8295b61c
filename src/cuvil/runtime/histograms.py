"""`np.histogram(a, bins, range)` valued as NumPy 2's (numpy/lib/_histograms_impl.py), step for step, in NumPy's
dtypes. Numba's own differs: it puts nothing in the bins of constant data (NumPy widens the range by 0.5 each
side), takes NaN and inf into an autodetected range (NumPy's ValueError), fails on an empty array, bins values
on an edge by its own arithmetic, and gives float64 edges for float32 data.

Equal bins (`bins` an int): the range is `range` or the data's min and max (0, 1 when empty), widened when
empty; the edges are NumPy's linspace in the data's float dtype (float64 for integers and bools, which NumPy
converts to uint8), computed in float64 unless the data is a float with no `range` given (then in its own
dtype, as NumPy's result_type makes it). A value in the range goes to bin int((x - first) / (last - first) * n),
moved down or up by one where the edges say otherwise; the last bin holds `last`. NaN is in no bin.
Edges given (`bins` an array): NumPy's counts by sorted search, NaN sorted last, the array itself returned.
`range` is taken as Python numbers (weak): np.float64 bounds with float32 data would make NumPy's edges float64.
Integer data compares with the range in float64 (exact below 2**53).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .ranges import linspace
from .where import located


def histogram(a, bins=10, range=None, at=0):  # noqa: A002 (NumPy's name)  the plain-Python meaning
    return np.histogram(a, bins, range)


def _raise(code, first, last, first_int, last_int, single, n, at):
    def shown(v, integral):  # NumPy's f-string formats a float32 or float16 bound as the float64 it converts to
        return str(int(v)) if integral else str(float(v))

    if code == 0:
        message = "`bins` must be positive, when an integer"
    elif code == 1:
        message = "max must be larger than min in range parameter."
    elif code == 2:
        message = f"supplied range of [{shown(first, first_int)}, {shown(last, last_int)}] is not finite"
    elif code == 3:
        message = f"autodetected range of [{shown(first, False)}, {shown(last, False)}] is not finite"
    elif code == 4:
        message = f"Too many bins for data range. Cannot create {n} finite-sized bins."
    else:
        message = "`bins` must increase monotonically, when an array"
    raise located(ValueError, message, at)


@numba.njit("void(int64, float64, float64, boolean, boolean, boolean, int64, int64)", cache=True)
def _fail(code, first, last, first_int, last_int, single, n, at):
    """No `nogil`: object mode cannot honour it (a cold path)."""
    with numba.objmode():
        _raise(code, first, last, first_int, last_int, single, n, at)


def _float_of(dtype: types.Type) -> type:
    return getattr(np, str(dtype)) if isinstance(dtype, types.Float) else np.float64


@register_jitable
def _before(x, y):
    """NumPy's sort order: NaN after every number."""
    return x < y or (y != y and x == x)


@register_jitable
def _search(sorted_, v, right):
    lo, hi = 0, len(sorted_)
    while lo < hi:
        mid = (lo + hi) // 2
        if _before(v, sorted_[mid]) if right else not _before(sorted_[mid], v):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _given_edges(a, bins, range=None, at=0):  # noqa: A002
    def impl(a, bins=10, range=None, at=0):  # noqa: A002
        for k in np.arange(len(bins) - 1):
            if bins[k] > bins[k + 1]:
                _fail(5, 0.0, 0.0, False, False, False, 0, np.int64(at))
        ordered = np.sort(a.ravel())
        counts = np.zeros(max(len(bins) - 1, 0), np.int64)
        last = len(bins) - 1
        for k in np.arange(last):
            upper = _search(ordered, bins[k + 1], k + 1 == last)
            counts[k] = upper - _search(ordered, bins[k], False)
        return counts, bins

    return impl


@overload(histogram, jit_options={"nogil": True})
def _histogram(a, bins=10, range=None, at=0):  # noqa: A002
    real = types.Integer | types.Float | types.Boolean
    if not isinstance(a, types.Array) or not isinstance(a.dtype, real):
        return None
    if isinstance(bins, types.Array) and bins.ndim == 1 and isinstance(bins.dtype, real):
        return _given_edges(a, bins, range, at)
    if not isinstance(bins, int | types.Integer | types.Omitted):  # left out: the default itself
        return None
    given = isinstance(range, types.BaseTuple) and len(range) == 2
    if not given and not isinstance(range, types.NoneType | types.Omitted) and range is not None:
        return None
    floating = isinstance(a.dtype, types.Float)
    edge = _float_of(a.dtype)  # the edges' dtype
    compute = edge if floating and not given else np.float64  # the linspace's and the bin index's
    single = edge is np.float32
    ints = tuple(isinstance(t, types.Integer) for t in range.types) if given else (False, False)

    def impl(a, bins=10, range=None, at=0):  # noqa: A002
        n = np.int64(bins)
        x = a.ravel()
        if n < 1:
            _fail(0, 0.0, 0.0, False, False, False, n, np.int64(at))
        if given:
            first, last = compute(range[0]), compute(range[1])
            if first > last:
                _fail(1, 0.0, 0.0, False, False, False, n, np.int64(at))
            if not (np.isfinite(first) and np.isfinite(last)):
                _fail(2, np.float64(first), np.float64(last), ints[0], ints[1], False, n, np.int64(at))
        elif x.size == 0:
            first, last = compute(0), compute(1)
        else:
            low, high = x[0], x[0]
            for v in x:  # NaN propagates, as a.min() and a.max() do
                if v != v or low != low:
                    low = high = v if v != v else low
                    break
                low, high = min(low, v), max(high, v)
            first, last = compute(low), compute(high)
            if not (np.isfinite(first) and np.isfinite(last)):
                _fail(3, np.float64(first), np.float64(last), False, False, single, n, np.int64(at))
        if first == last:
            first, last = first - compute(0.5), last + compute(0.5)
        edges = linspace(first, last, n + 1, True, compute, edge)
        for k in np.arange(n):
            if edges[k] >= edges[k + 1]:
                _fail(4, 0.0, 0.0, False, False, False, n, np.int64(at))
        counts = np.zeros(n, np.int64)
        low_e, high_e = edge(first), edge(last)  # as the data compares with them (a weak bound: the data's dtype)
        denominator = last - first
        for v in x:
            if floating:
                inside = v >= low_e and v <= high_e
            else:
                inside = np.float64(v) >= first and np.float64(v) <= last
            if not inside:
                continue
            value = edge(v)
            k = np.int64(compute(value - low_e) / denominator * compute(n))
            if k == n:
                k -= 1
            if value < edges[k]:
                k -= 1
            if value >= edges[k + 1] and k != n - 1:
                k += 1
            counts[k] += 1
        return counts, edges

    return impl
