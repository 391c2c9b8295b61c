"""What generated parallel loops call (codegen/parallel.py): memory-overlap tests, error slots, and the rows of
a chunk of a reduction along a leading axis (lower/across.py).

Overlap: a parallel loop is proven race-free assuming its array arguments do not share memory; whether they do
is only known at run time (`f(a, a)`, `f(a[1:], a[:-1])`, an `as_strided` argument whose rows overlap). These
tests compare the byte ranges the arrays span — a few nanoseconds in compiled code, before the loop — and the
generated code runs the serial loop when they may overlap (as `np.may_share_memory` would say).

Errors: Numba loses exceptions raised inside a parallel loop, so the loop records, per worker thread, the
first failing iteration and an error code; after the loop, the code of the lowest failing iteration is the one
Python would have raised (it stops at the first), and the generated code raises it.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload

NO_ERROR = np.iinfo(np.int64).max
_SLOTS = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # get_thread_id() is below this


def overlaps(a, b):  # the plain-Python meaning
    if isinstance(a, tuple):
        return any(overlaps(x, b) for x in a)
    if isinstance(b, tuple):
        return any(overlaps(a, y) for y in b)
    return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.may_share_memory(a, b)


def self_overlaps(a):
    return False


def whole_rows(ok):  # the plain-Python meaning
    """Marks lower/row_loops.py's test between the whole-array branch and the loop as written: that loop runs
    only when run time rules the whole arrays out, so it stays serial (cfg/dependence.py: compile time)."""
    return ok


def error_slots():
    return np.full((_SLOTS, 4), NO_ERROR, np.int64)


def record_error(slots, iteration, code):
    slots[0, 0] = min(slots[0, 0], iteration)


def record_error_values(slots, iteration, code, a, b):
    """record_error, with two values the error's message needs (a bounds check's index and size)."""
    slots[0, 0] = min(slots[0, 0], iteration)


def first_error(slots):
    return 0


def error_value(slots, k):
    """Value `k` (0 or 1) recorded with the first failing iteration's error."""
    return 0


def _extent(a):
    """The first and one-past-last byte an array's elements occupy."""
    lo = hi = a.ctypes.data
    for k in range(a.ndim):
        span = (a.shape[k] - 1) * a.strides[k]
        if span < 0:
            lo += span
        else:
            hi += span
    return lo, hi + a.itemsize


_jit_extent = numba.njit(nogil=True)(_extent)


@overload(overlaps, jit_options={"nogil": True})
def _overlaps(a, b):
    if isinstance(a, types.BaseTuple):
        def any_of_a(a, b):
            for x in numba.literal_unroll(a):
                if overlaps(x, b):
                    return True
            return False

        return any_of_a
    if isinstance(b, types.BaseTuple):
        return lambda a, b: overlaps(b, a)
    if not (isinstance(a, types.Array) and isinstance(b, types.Array)):
        return lambda a, b: False

    def arrays(a, b):
        if a.size == 0 or b.size == 0:
            return False
        alo, ahi = _jit_extent(a)
        blo, bhi = _jit_extent(b)
        return alo < bhi and blo < ahi

    return arrays


@overload(whole_rows, jit_options={"nogil": True}, inline="always")
def _whole_rows(ok):
    return lambda ok: ok


@overload(self_overlaps, jit_options={"nogil": True})
def _self_overlaps(a):
    if isinstance(a, types.BaseTuple):
        def any_of(a):
            for x in numba.literal_unroll(a):
                if self_overlaps(x):
                    return True
            return False

        return any_of
    if not isinstance(a, types.Array) or a.layout in ("C", "F"):
        return lambda a: False  # contiguous: every element has its own bytes

    def strided(a):
        # Distinct elements have distinct bytes when each axis's stride is at least one element plus the
        # spans of the axes with smaller strides (ties: the earlier axis counts as smaller): the largest
        # axis where two indices differ then moves farther than all the others together can. No allocation,
        # ndim² steps. Anything else (a zero stride, as_strided rows) counts as overlapping.
        for k in range(a.ndim):
            if a.shape[k] <= 1:
                continue
            stride = abs(a.strides[k])
            smaller = a.itemsize
            for j in range(a.ndim):
                other = abs(a.strides[j])
                if j != k and a.shape[j] > 1 and (other < stride or (other == stride and j < k)):
                    smaller += other * (a.shape[j] - 1)
            if stride < smaller:
                return True
        return False

    return strided


@overload(error_slots, jit_options={"nogil": True})
def _error_slots():
    return lambda: np.full((_SLOTS, 4), NO_ERROR, np.int64)


@overload(record_error, jit_options={"nogil": True})
def _record_error(slots, iteration, code):
    def record(slots, iteration, code):
        t = numba.get_thread_id()
        if iteration < slots[t, 0]:
            slots[t, 0] = iteration
            slots[t, 1] = code

    return record


@overload(record_error_values, jit_options={"nogil": True})
def _record_error_values(slots, iteration, code, a, b):
    def record(slots, iteration, code, a, b):
        t = numba.get_thread_id()
        if iteration < slots[t, 0]:
            slots[t, 0] = iteration
            slots[t, 1] = code
            slots[t, 2] = a
            slots[t, 3] = b

    return record


@overload(first_error, jit_options={"nogil": True})
def _first_error(slots):
    def first(slots):
        best = 0
        for t in range(slots.shape[0]):
            if slots[t, 0] < slots[best, 0]:
                best = t
        return 0 if slots[best, 0] == NO_ERROR else slots[best, 1]

    return first


@overload(error_value, jit_options={"nogil": True})
def _error_value(slots, k):
    def value(slots, k):
        best = 0
        for t in range(slots.shape[0]):
            if slots[t, 0] < slots[best, 0]:
                best = t
        return slots[best, 2 + k]

    return value


@numba.njit(cache=True, nogil=True, forceinline=True)
def chunk_bounds(c, chunks, n):
    """Rows lo..hi of chunk `c` of `chunks` over `n` rows: ceil(n / chunks) each, the last ones shorter or
    empty. Cuvil's own arithmetic, so no Python-int checks: c < chunks <= 16 and the step is at most n, so
    nothing here nears int64 (checked, it put error slots and two more branches in every chunk loop: a
    parallel `x.sum(axis=0)` compiled 30% slower)."""
    step = -(-n // chunks)
    lo = c * step
    return lo, min(lo + step, n)

