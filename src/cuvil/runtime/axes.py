"""NumPy functions along an axis that Numba lacks or compiles slowly: `np.cumprod` and `.cumprod()` take no `axis`
there (its cumsum does, but compiles the string formatting of its axis error into every first call: 1.4 s),
`np.sort` sorts the last axis only, `np.argsort` only 1-D arrays, `np.roll` takes no `axis`. The lowering
calls these for `np.cumsum(a, axis=k)`, `np.cumprod(a, axis=k)`, `a.cumprod(k)`, `np.sort(a, axis=k)`,
`a.sort(axis=k)` (in place), `np.argsort(a, axis=k)`, `np.argsort` of a 2-D or higher array and
`np.roll(a, s, axis=k)`
(lower/library_results.py). Each works on the lanes along the axis (the array seen as outer × n × inner), with
NumPy's dtypes (a product of an integer or bool array accumulates in int64, uint in uint64, with wrap-around;
argsort gives int64) and NumPy's AxisError at the user's line for an axis out of range. Each lane is sorted by
Numba's own 1-D sort, so ties and NaNs order as Cuvil's 1-D `np.sort`/`np.argsort` do.
"""

from __future__ import annotations

import operator

import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable
from numba.np.unsafe.ndarray import to_fixed_tuple

from .where import located


def cumsum_axis(a, axis, at=0):  # the plain-Python meaning: NumPy's own
    return np.cumsum(a, axis=axis)


def cumprod_axis(a, axis, at=0):
    return np.cumprod(a, axis=axis)


def sort_axis(a, axis, at=0):
    return np.sort(a, axis=axis)


def argsort_axis(a, axis, at=0):
    return np.argsort(a, axis=axis)


def sort_in_place(a, axis, at=0):  # `a.sort(axis=k)`: Numba's method takes no axis
    a.sort(axis=axis)


def argmax_axis(a, axis, at=0):
    return np.argmax(a, axis=axis)


def argmin_axis(a, axis, at=0):
    return np.argmin(a, axis=axis)


def roll_axis(a, shift, axis, at=0):
    return np.roll(a, shift, axis=axis)


def norm_axis(a, axis, keepdims=False, at=0):
    return np.linalg.norm(a, axis=axis, keepdims=keepdims)


def _raise_empty(which, at):
    raise located(ValueError, f"attempt to get {'argmax' if which else 'argmin'} of an empty sequence", at)


@numba.njit("void(int64, int64)", cache=True)
def _empty_error(which, at):
    with numba.objmode():
        _raise_empty(which, at)


def _raise_axis(axis, ndim, at):
    """NumPy's own AxisError(axis, ndim): its words and its args, the user's line after them (runtime/where.py)."""
    error = np.exceptions.AxisError(int(axis), int(ndim), None)  # as NumPy raises it: args (axis, ndim, None)
    if at:
        error.args = (*error.args, int(at))
    raise error


@numba.njit("void(int64, int64, int64)", cache=True)
def _axis_error(axis, ndim, at):
    """Compiled once and cached, its message built in Python (object mode; runtime/messages.py says why)."""
    with numba.objmode():
        _raise_axis(axis, ndim, at)


@register_jitable
def _lanes(shape, axis, ndim, at):
    """(outer, n, inner): the array as lanes of n elements along `axis`, after NumPy's axis check."""
    k = axis + ndim if axis < 0 else axis
    if k < 0 or k >= ndim:
        _axis_error(np.int64(axis), np.int64(ndim), np.int64(at))
    outer = 1
    for d in range(k):
        outer *= shape[d]
    inner = 1
    for d in range(k + 1, ndim):
        inner *= shape[d]
    return outer, shape[k], inner


