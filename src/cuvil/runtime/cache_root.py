"""Where the disk cache lives, and whether what is in it may be trusted.

A cache entry is executed (the generated module) and unpickled (Numba's index and data files beside it), so
whoever can write one runs code in every process that loads it. As ssh does with `~/.ssh` and pip with its
cache, Cuvil loads nothing from a directory that another user owns or can write: the root, each directory
above it (a sticky one like /tmp excepted: others cannot rename what is ours in it), each entry and the
files in it. Such a cache gets one `CacheWarning` naming the path and the fix, and the process uses a
private temporary directory instead, removed at exit. Root (uid 0) counts as ourselves: it can write
anything of ours anyway, and a cache provisioned by an administrator is typically root's.

The root is created with mode 0700. A root that is trusted but read-only (a provisioned, shared cache) is
read: its entries load without being written; what must be compiled anew goes to the private directory.
"""

from __future__ import annotations

import atexit
import dataclasses
import os
import shutil
import stat
import tempfile
from pathlib import Path

from ..errors import CacheWarning
from .where import warn_at_caller


@dataclasses.dataclass(frozen=True)
class Root:
    path: Path
    writable: bool


_roots: dict[str, Root] = {}  # per configured path: CUVIL_CACHE_DIR may change (tests, notebooks)
_private: Path | None = None
_warned_read_only: set[Path] = set()


def configured() -> Path:
    """`$CUVIL_CACHE_DIR`, else the platform's cache folder (platformdirs): `$XDG_CACHE_HOME/cuvil` or
    `~/.cache/cuvil` on Linux, `~/Library/Caches/cuvil` on macOS, `%LOCALAPPDATA%\\cuvil\\Cache` on Windows."""
    value = os.environ.get("CUVIL_CACHE_DIR")
    if value:
        return Path(value)
    import platformdirs

    return Path(platformdirs.user_cache_dir("cuvil", appauthor=False))


def root() -> Root:
    """The cache root to read from: the configured one if it can be trusted, else the private directory."""
    path = configured()
    found = _roots.get(str(path))
    if found is None:
        found = _roots[str(path)] = _open(path)
    return found


def write_root() -> Path:
    """Where new entries go: the root, or the private directory when the root is read-only (one warning)."""
    found = root()
    if found.writable:
        return found.path
    if found.path not in _warned_read_only:
        _warned_read_only.add(found.path)
        warn(f"cannot write the Cuvil cache at {found.path} (it is read-only); its entries are used, and code "
              f"compiled anew is cached in {private()} for this process only. Set CUVIL_CACHE_DIR to a "
              "writable directory to keep it")
    return private()


def cache_root() -> Path:
    """The directory `cuvil cache` shows: the one this process uses."""
    return root().path


def private() -> Path:
    """This process's own cache directory (mode 0700), removed when the process that made it exits."""
    global _private
    if _private is None:
        _private = Path(tempfile.mkdtemp(prefix="cuvil-cache-"))
        atexit.register(_remove, _private, os.getpid())
    return _private


def private_if_made() -> Path | None:
    return _private


def _remove(path: Path, pid: int) -> None:
    if os.getpid() == pid:  # a forked child exiting must not take its parent's directory with it
        shutil.rmtree(path, ignore_errors=True)


def _open(path: Path) -> Root:
    try:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.mkdir(mode=0o700, exist_ok=True)
        if not path.is_dir():
            raise NotADirectoryError(20, "not a directory", str(path))
        problem = untrusted_root(path)
        if problem:
            warn(f"not using the Cuvil cache at {path}: {problem}. Cached code is executed, so only a directory "
                  f"of yours that no one else can write is used (chown $USER {path}; chmod 700 {path}, or set "
                  f"CUVIL_CACHE_DIR to such a directory); caching in {private()} for this process only")
            return Root(private(), True)
        return Root(path, _can_write(path))
    except OSError as exc:
        warn(f"cannot write the Cuvil cache at {path} ({exc.strerror or exc}); compiled code is cached in "
              f"{private()} for this process only. Set CUVIL_CACHE_DIR to a writable directory.")
        return Root(private(), True)


def _can_write(path: Path) -> bool:
    try:
        tempfile.TemporaryFile(dir=path).close()
        return True
    except OSError:
        return False


def untrusted_root(path: Path) -> str | None:
    """Why `path` cannot serve as a cache root, or None: it, and every directory above it, must be ours (or
    root's) and not writable by others, unless sticky."""
    real = path.resolve()
    problem = untrusted(real, file=False)
    if problem:
        return problem
    for parent in real.parents:
        info = os.stat(parent)
        if not _ours(info):
            return f"{parent}, which holds it, is owned by another user (uid {info.st_uid})"
        if info.st_mode & 0o022 and not info.st_mode & stat.S_ISVTX:
            return f"other users can write to {parent}, which holds it (mode {stat.filemode(info.st_mode)})"
    return None


def untrusted(path: Path, file: bool, private_root: bool = False) -> str | None:
    """Why `path` cannot be trusted, or None. A file others may write is still safe inside a root only we
    can enter (`private_root`): they cannot reach it."""
    if not hasattr(os, "geteuid"):  # no POSIX owners (Windows): the user's profile directory is private
        return None
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        return f"{path} is a symbolic link"
    if not _ours(info):
        return f"{path} is owned by another user (uid {info.st_uid})"
    if info.st_mode & 0o022 and not (file and private_root):
        return f"other users can write to {path} (mode {stat.filemode(info.st_mode)})"
    return None


def is_private(path: Path) -> bool:
    """Only its owner can enter `path`."""
    return not hasattr(os, "geteuid") or not os.stat(path).st_mode & 0o077


def _ours(info: os.stat_result) -> bool:
    return info.st_uid in (os.geteuid(), 0)


def warn(message: str) -> None:
    """A `CacheWarning` shown at the user's line that called into Cuvil, however deep the cache code is."""
    warn_at_caller(message, CacheWarning)
