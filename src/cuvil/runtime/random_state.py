"""One random stream for the caller and the compiled code, as for a plain Python function.

Numba keeps generators of its own (Mersenne Twisters, one per thread, for `np.random` and for `random`), so
`np.random.seed(0)` in the caller did not reach compiled code: the same program drew other numbers than CPython,
and seeding did nothing (issue 36, class 8). Numba's generators are the same algorithm as NumPy's legacy global
`RandomState` and CPython's `random`, so a variant that draws numbers (the generated module says
`CUVIL_RANDOM`, compiler.py) runs between two copies: the caller's states into Numba's before the call, Numba's
back after it, the cached second Gaussian of the polar method included (a field Numba's own
`rnd_set_state` resets). A call then draws what the plain function would; threads of a `parallel=True` loop draw
from their own generators, as documented.
"""

from __future__ import annotations

import ctypes
import functools
import random
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import _helperlib

_N = 624  # the Mersenne Twister's state words


class _State(ctypes.Structure):
    """numba/_random.c's rnd_state_t."""

    _fields_ = [("index", ctypes.c_int), ("mt", ctypes.c_uint * _N), ("has_gauss", ctypes.c_int),
                ("gauss", ctypes.c_double), ("is_initialized", ctypes.c_int)]


def _numba(pointer: int) -> _State:
    return _State.from_address(pointer)


def _numpy_to(state: _State) -> None:
    _, key, pos, has_gauss, gauss = np.random.get_state(legacy=True)
    ctypes.memmove(state.mt, np.ascontiguousarray(key, np.uint32).ctypes.data, 4 * _N)
    state.index, state.has_gauss, state.gauss, state.is_initialized = pos, has_gauss, gauss, 1


def _numpy_from(state: _State) -> None:
    key = np.frombuffer(bytes(state.mt), np.uint32)
    np.random.set_state(("MT19937", key, state.index, state.has_gauss, state.gauss))


def _python_to(state: _State) -> None:
    _, words, gauss_next = random.getstate()
    state.mt[:] = words[:_N]
    state.index, state.is_initialized = words[_N], 1
    state.has_gauss, state.gauss = (0, 0.0) if gauss_next is None else (1, gauss_next)


def _python_from(state: _State) -> None:
    random.setstate((3, (*state.mt, state.index), state.gauss if state.has_gauss else None))


def shared(impl: Callable[..., Any]) -> Callable[..., Any]:
    """`impl`, drawing from the caller's NumPy and Python random streams."""

    @functools.wraps(impl)
    def call(*args: Any) -> Any:
        numpy = _numba(_helperlib.rnd_get_np_state_ptr())  # type: ignore[attr-defined]  # a C module
        python = _numba(_helperlib.rnd_get_py_state_ptr())  # type: ignore[attr-defined]
        _numpy_to(numpy)
        _python_to(python)
        try:
            return impl(*args)
        finally:
            _numpy_from(numpy)
            _python_from(python)

    return call