def _along(a, axis, lane, dtype):
    """An overload's implementation: a new `dtype` array whose every lane is `lane(the input's lane)`."""
    if not isinstance(a, types.Array) or not isinstance(axis, types.Integer):
        return None
    ndim = a.ndim
    if ndim == 0:  # no axis at all (`a.shape[k]` of an empty tuple would not type)
        def scalar(a, axis, at=0):
            _axis_error(np.int64(axis), np.int64(0), np.int64(at))
            return np.empty((), dtype)

        return scalar

    def impl(a, axis, at=0):
        outer, n, inner = _lanes(a.shape, axis, ndim, at)
        out = np.empty(a.shape, dtype)
        rows = np.ascontiguousarray(a).reshape((outer, n, inner))
        into = out.reshape((outer, n, inner))
        values = np.empty(n, a.dtype)
        for o in range(outer):
            for i in range(inner):
                for j in range(n):
                    values[j] = rows[o, j, i]
                done = lane(values)
                for j in range(n):
                    into[o, j, i] = done[j]
        return out

    return impl


def _cumulative(product: bool):
    """np.cumsum / np.cumprod along an axis in NumPy's dtype (a sum or product of integers or bools in int64,
    uint in uint64), as one pass over the array in its memory order: row j of each lane block is row j - 1
    combined with the input's row j, the inner loop contiguous (several lanes at once), not one lane at a time."""
    combine = operator.mul if product else operator.add

    def typer(a, axis, at=0):
        if not isinstance(a, types.Array) or not isinstance(axis, types.Integer):
            return None
        dtype = (np.cumprod if product else np.cumsum)(np.ones(1, np.dtype(str(a.dtype)))).dtype
        ndim = max(a.ndim, 1)  # NumPy accumulates a 0-d array as a 1-D one: np.cumsum(np.array(5), axis=0) is [5]

        def impl(a, axis, at=0):
            flat = np.ascontiguousarray(a)
            shape = flat.reshape(flat.size).shape if a.ndim == 0 else flat.shape
            outer, n, inner = _lanes(shape, axis, ndim, at)
            rows = flat.reshape((outer, n, inner))
            out = np.empty((outer, n, inner), dtype)
            if n == 0:
                return out.reshape(shape)
            if inner == 1:  # along the last axis: one running value per lane, in a register
                lanes, into = rows.reshape((outer, n)), out.reshape((outer, n))
                for o in range(outer):
                    running = dtype.type(lanes[o, 0])
                    into[o, 0] = running
                    for j in range(1, n):
                        running = combine(running, dtype.type(lanes[o, j]))
                        into[o, j] = running
                return out.reshape(shape)
            for o in range(outer):
                for i in range(inner):
                    out[o, 0, i] = rows[o, 0, i]
                for j in range(1, n):
                    for i in range(inner):
                        out[o, j, i] = combine(out[o, j - 1, i], dtype.type(rows[o, j, i]))
            return out.reshape(shape)

        return impl

    return typer


overload(cumsum_axis, jit_options={"nogil": True})(_cumulative(False))
overload(cumprod_axis, jit_options={"nogil": True})(_cumulative(True))


# Each lane's sort, a Numba function cached on disk (one entry per dtype: a lane is a fresh C-contiguous 1-D
# array): Numba's quicksort compiled into every caller was 1.3 s of each process's first np.argsort(axis=k).
@numba.njit(cache=True, nogil=True)
def _sorted(values):
    return np.sort(values)


@numba.njit(cache=True, nogil=True)
def _order(values):
    return np.argsort(values)


@overload(sort_axis, jit_options={"nogil": True})
def _sort_axis(a, axis, at=0):
    return _along(a, axis, _sorted, np.dtype(str(a.dtype))) if isinstance(a, types.Array) else None


@overload(sort_in_place, jit_options={"nogil": True})
def _sort_in_place(a, axis, at=0):
    if not isinstance(a, types.Array) or not isinstance(axis, types.Integer):
        return None

    def impl(a, axis, at=0):
        a[...] = sort_axis(a, axis, at)  # sorted lanes, written back through any strides

    return impl


