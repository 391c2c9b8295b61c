"""Cross-process locks on cache entries (filelock), so several processes or Jupyter kernels sharing one cache
directory never read an entry's files while another writes them.

Every file is also written atomically (a temporary file, then `os.replace`), so a reader never sees half of
one; the lock is about files that belong together: a generated module and its meta.json, and Numba's index
and data files and the checksums recorded beside them (runtime/numba_cache.py). Without it two processes
compiling one function at once each write Numba's files and record checksums of a mix of both saves, and the
next load rejects them. A process that finds an entry missing while another compiles it waits for the lock,
then loads what the other wrote instead of compiling it again.

The lock file sits beside the entry, hidden (`.<entry>.lock`). Where it cannot be made (a read-only cache, a removed
directory) there is nothing to write, so nothing to lock: the code runs unlocked. A lock held longer than
`TIMEOUT` (a process stopped in a debugger) is waited for no longer: the atomic writes keep the files whole.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import filelock

TIMEOUT = 300.0  # seconds: longer than any compile


@contextlib.contextmanager
def held(folder: Path) -> Iterator[None]:
    """Hold the lock of the cache entry `folder` for the block (reentrant within a thread)."""
    lock = filelock.FileLock(folder.parent / f".{folder.name}.lock", timeout=TIMEOUT, mode=0o600, is_singleton=True)
    try:
        lock.acquire()
    except (OSError, filelock.Timeout):
        yield
        return
    try:
        yield
    finally:
        lock.release()
