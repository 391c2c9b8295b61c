"""Run a function as Python and compiled on two fresh sets of the same arguments, and compare everything: the
result (type, dtype, shape, values), every argument afterwards and the buffer it views (in-place updates write
them), or the exception (type and message)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np

import cuvil


def _outcome(fn: Any, args: tuple[Any, ...]) -> tuple[str, Any]:
    try:
        return "returned", fn(*args)
    except Exception as exc:  # noqa: BLE001 - the exception is what is compared
        return "raised", (type(exc), str(exc))


def same(a: Any, b: Any, rtol: float = 0.0) -> bool:
    """Equal values of the same type; arrays of the same dtype and shape (NaN equal to NaN). Floats within
    `rtol` (0: exactly): libm and NumPy's vectorized pow may differ in the last bits."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape):
            return False
        if a.dtype.kind in "fc":
            return np.allclose(a, b, rtol=rtol, atol=0.0, equal_nan=True) and bool(np.all(np.isinf(a) == np.isinf(b)))
        return np.array_equal(a, b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y, rtol) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return (a != a and b != b) or a == b or abs(a - b) <= rtol * abs(b)
    return type(a) is type(b) and a == b


def _state(args: tuple[Any, ...]) -> list[Any]:
    """What a call may have changed: each argument, and for a view the whole buffer under it."""
    return [a.base.copy() if isinstance(a, np.ndarray) and a.base is not None else a for a in args] + list(args)


def check(jitted: cuvil.Dispatcher, make: Callable[[], tuple[Any, ...]], rtol: float = 0.0,
          message: bool = True) -> tuple[str, Any]:
    """`jitted(*make())` does exactly what `jitted.py_func(*make())` does; returns Python's outcome. `make`
    builds the arguments afresh each time, so views of one buffer stay views of one buffer. `message=False`
    compares an exception's type only."""
    expected_args, actual_args = make(), make()
    expected = _outcome(jitted.py_func, expected_args)
    actual = _outcome(jitted, actual_args)
    if expected[0] == "raised" and actual[0] == "raised":
        assert issubclass(actual[1][0], expected[1][0]), (actual, expected)
        assert actual[1][1] == expected[1][1] or not message, (actual, expected)
    else:
        assert actual[0] == expected[0] and same(actual[1], expected[1], rtol), (actual, expected)
    for after, before in zip(_state(actual_args), _state(expected_args)):
        assert same(after, before, rtol), (after, before)
    return expected


def check_args(jitted: cuvil.Dispatcher, *args: Any, rtol: float = 0.0) -> tuple[str, Any]:
    """`check` for arguments that share no memory: each run gets a deep copy."""
    return check(jitted, lambda: copy.deepcopy(args), rtol)
