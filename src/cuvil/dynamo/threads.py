"""Running a kernel's rows on several threads: the calling thread and pool workers take chunks from one counter
until none is left (issue 14).

Why not one chunk per thread: on this VM, waking a pool worker that blocked on its queue takes 0.1–0.15 ms
(measured: a LayerNorm of 2048 × 1024 on 2 threads took 0.34–0.39 ms right after another call of its own and
0.49–0.53 ms after an inductor call, whose OpenMP threads still spin on the other core), and with fixed halves
the calling thread waited that long for the worker's half, so 2 threads measured 0.59–0.85x inductor against
0.95–1.39x on 1. With a shared counter the caller takes what a late worker has not started, and it waits only
for chunks already running, never for a worker that has not woken yet.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

_lock = threading.Lock()
_POOL: list[ThreadPoolExecutor] = []
PER_THREAD = 3  # chunks per thread: more balance a late worker better, each costs a kernel call (~5 µs)


def _pool() -> ThreadPoolExecutor:
    with _lock:
        if not _POOL:
            _POOL.append(ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="cuvil-dynamo"))
    return _POOL[0]


class _Share:
    """The chunks of one call: claimed through an atomic counter, counted when finished."""

    def __init__(self, run: Callable[[int, int], None], bounds: list[int]):
        self.run, self.bounds = run, bounds
        self.claims = itertools.count()  # next() on it is atomic under the GIL
        self.left = len(bounds) - 1
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.error: BaseException | None = None

    def work(self) -> None:
        while (i := next(self.claims)) < len(self.bounds) - 1:
            try:
                self.run(self.bounds[i], self.bounds[i + 1])
            except BaseException as e:  # noqa: BLE001 - raised again on the calling thread
                self.error = e
            with self.lock:
                self.left -= 1
                if self.left == 0:
                    self.done.set()


def run_chunks(run: Callable[[int, int], None], extent: int, threads: int, most: int | None = None) -> None:
    """`run(start, stop)` over 0..extent in chunks (`PER_THREAD` a thread, at most `most`, at least one a
    thread), on `threads` threads, the calling thread one of them."""
    chunks = min(extent, max(threads, min(threads * PER_THREAD, most or extent)))
    share = _Share(run, [extent * i // chunks for i in range(chunks + 1)])
    pool = _pool()
    for _ in range(threads - 1):
        pool.submit(share.work)
    share.work()
    share.done.wait()
    if share.error is not None:
        raise share.error
