"""The context a compiled module lives in: the Jupyter kernel session running this code, else the process.

The memory cache (runtime/memory.py) and every CompileEvent carry it. A kernel restart is a new process and
a new session, so nothing compiled in memory survives it — only the disk cache does, which is why the disk key
(runtime/cache_key.py) names a notebook function by its cell's content, never by the file name the kernel
gave the cell. Looking the session up imports nothing: IPython is consulted only when it is already loaded.
"""

from __future__ import annotations

import os
import sys


def kernel_session() -> str | None:
    """The session id of the Jupyter kernel running this process, or None outside one (a script, a terminal
    IPython, a test)."""
    ipython_module = sys.modules.get("IPython")
    if ipython_module is None:
        return None
    try:
        shell = ipython_module.get_ipython()
        session = shell.kernel.session.session
    except AttributeError:  # no shell, or a shell without a kernel (terminal IPython)
        return None
    return str(session) if session else None


_cached: tuple[int, str] | None = None


def current() -> str:
    """`kernel:<session id>` inside a Jupyter kernel, else `pid:<process id>`. Computed once per process (a
    forked child has its own pid, so it is a context of its own)."""
    global _cached
    pid = os.getpid()
    if _cached is None or _cached[0] != pid:
        session = kernel_session()
        _cached = (pid, f"kernel:{session}" if session else f"pid:{pid}")
    return _cached[1]
