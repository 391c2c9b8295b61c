"""The run-time half of lower/checks.py: an index tested against its axis as Python (NumPy) tests it.

Inlined, so that the test is a compare and a branch that LLVM can hoist or fold; the message is built only when
it fails, by Python, in object mode inside a separate function compiled once and cached on disk: built inline,
its int-to-str code cost every cold compile about 1.8 s (measured: a 3-line dot product compiled in 2.9 s with
the checks, 1.0 s without), and built by that cached function in Numba, it was still linked into and optimized
again with every caller (runtime/messages.py). The test itself is LLVM IR (`_test`, an intrinsic), not a Python
body: an inlined body is typed again at every call site, and the pairwise kernel's 8 checks cost 0.5 of its 1.6
CPU s of Numba compile that way (same errors, same speed). The plain-Python function is the meaning, for reading
and for running without Numba. `at` is the user's line (lower/located.py): the message carries it as a trailing
argument, for the dispatcher to raise the IndexError at that line (runtime/where.py); 0 (a CUDA launcher's host
code) raises the message alone.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload, register_jitable

from .where import located


def index(i, n, axis, at=0):
    if i < -n or i >= n:
        raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
    return i


def _raise_out_of_bounds(i, n, axis, at):
    message = f"index {i} is out of bounds for axis {axis} with size {n}"
    raise located(IndexError, message, at)


def _raise_beyond_intp(at):  # a uint64 index above 2**63 - 1: NumPy cannot convert it to an index (its words)
    message = "Python int too large to convert to C long"
    raise located(OverflowError, message, at)


# No `nogil`: object mode cannot honour it, and it matters only for calls from Python.
@numba.njit("void(int64, int64, int64, int64)", cache=True)
def _out_of_bounds(i, n, axis, at):
    with numba.objmode():
        _raise_out_of_bounds(i, n, axis, at)


@numba.njit("void(int64)", cache=True)
def _beyond_intp(at):
    with numba.objmode():
        _raise_beyond_intp(at)


def list_index(seq, i, store=False, at=0):
    """`i`, once it is inside a list's -n … n-1 (Python's words when not); anything but a list passes as it is."""
    if isinstance(seq, list) and not -len(seq) <= i < len(seq):
        raise IndexError("list assignment index out of range" if store else "list index out of range")
    return i


def _raise_list_out_of_range(store, at):
    raise located(IndexError, "list assignment index out of range" if store else "list index out of range", at)


@numba.njit("void(boolean, int64)", cache=True)
def _list_out_of_range(store, at):
    with numba.objmode():
        _raise_list_out_of_range(store, at)


@overload(list_index, inline="always", jit_options={"nogil": True})
def _list_index(seq, i, store=False, at=0):
    """Numba's own list check raises "getitem out of range" from its library code, with no line of the user's."""
    if not isinstance(seq, types.List) or not isinstance(i, types.Integer):
        return lambda seq, i, store=False, at=0: i

    def impl(seq, i, store=False, at=0):
        n = len(seq)
        if i < -n or i >= n:
            _list_out_of_range(store, np.int64(at))
        return i

    return impl


_FAILS = (types.int64,) * 4  # _out_of_bounds's signature


def _signed(*ts):
    return all(isinstance(t, types.Integer) and t.signed and t.bitwidth <= 64 for t in ts)


@intrinsic
def _test(typingctx, i, n, axis, at):
    """`i`, after calling `_out_of_bounds(i, n, axis, at)` if `i` is outside -n … n-1 (signed integers only:
    each widened to int64 exactly); the failing branch returns its IndexError as a call of Numba's would."""
    if not _signed(i, n, axis, at):
        return None

    def codegen(context, builder, signature, args):
        values = [context.cast(builder, v, t, types.int64) for v, t in zip(args, signature.args)]
        index, size = values[0], values[1]
        outside = builder.or_(builder.icmp_signed("<", index, builder.neg(size)),
                              builder.icmp_signed(">=", index, size))
        with builder.if_then(outside, likely=False):
            compiled = _out_of_bounds.overloads[_FAILS]
            context.add_linking_libs([compiled.library])
            fnty = context.call_conv.get_function_type(types.void, _FAILS)
            fn = cgutils.get_or_insert_function(builder.module, fnty, compiled.fndesc.llvm_func_name)
            status, _ = context.call_conv.call_function(builder, fn, types.void, _FAILS, values)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
        return args[0]

    return i(i, n, axis, at), codegen


@overload(index, inline="always", jit_options={"nogil": True})
def _index(i, n, axis, at=0):
    if _signed(i, n, axis) and (isinstance(at, (int, types.Omitted)) or _signed(at)):
        def tested(i, n, axis, at=0):
            return _test(i, n, axis, np.int64(at))

        return tested

    if isinstance(i, types.Integer) and not i.signed:
        def unsigned(i, n, axis, at=0):
            if i > np.uint64(9223372036854775807):
                _beyond_intp(np.int64(at))
            if i >= n:
                _out_of_bounds(np.int64(i), np.int64(n), np.int64(axis), np.int64(at))
            return i

        return unsigned

    def impl(i, n, axis, at=0):
        if i < -n or i >= n:
            _out_of_bounds(np.int64(i), np.int64(n), np.int64(axis), np.int64(at))
        return i

    return impl


def within(idx, start, stop, step, n):
    """Whether every `idx[v]` for v in range(start, stop, step) is an index in 0 … n-1 (lower/indirect.py: the
    loop reading `a[idx[v]]` may then skip its checks). False also when the range reaches outside `idx`, or
    crosses from negative positions to non-negative ones: the checked loop says what Python says."""
    span = range(start, stop, step)
    if len(span) == 0:
        return True
    first, last, m = span[0], span[-1], len(idx)
    if min(first, last) < -m or max(first, last) >= m or (first < 0) != (last < 0):
        return False
    return all(0 <= idx[v] < n for v in span)


@overload(within, jit_options={"nogil": True})
def _within(idx, start, stop, step, n):
    def impl(idx, start, stop, step, n):
        if step > 0:
            count = (stop - start + step - 1) // step if stop > start else 0
        else:
            count = (start - stop - step - 1) // -step if start > stop else 0
        if count <= 0:
            return True
        last = start + (count - 1) * step
        m = idx.shape[0]
        if min(start, last) < -m or max(start, last) >= m or (start < 0) != (last < 0):
            return False
        if start < 0:
            start += m
        bad = 0  # or'ed, not min/max: LLVM vectorizes int64 compares (1 ms for 4M values), not min (20 ms)
        if step == 1:
            view = idx[start:start + count]  # indices from 0: no negative-index wrap that stops vectorizing
            for j in range(view.shape[0]):
                v = view[j]
                bad |= (v < 0) | (v >= n)
        else:
            for k in range(count):
                v = idx[start + k * step]
                bad |= (v < 0) | (v >= n)
        return bad == 0

    return impl


@register_jitable
def outside(first, last, n):
    """Whether first or last lies outside -n … n-1: a loop's hoisted index (lower/checks.py) fails in some
    iteration, and the loop's checked copy runs, to raise where Python raises."""
    return not (-n <= first < n and -n <= last < n)
