"""Error slots of the CUDA target (runtime/cuda_runtime.py's `error_slots`, `first_error`), reused from call to
call: a slot the launcher read back clean is still clean, so the next call on this thread takes it instead of
copying a fresh one to the device — a host-to-device copy from pageable memory, which waits for the work
queued before it, per launch that may fail.

A slot is reused only when nothing launched with it after its clean read and the call returned: the call
(runtime/cuda_call.py) runs inside `recycling()`, `first_error` notes a clean slot, `launched` (every launch's
arguments, runtime/cuda_runtime.launch) forgets a slot launched again, and what is left when the call returns
goes back to this thread's pool. A call that raised keeps nothing.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

import numpy as np
from numba import cuda

NO_ERROR = np.iinfo(np.int64).max
CODES = 4096  # error codes per iteration in an error slot: iteration * CODES + code
POOL = 16  # clean slots a thread keeps

_CLEAN: ContextVar[dict[int, Any] | None] = ContextVar("cuvil_cuda_clean_slots", default=None)
_POOLS = threading.local()


def error_slots() -> Any:
    """[lowest iteration * CODES + code, two values its message needs (a bounds check's index and size), the
    lock and the owner of those values (runtime/cuda_device.record_error_values)]: a clean one of this
    thread's pool, or a new one."""
    pool = getattr(_POOLS, "free", None)
    if pool:
        return pool.pop()
    return cuda.to_device(np.array([NO_ERROR, 0, 0, 0, NO_ERROR], dtype=np.int64))


def first_error(slots: Any) -> int:
    """The code the lowest failing iteration recorded, 0 when none failed (then the slot is still as made:
    record_error_values writes its values only after lowering the first element)."""
    value = int(slots.copy_to_host()[0])
    if value == NO_ERROR:
        clean = _CLEAN.get()
        if clean is not None:
            clean[id(slots)] = slots
        return 0
    return divmod(value, CODES)[1]


def launched(args: tuple[Any, ...]) -> None:
    """A launch with these arguments: a slot among them may be written again."""
    clean = _CLEAN.get()
    if clean:
        for a in args:
            clean.pop(id(a), None)


@contextlib.contextmanager
def recycling() -> Iterator[None]:
    """One call: the slots read back clean and not launched with since go back to this thread's pool when it
    returns."""
    clean: dict[int, Any] = {}
    token = _CLEAN.set(clean)
    try:
        yield
    except BaseException:
        clean.clear()
        raise
    finally:
        _CLEAN.reset(token)
    pool = getattr(_POOLS, "free", None)
    if pool is None:
        pool = _POOLS.free = []
    pool.extend(list(clean.values())[: POOL - len(pool)])
