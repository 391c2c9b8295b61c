"""Python's `sum()`, `max()`, `min()`, `any()` and `all()` of an array: folds over its first axis with NumPy's
arithmetic and comparisons, as CPython runs them. Numba's `sum` starts from an int64 0 and adds in its own promotions,
so `sum(int8_array)` was the int64 200 where Python's `0 + np.int8(100) + np.int8(100)` wraps to np.int8(-56), a
float32 array summed in float64, and a 2-D array did not compile; Numba's `max` of an empty array raised
StopIteration, not Python's ValueError. The lowering calls these for one argument (lower/builtin_calls.py).

The one difference left: Python's sum of an empty array is the int 0; here it is a zero of the array's sum type
(docs/semantics.md: one type per expression)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types
from numba.extending import overload

_JIT: Any = {"nogil": True, "error_model": "numpy"}


def python_sum(a):  # the plain-Python meaning
    return sum(a)


def python_max(a):
    return max(a)


def python_min(a):
    return min(a)


def python_any(a):
    return any(a)


def python_all(a):
    return all(a)


def _sum_dtype(a: types.Array) -> np.dtype:
    """`0 + a[0] + a[1] ...`: a's dtype (a weak 0 adopts it), int64 for bools (0 + np.True_ is np.int64(1))."""
    return np.dtype(np.int64) if isinstance(a.dtype, types.Boolean) else np.dtype(str(a.dtype))


@overload(python_sum, jit_options=_JIT)
def _python_sum(a):
    if not (isinstance(a, types.Array) and isinstance(a.dtype, types.Number | types.Boolean)):
        return None
    dtype = _sum_dtype(a)
    cast = dtype.type
    if a.ndim == 1:
        def scalars(a):
            acc = cast(0)
            for i in range(a.shape[0]):
                acc = cast(acc + a[i])  # Numba adds narrow ints and bools in int64: back into the dtype, wrapped
            return acc

        return scalars

    def rows(a):
        acc = np.zeros(a.shape[1:], dtype)
        for i in range(a.shape[0]):
            acc = (acc + a[i]).astype(dtype)
        return acc

    return rows


def _extreme(larger: bool):
    word = "max" if larger else "min"

    def typer(a):
        if not (isinstance(a, types.Array) and a.ndim == 1 and isinstance(a.dtype, types.Number | types.Boolean)):
            return None

        def impl(a):
            if a.shape[0] == 0:
                raise ValueError(word + "() arg is an empty sequence")
            best = a[0]
            for i in range(1, a.shape[0]):  # CPython keeps the first extreme and compares the new item first
                if (a[i] > best) if larger else (a[i] < best):
                    best = a[i]
            return best

        return impl

    return typer


overload(python_max, jit_options=_JIT)(_extreme(True))
overload(python_min, jit_options=_JIT)(_extreme(False))


def _first(found: bool):
    """any() (`found` True) or all(): each element's truth in turn, to the first that decides (NaN is true, as
    bool(nan)); Numba has neither of an array."""
    def typer(a):
        if not (isinstance(a, types.Array) and a.ndim == 1 and isinstance(a.dtype, types.Number | types.Boolean)):
            return None

        def impl(a):
            for x in a:
                if bool(x) == found:
                    return found
            return not found

        return impl

    return typer


overload(python_any, jit_options=_JIT)(_first(True))
overload(python_all, jit_options=_JIT)(_first(False))
