"""A fork of a process that compiles kernels (issue 14): a DataLoader worker, a multiprocessing pool, forked
after the model was compiled.

The backend's threads (the compile thread, the pool that runs row chunks, the prelude's worker, the background
compiler) do not exist in a child, and a lock one of them held at the fork would stay held there forever: a
child whose parent's prelude was compiling (holding Numba's compiler lock) hung at its first compile. So the
fork waits until no compile is in progress (it takes the backend's lock and then Numba's, the order a compile
takes them in), and the child starts with no threads, fresh locks and an empty prelude queue: it makes new
ones when it needs them.
"""

from __future__ import annotations

import os
import threading

_installed: list[bool] = []


def install() -> None:
    """Register the fork handlers once per process."""
    if not _installed:
        _installed.append(True)
        os.register_at_fork(before=_before, after_in_parent=_release, after_in_child=_child)


def _locks() -> list[threading.Lock]:
    from numba.core.compiler_lock import global_compiler_lock

    from . import compiled

    return [compiled._lock, global_compiler_lock]  # type: ignore[list-item]


def _before() -> None:
    for lock in _locks():
        lock.acquire()


def _release() -> None:
    for lock in reversed(_locks()):
        lock.release()


def _child() -> None:
    from . import background, compiled, prelude

    _release()
    compiled._COMPILE_THREAD.clear()
    compiled._POOL.clear()
    compiled._thread_lock = threading.Lock()
    background._EXECUTOR.clear()
    background._PENDING.clear()
    background._lock = threading.Lock()
    prelude._cond = threading.Condition()
    prelude._state.update(thread=None, foreground=0)
    prelude._queue.clear()
    prelude._requested.clear()
