"""The one timing loop the benchmarks share: a median of calls after untimed warm-up calls."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_seconds(fn: Callable[..., Any], args: tuple[Any, ...], repeat: int, warm_s: float = 0.5) -> float:
    """Median of `repeat` calls after one untimed call and `warm_s` seconds more of them.

    The warm-up lets caches, thread pools and the allocator settle; the host's first touch of memory is paid
    once for all systems before (bench/host_memory.py).
    """
    fn(*args)  # at least one untimed call: compiles, first touches
    deadline = time.perf_counter() + warm_s
    while time.perf_counter() < deadline:
        fn(*args)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)
