"""Cuvil's thread pool: `fn.submit(*args)` runs a call on it and returns a `concurrent.futures.Future`.

Every CPU variant is compiled `nogil=True`, and the dispatcher's Python path holds the GIL only for the guard
check, so calls submitted together run on several cores at once without the user writing threads. The pool has
`CUVIL_POOL_SIZE` workers (default: the core count), made on the first submit; `resize(n)` replaces it (calls
already submitted finish on the old one). A call's error — a CuvilError, or Python's IndexError at the user's
line — is the future's exception, the same one a direct call raises.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_size: int | None = None


def default_size() -> int:
    value = os.environ.get("CUVIL_POOL_SIZE", "")
    if value.strip():
        try:
            size = int(value)
        except ValueError:
            raise ValueError(f"CUVIL_POOL_SIZE must be a positive integer, not {value!r}") from None
        if size < 1:
            raise ValueError(f"CUVIL_POOL_SIZE must be a positive integer, not {value!r}")
        return size
    return os.cpu_count() or 1


def size() -> int:
    """The number of workers submitted calls run on."""
    return _size if _size is not None else default_size()


def resize(workers: int | None = None) -> None:
    """Use `workers` threads from now on (None: CUVIL_POOL_SIZE or the core count)."""
    global _executor, _size
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"the pool needs a positive number of workers, not {workers!r}")
    with _lock:
        old, _executor, _size = _executor, None, workers
    if old is not None:
        old.shutdown(wait=False)


def executor() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=size(), thread_name_prefix="cuvil")
        return _executor


def submit(call: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Future[Any]:
    return executor().submit(call, *args, **kwargs)
