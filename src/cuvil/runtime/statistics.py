"""`np.var` and `np.std` (and the methods) of a whole array: NumPy's nan for an empty one (it warns), where
Numba's divide by the size and raise ZeroDivisionError. The lowering calls these for the forms without an axis
or ddof (lower/library_results.py); anything else stays Numba's."""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload


def var(a):  # the plain-Python meaning: NumPy's own
    return np.var(a)


def std(a):
    return np.std(a)


def _or_nan(numba_function):
    def typer(a):
        if not isinstance(a, types.Array):
            return None

        def impl(a):
            if a.size == 0:
                return np.nan
            return numba_function(a)

        return impl

    return typer


overload(var, jit_options={"nogil": True})(_or_nan(np.var))
overload(std, jit_options={"nogil": True})(_or_nan(np.std))
