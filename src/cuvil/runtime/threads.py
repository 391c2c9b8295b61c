"""Which threading layer runs `parallel=True` code, chosen before Numba starts its first thread pool.

Numba's default on Linux is GNU OpenMP, and GNU OpenMP cannot survive a fork: after any parallel call, a
`multiprocessing` child made with fork dies at once ("Terminating: fork() called from a process already using
GNU OpenMP, this is unsafe"). The three layers, measured on the 2-core machine (bench/threads.md):

    layer      fork after a parallel call   parallel calls from several threads   launch   10M exp
    omp        the child is killed          safe                                  6.4 µs   51 ms
    workqueue  safe                         the process aborts                    47 µs    65 ms
    tbb        safe                         safe                                  6.9 µs   50 ms

so Cuvil takes TBB, from the `tbb` wheel it depends on where PyPI has one (Linux and Windows on x86-64). That
wheel puts libtbb in the environment's lib/ folder, where Numba's `CDLL("libtbb.so.12")` does not look: Cuvil
loads it by path first (the dynamic loader then finds it by its soname). Without TBB the default stays (omp is
thread-safe). A layer the user chose (NUMBA_THREADING_LAYER, or numba.config.THREADING_LAYER) is never
overridden. Whenever GNU OpenMP runs, a fork after a parallel call warns, naming the fix, before the child dies.
"""

from __future__ import annotations

import ctypes
import importlib
import importlib.metadata
import os
import sys
import warnings
from typing import Any

from ..errors import CuvilWarning

_chosen: str | None = None
_FORK_UNSAFE = "omp"  # GNU OpenMP, Numba's default on Linux


def choose() -> str:
    """The layer Numba will use ("tbb", "omp", "workqueue", or the user's "default"/"safe"/… setting); sets
    TBB when the user chose nothing and it can be loaded. Idempotent and cheap after the first call."""
    global _chosen
    if _chosen is not None:
        return _chosen
    from numba.core import config as numba_config

    config: Any = numba_config
    chosen = str(config.THREADING_LAYER)
    tbb = chosen not in ("omp", "workqueue") and _tbb_loadable()  # also when the user named "tbb" or "safe"
    if os.environ.get("NUMBA_THREADING_LAYER") or chosen != "default":
        _chosen = chosen
    elif tbb:
        config.THREADING_LAYER = _chosen = "tbb"
    else:
        _chosen = "default"
    if sys.platform.startswith("linux"):
        os.register_at_fork(before=_warn_fork)  # warns only when GNU OpenMP runs, whoever chose it
    return _chosen


def _tbb_loadable() -> bool:
    """Whether Numba's TBB pool loads: libtbb by its soname, else from the `tbb` wheel's files by path."""
    try:
        ctypes.CDLL("libtbb.so.12" if sys.platform.startswith("linux") else "tbb12")
    except OSError:
        try:
            files = importlib.metadata.distribution("tbb").files or []
        except importlib.metadata.PackageNotFoundError:
            return False
        found = [f for f in files if f.name in ("libtbb.so.12", "tbb12.dll")]
        if not found:
            return False
        try:
            ctypes.CDLL(str(found[0].locate()), mode=ctypes.RTLD_GLOBAL)
        except OSError:
            return False
    try:
        from numba.np.ufunc import parallel

        parallel._check_tbb_version_compatible()  # raises ImportError when too old or absent
        importlib.import_module("numba.np.ufunc.tbbpool")
    except ImportError:
        return False
    return True


def in_use() -> str | None:
    """The layer Numba started, or None if no parallel code has run in this process yet."""
    from numba.np.ufunc import parallel

    if not parallel._is_initialized:
        return None
    import numba

    return str(numba.threading_layer())


def fork_safe(layer: str) -> bool:
    return layer != _FORK_UNSAFE or not sys.platform.startswith("linux")


def _warn_fork() -> None:
    if in_use() == _FORK_UNSAFE:
        warnings.warn(
            "fork() after a parallel=True call: GNU OpenMP (Numba's threading layer here) kills the child. "
            "Install TBB (pip install tbb) or use multiprocessing.get_context('spawn') or 'forkserver'",
            CuvilWarning,
            stacklevel=2,
        )


def describe() -> str:
    """For `cuvil doctor`: the layer parallel code runs on here (started now if need be), and what it survives."""
    choose()
    from numba.np.ufunc import parallel

    parallel._launch_threads()
    layer = in_use() or "none"
    fork = "fork-safe" if fork_safe(layer) else "NOT fork-safe: a fork after a parallel call kills the child"
    threads = "not thread-safe: concurrent parallel calls abort" if layer == "workqueue" else "thread-safe"
    return f"{layer} ({fork}; {threads})"
