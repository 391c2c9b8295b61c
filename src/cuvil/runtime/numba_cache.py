"""Numba's own cache of a generated module's machine code (`__pycache__/*.nbi`, `*.nbc` in the entry), made
unable to fail a call or to answer wrong: Numba unpickles those files and lets any error out of
`Dispatcher.compile`; it keeps no checksum, so a flipped bit in the machine code of a data file loads and
computes garbage (measured: one random damage in 25 did); and it recreates a removed cache directory with
its own mode when it saves. So each save records the SHA-256 of the index and data files beside them
(`<index>.sha256`), and a load first checks them."""

from __future__ import annotations

import glob
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from . import cache_lock
from .cache_root import warn as _warn


def guard(dispatcher: Any, folder: Path) -> None:
    """Wrap the cache of `dispatcher`, a function of the module in the entry `folder` (if it has one)."""
    inner = getattr(dispatcher, "_cache", None)  # a NullCache (cache=False) has no files to guard
    if inner is not None and hasattr(inner, "load_overload") and hasattr(inner, "_cache_file"):
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
            with cache_lock.held(self._folder):  # not while another process saves (cache_lock.py)
                files = self._files()
                if files and _digests(files) != _recorded(files[0]):
                    raise ValueError("they do not match the checksums recorded when they were saved")
                return self._inner.load_overload(sig, target_context)
        except Exception as exc:
            _warn(f"ignoring unreadable Numba cache files in {self._inner.cache_path} ({type(exc).__name__}: "
                  f"{exc}); recompiling")
            try:
                index = self._inner._cache_file._index_path
                os.unlink(index)
                if os.path.exists(index + ".sha256"):
                    os.unlink(index + ".sha256")
            except (AttributeError, OSError):
                self._inner.disable()
            return None

    def _files(self) -> list[str]:
        """The index, then its data files; empty before the first save."""
        index = self._inner._cache_file._index_path
        if not os.path.exists(index):
            return []
        return [index, *sorted(glob.glob(glob.escape(index[: -len(".nbi")]) + ".*.nbc"))]

    def save_overload(self, sig: Any, data: Any) -> None:
        if not self._folder.is_dir():  # removed during the compile: Numba would recreate it, mode and all
            _warn(f"the Cuvil cache entry {self._folder} was removed during the compile; the compiled code "
                  "stays in memory for this process")
            self._inner.disable()
            return
        try:
            with cache_lock.held(self._folder):  # the files and their checksums, as one (cache_lock.py)
                self._inner.save_overload(sig, data)
                files = self._files()
                if files:
                    tmp = f"{files[0]}.sha256.tmp{os.getpid()}"
                    with open(tmp, "w", encoding="utf-8") as handle:
                        json.dump(_digests(files), handle)
                    os.replace(tmp, files[0] + ".sha256")
        except Exception as exc:
            _warn(f"cannot save Numba's cache files in {self._inner.cache_path} ({type(exc).__name__}: {exc}); "
                  "the compiled code stays in memory for this process")
            self._inner.disable()


def _digests(files: list[str]) -> dict[str, str]:
    found = {}
    for path in files:
        with open(path, "rb") as handle:
            found[os.path.basename(path)] = hashlib.sha256(handle.read()).hexdigest()
    return found


def _recorded(index: str) -> dict[str, str] | None:
    try:
        with open(index + ".sha256", encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None

