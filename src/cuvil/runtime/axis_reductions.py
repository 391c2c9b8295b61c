"""Reductions over one axis or a tuple of axes that Numba lacks: its `np.var` and `np.std` take no `axis` (nor
`ddof` or `keepdims`), its `np.mean`, `np.max` and `np.min` no tuple of axes, its `np.median` no axis. The
lowering calls these for `np.var(a, axis=k, ddof=d, keepdims=b)` (an axis not a literal; literal ones are loop nests,
lower/reductions.py), `np.mean(a, axis=(0, 1))`, `a.max(axis=(0, 2))`, `np.median(a, axis=k)` …
(lower/library_results.py).

Each sees the array as rows: the kept axes in order, times the reduced ones (a transposed copy), reduces every
row and gives NumPy's shape (the kept axes, or all of them with the reduced ones as 1; a number when none is
kept) and dtype: a mean of integers or bools is float64 and of float32 float32, a var or std real (float32 for
complex64), a max or min the array's own. Means and variances accumulate in float64 (complex128) and round once;
var is NumPy's sum(|x - mean|**2) / max(n - ddof, 0) per row (inf or nan where that is 0, nan for an empty row);
max and min propagate NaN and raise NumPy's ValueError for an empty row. An axis out of range is NumPy's
AxisError, a repeated one its ValueError, at the user's line.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable
from numba.np.unsafe.ndarray import to_fixed_tuple

from .axes import _axis_error
from .where import located

_JIT: Any = {"nogil": True, "error_model": "numpy"}


def var_axes(a, axis, ddof=0, keepdims=False, at=0):  # the plain-Python meaning: NumPy's own
    return np.var(a, axis=axis, ddof=ddof, keepdims=keepdims)


def std_axes(a, axis, ddof=0, keepdims=False, at=0):
    return np.std(a, axis=axis, ddof=ddof, keepdims=keepdims)


def mean_axes(a, axis, keepdims=False, at=0):
    return np.mean(a, axis=axis, keepdims=keepdims)


def median_axes(a, axis, keepdims=False, at=0):
    return np.median(a, axis=axis, keepdims=keepdims)


def max_axes(a, axis, keepdims=False, at=0):
    return np.max(a, axis=axis, keepdims=keepdims)


def min_axes(a, axis, keepdims=False, at=0):
    return np.min(a, axis=axis, keepdims=keepdims)


def _raise_duplicate(at):
    raise located(ValueError, "duplicate value in 'axis'", at)


@numba.njit("void(int64)", cache=True)
def _duplicate_error(at):
    with numba.objmode():
        _raise_duplicate(at)


def _raise_empty(largest, at):
    which = "maximum" if largest else "minimum"
    raise located(ValueError, f"zero-size array to reduction operation {which} which has no identity", at)


@numba.njit("void(int64, int64)", cache=True)
def _empty_error(largest, at):
    with numba.objmode():
        _raise_empty(largest, at)


@register_jitable
def _reduced(axes, ndim, at):
    """Which axes are reduced, after NumPy's checks: each in range (AxisError), then none twice (ValueError)."""
    for x in axes:
        if x < -ndim or x >= ndim:
            _axis_error(np.int64(x), np.int64(ndim), np.int64(at))
    flags = np.zeros(ndim, np.bool_)
    for x in axes:
        k = x + ndim if x < 0 else x
        if flags[k]:
            _duplicate_error(np.int64(at))
        flags[k] = True
    return flags


