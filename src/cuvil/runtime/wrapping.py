"""NumPy's 64-bit integer arithmetic wraps on overflow; Numba's tells LLVM it never overflows.

Numba marks signed integer `+`, `-` and `*` `nsw` (no signed wrap): an overflow is then undefined behaviour,
and LLVM uses that. `x + 1 > x` of an int64 array was True where NumPy's `x + 1` wraps at 2**63 - 1 and gives
False; `(x * 2) // 2` was `x` where NumPy gives -1; `x + (-2**63)` became `x | -2**63`, which leaves the
negative elements unchanged.

- On the CPU, lower/wrapping.py writes each `+`, `-`, `*` whose result is a NumPy int64 as `add(a, b)`,
  `sub(a, b)`, `mul(a, b)` from here: LLVM's plain (wrapping) instructions. Python ints keep Numba's `nsw`: their
  arithmetic is checked (runtime/pyint.py) or proven not to overflow (lower/overflow.py), so the flag is true of
  them, and it is what lets LLVM drop the negative-index test from `u[i - 1]` and vectorize the loop (without
  it bench's stencil took 1.6x as long).
- On a GPU, kernels are compiled inside `wrapping()` (runtime/cuda_call.py), where Numba's flag helper gives no
  flags at all: every signed operation of a kernel wraps.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
from collections.abc import Iterator
from typing import Any

from numba import types
from numba.extending import intrinsic, overload

_MIN = -(2**63)


def _wrapped(v: Any) -> Any:
    return (int(v) - _MIN) % 2**64 + _MIN


# The plain-Python meanings (the generated module reads as Python): NumPy's wrapped int64.
def add(a, b):  # noqa: ANN001, ANN201
    return _wrapped(int(a) + int(b))


def sub(a, b):  # noqa: ANN001, ANN201
    return _wrapped(int(a) - int(b))


def mul(a, b):  # noqa: ANN001, ANN201
    return _wrapped(int(a) * int(b))


def _instruction(op: str) -> Any:
    @intrinsic
    def compute(typingctx: Any, a: Any, b: Any) -> Any:
        if not all(isinstance(x, types.Integer | types.Boolean) for x in (a, b)):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            x, y = (context.cast(builder, v, t, types.int64) for v, t in zip(args, signature.args))
            return getattr(builder, op)(x, y)  # no flags: wraps

        return types.int64(a, b), codegen

    return compute


def _register(stub: Any, op: str) -> None:
    compute = _instruction(op)

    @overload(stub, jit_options={"nogil": True}, inline="always")
    def compiled(a, b):  # noqa: ANN001, ANN202 (Numba compares its parameters with the stub's)
        return lambda a, b: compute(a, b)


_register(add, "add")
_register(sub, "sub")
_register(mul, "mul")


_state = threading.local()

# Where Numba keeps the helper its integer +, - and * implementations ask for flags (moved across versions).
_HOMES = ("numba.cpython.numbers", "numba.np.math.numbers")


def _install() -> None:
    for home in _HOMES:
        try:
            module = importlib.import_module(home)
        except ImportError:
            continue
        numba_flags = getattr(module, "_int_arith_flags", None)
        if numba_flags is None or getattr(numba_flags, "cuvil_wrapping", False):
            continue

        def flags(rettype: Any, numba_flags: Any = numba_flags) -> list[str]:
            return [] if getattr(_state, "depth", 0) else numba_flags(rettype)

        flags.cuvil_wrapping = True  # type: ignore[attr-defined]
        module._int_arith_flags = flags  # type: ignore[attr-defined]


@contextlib.contextmanager
def wrapping() -> Iterator[None]:
    """Numba compiles signed integer arithmetic without `nsw` on this thread until the block ends."""
    _state.depth = getattr(_state, "depth", 0) + 1
    try:
        yield
    finally:
        _state.depth -= 1


_install()
