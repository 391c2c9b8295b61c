"""NumPy's shape-error messages, raised from compiled code at almost no compile cost.

A message built in compiled code (`"(" + str(n) + ...`) puts Numba's int-to-str and string concatenation into
every function that may raise it, and a cached raising function helps less than it seems: Numba links its code
into each caller and LLVM optimizes it there again (0.7 s of the 1.8 s first compile of `(a + b) * c - a`). So
`raise_shapes(kind, shapes, at)`, an intrinsic, writes the dims of a tuple of shape tuples into a buffer on the
stack and calls `_raise_packed`, compiled once and cached, which builds the message in Python (object mode) and
raises it; glue written in Numba instead (`np.empty`, a store per dim, `np.array` of the ranks) was compiled
anew for every set of operand ranks (another 0.9 s). runtime/checks.py raises IndexError the same way.

`dims(shape)` turns a shape tuple into an int64 array (written out per rank, so a 0-d shape works too).
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from .where import located


def dims(shape):
    """`shape` (a tuple of ints) as an int64 array."""
    return np.array(shape, np.int64)


@overload(dims, jit_options={"nogil": True})
def _dims(shape):
    if not isinstance(shape, types.BaseTuple):
        return None
    lines = ["def impl(shape):", f"    out = np.empty({len(shape)}, np.int64)"]
    lines += [f"    out[{k}] = shape[{k}]" for k in range(len(shape))]
    lines.append("    return out")
    env = {"np": np}
    exec("\n".join(lines), env)
    return env["impl"]


# raise_shapes's kinds: operands; (target, value) of `target op= value`; (value, target) of a store;
# (inputs..., output) of a ufunc given `out=`
NOT_BROADCAST, OUTPUT_MISMATCH, NOT_INTO, UFUNC_OUT = 0, 1, 2, 3


def _shape(dims) -> str:
    return "(" + ",".join(str(int(d)) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def _broadcast(shapes: list[list[int]]) -> tuple[int, ...] | None:
    """NumPy's broadcast shape of `shapes`, or None where they do not broadcast together."""
    try:
        return np.broadcast_shapes(*(tuple(s) for s in shapes))
    except ValueError:
        return None


def shapes_message(kind: int, dims, ranks) -> str:
    """NumPy's words for `kind`: `dims` holds every shape's dims, one shape after another, `ranks` how many each
    has."""
    ends = np.cumsum(np.concatenate(([0], ranks))).astype(int)
    each = [[int(d) for d in dims[ends[k]:ends[k + 1]]] for k in range(len(ranks))]
    if kind == NOT_BROADCAST:
        return "operands could not be broadcast together with shapes " + "".join(_shape(s) + " " for s in each)
    if kind == NOT_INTO:  # NumPy drops the value's leading 1s beyond the target's rank first, and names the rest
        value = list(each[0])
        while len(value) > ranks[1] and value[0] == 1:
            value.pop(0)
        return f"could not broadcast input array from shape {_shape(value)} into shape {_shape(each[1])}"
    if kind == OUTPUT_MISMATCH:  # `t op= v` is `np.op(t, v, out=t)`
        each = [each[0], each[1], each[0]]
    shape = _broadcast(each)
    if shape is None:
        return "operands could not be broadcast together with shapes " + "".join(_shape(s) + " " for s in each)
    return f"non-broadcastable output operand with shape {_shape(each[-1])} doesn't match the broadcast shape " \
        f"{_shape(shape)}"


def _raise_shapes_error(kind, dims, ranks, at):
    text = shapes_message(int(kind), dims, ranks)
    raise located(ValueError, text, at)


@numba.njit("void(int64, CPointer(int64), int64, CPointer(int64), int64, int64)", cache=True)
def _raise_packed(kind, dims, count, ranks, operands, at):
    """No `nogil`: object mode cannot honour it, and it matters only for calls from Python."""
    flat, each = numba.carray(dims, count), numba.carray(ranks, operands)
    with numba.objmode():
        _raise_shapes_error(kind, flat.copy(), each.copy(), at)


_PACKED = (types.int64, types.CPointer(types.int64), types.int64, types.CPointer(types.int64), types.int64,
           types.int64)


@intrinsic
def raise_shapes(typingctx, kind, shapes, at):
    """Raise the ValueError `kind` names for `shapes`, a tuple of shape tuples (integers), at the user's line
    `at` (0: none)."""
    if not (isinstance(kind, types.Integer) and isinstance(at, types.Integer) and isinstance(shapes, types.BaseTuple)
            and all(isinstance(s, types.BaseTuple) and all(isinstance(d, types.Integer) for d in s)
                    for s in shapes)):
        return None
    ranks = [len(s) for s in shapes]

    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        flat = [context.cast(builder, builder.extract_value(builder.extract_value(args[1], i), k), d, types.int64)
                for i, s in enumerate(shapes) for k, d in enumerate(s)]
        dims = cgutils.alloca_once(builder, word, size=max(len(flat), 1))
        each = cgutils.alloca_once(builder, word, size=max(len(ranks), 1))
        for k, value in enumerate(flat):
            builder.store(value, builder.gep(dims, [word(k)]))
        for k, rank in enumerate(ranks):
            builder.store(word(rank), builder.gep(each, [word(k)]))
        compiled = _raise_packed.overloads[_PACKED]
        context.add_linking_libs([compiled.library])
        fnty = context.call_conv.get_function_type(types.void, _PACKED)
        fn = cgutils.get_or_insert_function(builder.module, fnty, compiled.fndesc.llvm_func_name)
        values = [context.cast(builder, args[0], kind, types.int64), dims, word(len(flat)), each, word(len(ranks)),
                  context.cast(builder, args[2], at, types.int64)]
        status, _ = context.call_conv.call_function(builder, fn, types.void, _PACKED, values)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return context.get_dummy_value()

    return types.none(kind, shapes, at), codegen