def _rows_of(ndim: int, count: int, kept: bool):
    """A function (a, axes, at) → (rows, dims): `a` as a C-contiguous (outer, n) array whose rows are the
    reduced elements of each output element, and the output's dims (as an int64 array)."""
    out_ndim = ndim if kept else max(ndim - count, 0)  # more axes than dims: _reduced raises

    @register_jitable
    def rows_of(a, axes, at):
        flags = _reduced(axes, ndim, at)
        order = np.empty(ndim, np.int64)
        dims = np.empty(max(out_ndim, 1), np.int64)
        j = m = 0
        outer = n = 1
        for d in range(ndim):
            if not flags[d]:
                order[j] = d
                j += 1
                outer *= a.shape[d]
                dims[m] = a.shape[d]
                m += 1
            elif kept:
                dims[m] = 1
                m += 1
        for d in range(ndim):
            if flags[d]:
                order[j] = d
                j += 1
                n *= a.shape[d]
        # the axes in `order` as a strided view (a transposition keeps the first element): np.transpose with
        # axes compiles Numba's shape-error formatting, 3.2 s of every first call of a reduction along axes
        shape, strides = np.empty(ndim, np.int64), np.empty(ndim, np.int64)
        for k in range(ndim):
            shape[k], strides[k] = a.shape[order[k]], a.strides[order[k]]
        view = np.lib.stride_tricks.as_strided(a, to_fixed_tuple(shape, ndim), to_fixed_tuple(strides, ndim))
        return np.ascontiguousarray(view).reshape((outer, n)), dims

    return rows_of


def _shaped(out_ndim: int):
    """A function (values, dims) → the output: `values` in the shape `dims`, or its one value when no dim is
    left."""
    if out_ndim == 0:
        @register_jitable
        def scalar(values, dims):
            return values[0]

        return scalar

    @register_jitable
    def shaped(values, dims):
        return values.reshape(to_fixed_tuple(dims, out_ndim))

    return shaped


def _axes(axis) -> bool:
    """Whether `axis` is an axis or a tuple of axes this module takes (literal ints count as ints)."""
    if isinstance(axis, types.Integer):
        return True
    return isinstance(axis, types.UniTuple) and isinstance(axis.dtype, types.Integer) and axis.count > 0 \
        or isinstance(axis, types.Tuple) and len(axis) > 0 and all(isinstance(t, types.Integer) for t in axis)


def _kept(keepdims) -> bool | None:
    """keepdims as a literal bool (the rank depends on it), None if it is not one."""
    if isinstance(keepdims, types.BooleanLiteral):
        return bool(keepdims.literal_value)
    if isinstance(keepdims, types.Omitted):
        return bool(keepdims.value)
    if isinstance(keepdims, bool):
        return keepdims
    return None


def _plan(a, axis, keepdims):
    """(rows_of, shaped, as_tuple) for an overload, or None when it does not apply."""
    kept = _kept(keepdims)
    if not isinstance(a, types.Array) or a.ndim == 0 or not _axes(axis) or kept is None:
        return None
    count = 1 if isinstance(axis, types.Integer) else len(axis)
    if isinstance(axis, types.Integer):
        @register_jitable
        def as_tuple(axis):
            return (np.int64(axis),)
    else:
        @register_jitable
        def as_tuple(axis):
            return axis
    return _rows_of(a.ndim, count, kept), _shaped(a.ndim if kept else max(a.ndim - count, 0)), as_tuple


def _dtypes(a: types.Array, real: bool) -> tuple[np.dtype, np.dtype]:
    """(accumulator, result) dtypes of a mean (`real`: of a var or std) of `a`'s elements, as NumPy's."""
    dtype = np.dtype(str(a.dtype)) if not isinstance(a.dtype, types.Boolean) else np.dtype(np.bool_)
    complex_ = dtype.kind == "c"
    result = dtype if dtype.kind in "fc" else np.dtype(np.float64)
    if real and complex_:
        result = np.empty(0, result).real.dtype
    return np.dtype(np.complex128 if complex_ else np.float64), result


@register_jitable(**_JIT)
def _lane_total(rows, o, total):
    """`total` plus row `o`'s elements, in order (the mean's sum for mean, var and std alike)."""
    for j in range(rows.shape[1]):
        total += rows[o, j]
    return total


