"""Markers of source already validated: a warm start skips the subset check, and so the import of libcst.

A marker is an empty file named by `cache_key.source_key`: only its existence counts, and the worst a planted
one does is skip a check whose failure the compiler would report anyway on a cold start.
"""

from __future__ import annotations

import types
from pathlib import Path

from . import cache_root
from .cache_key import source_key


def was_validated(fn: types.FunctionType) -> bool:
    name = source_key(fn)
    return any((root / "validated" / name).exists() for root in _roots())


def mark_validated(fn: types.FunctionType) -> None:
    root = cache_root.root()
    folder = root.path if root.writable else cache_root.private()  # no warning: only an optimisation
    try:
        (folder / "validated").mkdir(mode=0o700, exist_ok=True)
        (folder / "validated" / source_key(fn)).touch()
    except OSError:
        pass  # only an optimisation of the next start


def _roots() -> list[Path]:
    found = [cache_root.root().path]
    private = cache_root.private_if_made()
    if private is not None and private not in found:
        found.append(private)
    return found
