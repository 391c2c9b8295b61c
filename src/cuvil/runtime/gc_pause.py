"""Python's cyclic garbage collector paused while a function compiles.

A compile allocates hundreds of thousands of short-lived objects (libcst trees, Numba's IR and types), and each
allocation threshold passed starts a collection that also walks the young objects of everything imported: of
the first call of `(a + b) * c - a` in a fresh process, 55 ms of 586 (medians of 7, bench/compile_time.py's
kernels, a quiet 2-core machine). Paused, the compile's garbage is collected by the first collection after it,
one pass instead of many; reference counting frees everything else as before, so memory grows only by the
cycles the compile itself leaves. The pause nests (a compile inside a compile, several threads) and leaves a
collector the user disabled disabled.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_resume = False  # whether the collector ran when the outermost pause began


@contextmanager
def paused() -> Iterator[None]:
    global _depth, _resume
    with _lock:
        if _depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()
