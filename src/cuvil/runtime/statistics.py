"""`np.var` and `np.std` (and the methods) of a whole array: NumPy's nan for an empty one (it warns), where
Numba's divide by the size and raise ZeroDivisionError; and with `ddof=`, which Numba's do not take: the
squared deviations from the mean summed and divided by max(size - ddof, 0), as NumPy (inf or nan where that is
0). `np.median` of a whole array: NumPy's nan when any element is NaN (Numba's median sorts NaN aside and
answers the median of the rest) or the array is empty. The lowering calls these for the forms without an axis
(lower/library_results.py); with one, runtime/axis_reductions.py's. `np.percentile` and `np.quantile` of an
empty array: NumPy's IndexError (after its check of q), where Numba's failed an assertion."""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .where import located


def var(a, ddof=0):  # the plain-Python meaning: NumPy's own
    return np.var(a, ddof=ddof)


def std(a, ddof=0):
    return np.std(a, ddof=ddof)


def median(a):
    return np.median(a)


@register_jitable(error_model="numpy", nogil=True)
def _var_ddof(a, ddof):
    """NumPy's var with `ddof`: sum(|x - mean|**2) / max(n - ddof, 0), in float64."""
    flat = np.ravel(a)
    n = flat.size
    if n == 0:
        return np.nan
    mean = np.mean(flat)
    total = 0.0
    for i in range(n):
        d = flat[i] - mean
        total += (d * np.conj(d)).real
    return total / max(n - ddof, 0)


def _or_nan(numba_function, root):
    def typer(a, ddof=0):
        if not isinstance(a, types.Array):
            return None
        if isinstance(ddof, types.Integer | types.Float):
            def with_ddof(a, ddof=0):
                value = _var_ddof(a, ddof)
                return np.sqrt(value) if root else value
            return with_ddof

        def impl(a, ddof=0):
            if a.size == 0:
                return np.nan
            return numba_function(a)

        return impl

    return typer


overload(var, jit_options={"nogil": True})(_or_nan(np.var, False))
overload(std, jit_options={"nogil": True})(_or_nan(np.std, True))


@overload(median, jit_options={"nogil": True})
def _median(a):
    if not (isinstance(a, types.Array) and isinstance(a.dtype, types.Float | types.Integer | types.Boolean)):
        return None

    def impl(a):
        flat = np.ravel(a)
        if flat.size == 0:
            return np.nan
        for i in range(flat.size):
            if flat[i] != flat[i]:
                return np.nan
        return np.median(flat)

    return impl


def percentile(a, q, at=0):
    return np.percentile(a, q)


def quantile(a, q, at=0):
    return np.quantile(a, q)


_EMPTY = ("index 0 is out of bounds for axis 0 with size 0", "index -1 is out of bounds for axis 0 with size 0",
          "cannot do a non-empty take from an empty axes.")  # NumPy's IndexError for each first read


def _raise_empty(which, at):
    raise located(IndexError, _EMPTY[which], at)


@numba.njit("void(int64, int64)", cache=True)
def _empty_error(which, at):
    with numba.objmode():
        _raise_empty(which, at)


@register_jitable
def _first_index(q):
    """The index NumPy reads first from an empty integer array: -1 where q's first value is 0 (the
    interpolation's "above the last element", (n - 1) * q = -0.0), else 0; 1 for an empty q (it reads none)."""
    flat = np.ravel(np.asarray(q))
    if flat.size == 0:
        return 1
    return -1 if flat[0] == 0 else 0


@register_jitable
def _signed_lerp(s, v, dtype):
    """NumPy's linear interpolation at the virtual index v of the sorted signed integers s: the step between
    neighbours is taken in their dtype, wrapping as NumPy's subtract does (np.percentile of int8 [-1, 127] at 50
    is 191.0), then the rest in float64, from below under half and from above at half or more."""
    n = s.size
    if v >= n - 1:
        return np.float64(s[n - 1])
    if v < 0:
        return np.float64(s[0])
    below = int(np.floor(v))
    gamma = v - below
    diff = np.float64(dtype(s[below + 1] - s[below]))  # Numba subtracts in int64: back to the dtype's width
    if gamma >= 0.5:
        return np.float64(s[below + 1]) - diff * (1 - gamma)
    return np.float64(s[below]) + diff * gamma


def _signed(scale):
    """np.percentile (scale 100) or np.quantile (1) of a signed integer array with elements, NumPy's way."""
    @register_jitable
    def scalar(a, q, dtype):
        return _signed_lerp(np.sort(a.ravel()), (a.size - 1) * (np.float64(q) / scale), dtype)

    @register_jitable
    def array(a, q, dtype):
        s = np.sort(a.ravel())
        flat = np.ravel(np.asarray(q))
        out = np.empty(flat.size, np.float64)
        for k in range(flat.size):
            out[k] = _signed_lerp(s, (s.size - 1) * (np.float64(flat[k]) / scale), dtype)
        return out.reshape(np.shape(q))

    return scalar, array


def _of_empty(numba_function, quantile):
    """Numba's own for an array with elements (for a signed integer one NumPy's, whose step wraps: `_signed`);
    for an empty one, NumPy's IndexError for the element it reads first (the last of a float array, looking for
    a NaN; of an integer array the first, or the last where the first q is 0; np.quantile of an integer array
    with integer q takes: its own words), once q passed Numba's check (NumPy's words: "Percentiles must be in
    the range [0, 100]"). An empty q of an empty integer array reads nothing: an empty float64 array, as
    NumPy's."""
    def typer(a, q, at=0):
        if not (isinstance(a, types.Array) and isinstance(a.dtype, types.Float | types.Integer)):
            return None
        floats = isinstance(a.dtype, types.Float)
        takes = quantile and isinstance(q.dtype if isinstance(q, types.Array) else q, types.Integer | types.Boolean)

        signed = isinstance(a.dtype, types.Integer) and a.dtype.signed and not takes
        lerp = _signed(1.0 if quantile else 100.0)[isinstance(q, types.Array)]
        dtype = getattr(np, str(a.dtype))

        def impl(a, q, at=0):
            if a.size == 0:
                none = numba_function(np.zeros(1), q)  # q's range, checked first
                first = -1 if floats else _first_index(q)
                if first == 1:
                    return none
                _empty_error(np.int64(2 if takes and not floats else first == -1), np.int64(at))
            if signed:
                numba_function(np.zeros(1), q)  # q's range
                return lerp(a, q, dtype)
            return numba_function(a, q)

        return impl

    return typer


overload(percentile, jit_options={"nogil": True})(_of_empty(np.percentile, False))
overload(quantile, jit_options={"nogil": True})(_of_empty(np.quantile, True))