def _arg_extreme(largest):
    """np.argmax/np.argmin along an axis: NumPy's ValueError where that axis is empty (Numba's divides by its
    length: ZeroDivisionError) and its AxisError for an axis out of range (Numba's: a ValueError of its own
    words), Numba's own otherwise."""
    def typer(a, axis, at=0):
        if not isinstance(a, types.Array) or not isinstance(axis, types.Integer):
            return None
        ndim = a.ndim

        def impl(a, axis, at=0):
            k = axis + ndim if axis < 0 else axis
            if k < 0 or k >= ndim:
                _axis_error(np.int64(axis), np.int64(ndim), np.int64(at))
            if a.shape[k] == 0:
                _empty_error(np.int64(largest), np.int64(at))
            return np.argmax(a, axis=axis) if largest else np.argmin(a, axis=axis)

        return impl

    return typer


overload(argmax_axis, jit_options={"nogil": True})(_arg_extreme(True))
overload(argmin_axis, jit_options={"nogil": True})(_arg_extreme(False))


@overload(argsort_axis, jit_options={"nogil": True})
def _argsort_axis(a, axis, at=0):
    return _along(a, axis, _order, np.dtype(np.int64))


@overload(roll_axis, jit_options={"nogil": True})
def _roll_axis(a, shift, axis, at=0):
    """np.roll(a, k, axis=j): Numba's np.roll takes no axis. Element j of each lane goes to (j + k) mod n."""
    if not isinstance(a, types.Array) or not isinstance(shift, types.Integer) or not isinstance(axis, types.Integer):
        return None
    ndim = a.ndim
    if ndim == 0:
        def scalar(a, shift, axis, at=0):
            _axis_error(np.int64(axis), np.int64(0), np.int64(at))
            return a.copy()

        return scalar

    def impl(a, shift, axis, at=0):
        outer, n, inner = _lanes(a.shape, axis, ndim, at)
        out = np.empty(a.shape, a.dtype)
        if out.size == 0:
            return out
        step = shift % n
        rows = np.ascontiguousarray(a).reshape((outer, n, inner))
        into = out.reshape((outer, n, inner))
        for o in range(outer):
            for j in range(n):
                to = (j + step) % n
                for i in range(inner):
                    into[o, to, i] = rows[o, j, i]
        return out

    return impl


@overload(norm_axis, jit_options={"nogil": True})
def _norm_axis(a, axis, keepdims=False, at=0):
    """np.linalg.norm(a, axis=k): the 2-norm of each lane, as NumPy computes it (sqrt of the sum of |v|**2 in the
    result's dtype: float32 stays float32, integers are float64). Numba's norm takes no axis."""
    keep = getattr(keepdims, "literal_value", False if isinstance(keepdims, types.Omitted | bool) else None)
    if not isinstance(a, types.Array) or not isinstance(axis, types.Integer) or keep is None:
        return None
    kind = np.dtype(str(a.dtype))
    dtype = np.dtype(np.float64) if kind.kind in "biu" else np.empty(0, kind).real.dtype
    ndim, rank = a.ndim, a.ndim if keep else a.ndim - 1
    if ndim == 0:
        def scalar(a, axis, keepdims=False, at=0):
            _axis_error(np.int64(axis), np.int64(0), np.int64(at))
            return np.empty((), dtype)

        return scalar
    complex_, make = kind.kind == "c", dtype.type

    if rank == 0:  # a 1-d array's norm along its axis: a number, as NumPy's
        @register_jitable
        def finish(out, dims):
            return out[0]
    else:
        @register_jitable
        def finish(out, dims):
            return out.reshape(to_fixed_tuple(dims, rank))

    def impl(a, axis, keepdims=False, at=0):
        outer, n, inner = _lanes(a.shape, axis, ndim, at)
        k = axis + ndim if axis < 0 else axis
        rows = np.ascontiguousarray(a).reshape((outer, n, inner))
        out = np.empty(outer * inner, dtype)
        for o in range(outer):
            for i in range(inner):
                total = make(0)
                for j in range(n):
                    v = rows[o, j, i]
                    total += make(v.real * v.real + v.imag * v.imag) if complex_ else make(v) * make(v)
                out[o * inner + i] = np.sqrt(total)
        dims = np.empty(max(rank, 1), np.int64)
        t = 0
        for d in range(ndim):
            if d != k:
                dims[t] = a.shape[d]
                t += 1
            elif keep:
                dims[t] = 1
                t += 1
        return finish(out, dims)

    return impl
