"""`np.var` and `np.std` (and the methods) of a whole array: NumPy's nan for an empty one (it warns), where
Numba's divide by the size and raise ZeroDivisionError; and with `ddof=`, which Numba's do not take: the
squared deviations from the mean summed and divided by max(size - ddof, 0), as NumPy (inf or nan where that is
0). `np.median` of a whole array: NumPy's nan when any element is NaN (Numba's median sorts NaN aside and
answers the median of the rest) or the array is empty. The lowering calls these for the forms without an axis
(lower/library_results.py); with one, Numba's."""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload, register_jitable


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
