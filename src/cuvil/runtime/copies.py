"""np.copyto(dst, src), which Numba lacks: NumPy's casting rule, broadcasting and overlap.

- Casting is 'same_kind', decided from the dtypes when Numba types the call: float into an int array, int64 into
  uint8, anything into bool but a bool raise NumPy's TypeError, word for word, when the call runs. A Python int
  comes here already fitted to an integer `dst` (lower/library_results.py: NumPy takes it by value, and raises
  its OverflowError for 300 into int8), so it is not refused as an int64 would be.
- `src` broadcasts to `dst`'s shape, or NumPy's ValueError ("could not broadcast input array from shape (4,)
  into shape (3,)").
- `src` is read before `dst` is written (`np.copyto(x[1:], x[:-1])` shifts x, as NumPy's does): an array `src`
  is copied first; NumPy checks for overlap, and a copy is what it makes when there is one.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from .messages import NOT_INTO, raise_shapes


def copyto(dst, src, at=0):  # the plain-Python meaning: NumPy's own
    np.copyto(dst, src)


def _dtype(t: types.Type) -> np.dtype | None:
    try:
        return np.dtype(str(t.dtype if isinstance(t, types.Array) else t))
    except TypeError:
        return None


@overload(copyto, jit_options={"nogil": True})
def _copyto(dst, src, at=0):
    if not isinstance(dst, types.Array) or not isinstance(src, types.Array | types.Number | types.Boolean):
        return None
    into, given = _dtype(dst), _dtype(src)
    if into is None or given is None:
        return None
    if not np.can_cast(given, into, "same_kind"):
        what = "array data" if isinstance(src, types.Array) and src.ndim else "scalar"  # (NumPy's words)
        message = f"Cannot cast {what} from {given!r} to {into!r} according to the rule 'same_kind'"

        def refused(dst, src, at=0):
            if at:
                raise TypeError(message, at)
            raise TypeError(message)

        return refused
    if not isinstance(src, types.Array):
        def fill(dst, src, at=0):
            for index in np.ndindex(dst.shape):
                dst[index] = src

        return fill
    rank, inner = dst.ndim, src.ndim

    def copy(dst, src, at=0):
        fits = True
        for d in range(inner):  # from the last axis; src's axes beyond dst's rank must be 1s
            n = src.shape[inner - 1 - d]
            fits = fits and (n == 1 or d < rank and n == dst.shape[rank - 1 - d])
        if not fits:
            raise_shapes(NOT_INTO, (src.shape, dst.shape), np.int64(at))
        source = np.ascontiguousarray(src).ravel().copy()  # read before any write: dst may overlap src
        steps = np.zeros(max(rank, 1), np.int64)  # src's step along each of dst's axes; 0 where it broadcasts
        step = 1
        for d in range(inner - 1, -1, -1):
            k = rank - inner + d
            if k >= 0 and src.shape[d] != 1:
                steps[k] = step
            step *= src.shape[d]
        for index in np.ndindex(dst.shape):
            offset = 0
            for k in range(rank):
                offset += index[k] * steps[k]
            dst[index] = source[offset]

    return copy