def _variance(root: bool):
    def typer(a, axis, ddof=0, keepdims=False, at=0):
        plan = _plan(a, axis, keepdims)
        if plan is None or not isinstance(ddof, types.Integer | types.Float | types.Omitted | int):
            return None
        rows_of, shaped, as_tuple = plan
        acc, result = _dtypes(a, True)

        def impl(a, axis, ddof=0, keepdims=False, at=0):
            rows, dims = rows_of(a, as_tuple(axis), at)
            outer, n = rows.shape
            out = np.empty(outer, result)
            for o in range(outer):
                mean = _lane_total(rows, o, acc.type(0))
                if n:  # (an empty lane's total is 0 / 0: nan, where a complex division would raise)
                    mean = mean / n
                total = 0.0
                for j in range(n):
                    d = rows[o, j] - mean
                    total += (d * np.conj(d)).real
                value = total / max(n - ddof, 0)
                out[o] = np.sqrt(value) if root else value
            return shaped(out, dims)

        return impl

    return typer


overload(var_axes, jit_options=_JIT, prefer_literal=True)(_variance(False))
overload(std_axes, jit_options=_JIT, prefer_literal=True)(_variance(True))


@overload(mean_axes, jit_options=_JIT, prefer_literal=True)
def _mean_axes(a, axis, keepdims=False, at=0):
    plan = _plan(a, axis, keepdims)
    if plan is None:
        return None
    rows_of, shaped, as_tuple = plan
    acc, result = _dtypes(a, False)
    nothing = acc.type(complex(np.nan, np.nan) if acc.kind == "c" else np.nan)  # NumPy's mean of no element

    def impl(a, axis, keepdims=False, at=0):
        rows, dims = rows_of(a, as_tuple(axis), at)
        outer, n = rows.shape
        out = np.empty(outer, result)
        for o in range(outer):
            total = _lane_total(rows, o, acc.type(0))
            out[o] = total / n if n else nothing
        return shaped(out, dims)

    return impl


@numba.njit(cache=True, **_JIT)
def _median_of(row):
    """A float64 row's median, NaN if it is empty or holds one. Compiled once and cached on disk (a C-contiguous
    float64 row whatever the array): Numba's median compiled into every caller took 2.5-7 s of a first call."""
    if row.size == 0 or np.isnan(row).any():
        return np.nan
    return np.median(row)


@overload(median_axes, jit_options=_JIT, prefer_literal=True)
def _median_axes(a, axis, keepdims=False, at=0):
    """Each row's median: nan for an empty row or one holding a NaN (NumPy's; Numba's median of the rest), the
    mean of the two middle elements of an even row, in NumPy's dtype (float64 for integers and bools)."""
    plan = _plan(a, axis, keepdims)
    if plan is None or not isinstance(a.dtype, types.Integer | types.Float | types.Boolean):
        return None
    rows_of, shaped, as_tuple = plan
    _, result = _dtypes(a, False)

    def impl(a, axis, keepdims=False, at=0):
        rows, dims = rows_of(a, as_tuple(axis), at)
        outer, n = rows.shape
        out = np.empty(outer, result)
        for o in range(outer):
            out[o] = _median_of(rows[o].astype(np.float64))
        return shaped(out, dims)

    return impl


def _extreme(largest: bool):
    def typer(a, axis, keepdims=False, at=0):
        plan = _plan(a, axis, keepdims)
        if plan is None or not isinstance(a.dtype, types.Integer | types.Float | types.Boolean):
            return None
        rows_of, shaped, as_tuple = plan

        def impl(a, axis, keepdims=False, at=0):
            rows, dims = rows_of(a, as_tuple(axis), at)
            outer, n = rows.shape
            if n == 0:
                _empty_error(np.int64(largest), np.int64(at))
            out = np.empty(outer, a.dtype)
            for o in range(outer):
                best = rows[o, 0]
                for j in range(1, n):
                    v = rows[o, j]
                    if v != v:  # NaN wins, as NumPy's
                        best = v
                        break
                    if (v > best) if largest else (v < best):
                        best = v
                out[o] = best
            return shaped(out, dims)

        return impl

    return typer


overload(max_axes, jit_options=_JIT, prefer_literal=True)(_extreme(True))
overload(min_axes, jit_options=_JIT, prefer_literal=True)(_extreme(False))
