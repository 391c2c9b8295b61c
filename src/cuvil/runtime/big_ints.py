"""A Python int outside int64 (a literal, a module global or a global tuple's element: `MASK = 2**64 - 1`) where
compiled code cannot give CPython's or NumPy's answer: an OverflowError when it is reached, at the user's line.

Numba types such an int as uint64 and wraps it (`MASK - x` gave -2, CPython 18446744073709551614);
lower/big_ints.py keeps it where NumPy 2 makes it a uint64 or a float and calls `beyond_int64` everywhere
else. The helper returns an int64 for Numba's typing only: it always raises (a branch on the message, so Numba
types a value rather than a function that never returns).
"""

from __future__ import annotations

from numba.extending import overload


def beyond_int64(message, at=0):
    """The plain-Python meaning: the error."""
    raise OverflowError(message)


@overload(beyond_int64, jit_options={"nogil": True})
def _beyond_int64(message, at=0):
    def impl(message, at=0):
        if len(message):
            if at:
                raise OverflowError(message, at)
            raise OverflowError(message)
        return 0

    return impl
