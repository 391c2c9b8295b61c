"""Compiling a graph's partitions on a worker thread while the graph runs their torch ops (issue 14):
`torch.compile(model, backend="cuvil", options={"background": True})`.

Why: a partition's Numba compile (0.2–0.3 s, most of it LLVM, measured) is most of what a new graph makes the
user wait for, and torch can run the partition meanwhile. With this option the first call returns after
Dynamo, AOTAutograd and partitioning alone; each partition runs as torch ops (eager speed, eager results)
until its kernel is ready, then as the kernel, with no recompile and no new guard (the swap is inside the
graph's callable). `wait()` blocks until every submitted partition is compiled or refused (a benchmark, or a
service warming up before it takes traffic). Off by default: a call then never changes its speed under a user,
and the kernel, not torch, computes every result from the first.

One worker thread: Numba compiles one function at a time anyway (its compiler lock), and a second worker would
only take the GIL from the graph running torch ops meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as _wait_all
from typing import Any

import torch.fx

from .compiled import Compiled, Found, compile_partition

_lock = threading.Lock()
_EXECUTOR: list[ThreadPoolExecutor] = []
_PENDING: set[Future[Any]] = set()


class Background:
    """The callable that replaces a partition in the graph: its torch ops until its kernel is compiled."""

    def __init__(self, name: str, sub: torch.fx.GraphModule,
                 done: Callable[[Found | None, BaseException | None], None]):
        self.eager = sub
        self.kernel: Compiled | None = None
        self.__name__ = name
        self._done = done
        with _lock:
            if not _EXECUTOR:
                _EXECUTOR.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuvil-dynamo-compile"))
            _PENDING.difference_update([f for f in _PENDING if f.done()])
            _PENDING.add(_EXECUTOR[0].submit(self._compile))

    def _compile(self) -> None:
        """On the worker: the kernel is in place (and reported) before the task counts as done for wait()."""
        try:
            found = compile_partition(self.eager)
        except Exception as e:  # noqa: BLE001 - the partition keeps running in torch; the report says why
            self._done(None, e)
            return
        self.kernel = found.kernel
        self._done(found, None)

    def __call__(self, *args: Any) -> Any:
        kernel = self.kernel
        return kernel(*args) if kernel is not None else self.eager(*args)


def wait(timeout: float | None = None) -> bool:
    """Block until every partition submitted for background compilation is compiled or refused (True), or
    `timeout` seconds pass (False)."""
    with _lock:
        pending = set(_PENDING)
    _, not_done = _wait_all(pending, timeout=timeout)
    with _lock:
        _PENDING.difference_update(pending - not_done)
    return not not_done
