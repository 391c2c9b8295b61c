"""The run-time half of lower/checks.py: an index tested against its axis as Python (NumPy) tests it.

Inlined, so that the test is a compare and a branch that LLVM can hoist or fold; the message is built only
when it fails, by a separate function compiled once and cached on disk: built inline, its int-to-str code cost
every cold compile about 1.8 s (measured: a 3-line dot product compiled in 2.9 s with the checks, 1.0 s
without). The plain-Python function is the meaning, for reading and for running without Numba.
"""

from __future__ import annotations

import numba
import numpy as np
from numba.extending import overload


def index(i, n, axis):
    if i < -n or i >= n:
        raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
    return i


@numba.njit("void(int64, int64, int64)", nogil=True, cache=True)
def _out_of_bounds(i, n, axis):
    raise IndexError("index " + str(i) + " is out of bounds for axis " + str(axis) + " with size " + str(n))


@overload(index, inline="always", jit_options={"nogil": True})
def _index(i, n, axis):
    def impl(i, n, axis):
        if i < -n or i >= n:
            _out_of_bounds(np.int64(i), np.int64(n), np.int64(axis))
        return i

    return impl
