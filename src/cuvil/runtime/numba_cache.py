"""Numba's own cache of a generated module's machine code (`__pycache__/*.nbi`, `*.nbc` in the entry), made
unable to fail a call: Numba unpickles those files and lets any error out of `Dispatcher.compile`, and
recreates a removed cache directory with its own mode when it saves."""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

from ..errors import CacheWarning


def guard(dispatcher: Any, folder: Path) -> None:
    """Wrap the cache of `dispatcher`, a function of the module in the entry `folder` (if it has one)."""
    inner = getattr(dispatcher, "_cache", None)
    if inner is not None and hasattr(inner, "load_overload") and hasattr(inner, "cache_path"):
        dispatcher._cache = _NumbaCache(inner, folder)


class _NumbaCache:
    """Numba's cache of one generated function, made unable to fail a call. Files it cannot read are one
    warning and a recompile (they are removed, so the new machine code can be saved: Numba's save reads
    the index first); a failed save is one warning, and the code stays in memory."""

    def __init__(self, inner: Any, folder: Path):
        self._inner, self._folder = inner, folder

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        try:
            return self._inner.load_overload(sig, target_context)
        except Exception as exc:
            _warn(f"ignoring unreadable Numba cache files in {self._inner.cache_path} ({type(exc).__name__}: "
                  f"{exc}); recompiling")
            try:
                os.unlink(self._inner._cache_file._index_path)
            except (AttributeError, OSError):
                self._inner.disable()
            return None

    def save_overload(self, sig: Any, data: Any) -> None:
        if not self._folder.is_dir():  # removed during the compile: Numba would recreate it, mode and all
            _warn(f"the Cuvil cache entry {self._folder} was removed during the compile; the compiled code "
                  "stays in memory for this process")
            self._inner.disable()
            return
        try:
            self._inner.save_overload(sig, data)
        except Exception as exc:
            _warn(f"cannot save Numba's cache files in {self._inner.cache_path} ({type(exc).__name__}: {exc}); "
                  "the compiled code stays in memory for this process")
            self._inner.disable()


def _warn(message: str) -> None:
    warnings.warn(message, CacheWarning, stacklevel=5)
