"""The run-time half of lower/checks.py: an index tested against its axis as Python (NumPy) tests it.

Inlined, so that the test is a compare and a branch that LLVM can hoist or fold; the message is built only
when it fails. The plain-Python function is the meaning, for reading and for running without Numba.
"""

from __future__ import annotations

from numba.extending import overload


def index(i, n, axis):
    if i < -n or i >= n:
        raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
    return i


@overload(index, inline="always", jit_options={"nogil": True})
def _index(i, n, axis):
    def impl(i, n, axis):
        if i < -n or i >= n:
            raise IndexError("index " + str(i) + " is out of bounds for axis " + str(axis) + " with size " + str(n))
        return i

    return impl
