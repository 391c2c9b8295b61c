"""Python's int arithmetic on int64: an operation whose true result does not fit raises OverflowError where
Numba would wrap around silently (issue 10 §2; lower/checks.py decides which operations need it).

`add sub mul neg` compute with LLVM's `*.with.overflow` intrinsics (one flag, no division). `add(a, b, True)`
only tests: the condition a parallel loop evaluates before the statement (cfg/raising.py). Not with wrapped
arithmetic: Numba marks integer operations `nsw`, and LLVM folds `(a * b) // a != b` to False.
The plain-Python functions are the meaning, for running without Numba.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

MESSAGE = ("int64 overflow: Python would give an int wider than 64 bits here; compute in float, or pass "
           "overflow=\"wrap\" to cuvil.jit for Numba's wrap-around")
_MIN, _MAX = -(2**63), 2**63 - 1


def _fits(v: int) -> int:
    if not _MIN <= v <= _MAX:
        raise OverflowError(MESSAGE)
    return v


def add(a, b, test=False):
    return not _MIN <= a + b <= _MAX if test else _fits(a + b)


def sub(a, b, test=False):
    return not _MIN <= a - b <= _MAX if test else _fits(a - b)


def mul(a, b, test=False):
    return not _MIN <= a * b <= _MAX if test else _fits(a * b)


def neg(a, test=False):
    return a == _MIN if test else _fits(-a)


def _with_overflow(op: str):
    @intrinsic
    def compute(typingctx, a, b):
        if not (isinstance(a, types.Integer) and isinstance(b, types.Integer)):
            return None
        sig = types.Tuple((types.int64, types.boolean))(types.int64, types.int64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            x = context.cast(builder, args[0], signature.args[0], types.int64)
            y = context.cast(builder, args[1], signature.args[1], types.int64)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(
                ir.LiteralStructType([i64, ir.IntType(1)]), [i64, i64]), f"llvm.s{op}.with.overflow.i64")
            pair = builder.call(fn, [x, y])
            return context.make_tuple(builder, signature.return_type,
                                      [builder.extract_value(pair, 0), builder.extract_value(pair, 1)])

        return sig, codegen

    return compute


_OPS = {"add": _with_overflow("add"), "sub": _with_overflow("sub"), "mul": _with_overflow("mul")}


def _register(stub, op):
    compute = _OPS[op]

    @overload(stub, jit_options={"nogil": True}, inline="always")
    def checked(a, b, test=False):
        if isinstance(test, types.Boolean):
            return lambda a, b, test=False: compute(a, b)[1]

        def impl(a, b, test=False):
            value, overflow = compute(a, b)
            if overflow:
                raise OverflowError(MESSAGE)
            return value

        return impl


_register(add, "add")
_register(sub, "sub")
_register(mul, "mul")


_SUB = _OPS["sub"]


@overload(neg, jit_options={"nogil": True}, inline="always")
def _neg(a, test=False):
    if isinstance(test, types.Boolean):
        return lambda a, test=False: _SUB(0, a)[1]

    def impl(a, test=False):
        value, overflow = _SUB(0, a)
        if overflow:
            raise OverflowError(MESSAGE)
        return value

    return impl
