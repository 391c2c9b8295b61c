"""The memory cache: compiled modules of this context (runtime/context.py), by disk-cache key, with eviction.

A notebook that redefines a function a hundred times would otherwise keep a hundred generated modules — each
a Numba dispatcher with its machine code, registered in `sys.modules` — for the life of the kernel. So each
context keeps its `LIMIT` most recently used modules; an evicted one leaves `sys.modules` and the line maps
of runtime/diagnose.py. What a Dispatcher already holds (its variants' entry points) keeps working: eviction
only means that the next compile of that key is read back from the disk. Entries of another context (the
parent of a forked child) are dropped at the first store in this one.
"""

from __future__ import annotations

import collections
import dataclasses
import sys
from typing import Any

from . import context, diagnose

LIMIT = 128  # modules per context: a notebook's working set, with room for many redefinitions


@dataclasses.dataclass(frozen=True)
class Compiled:
    function: Any  # the Numba dispatcher of the module's entry function
    meta: Any  # cache.Meta
    source: str  # the module's text
    module: str  # its name in sys.modules (the file's stem: unique, it holds the key)


class MemoryCache:
    def __init__(self, limit: int = LIMIT):
        self.limit = limit
        self._contexts: dict[str, collections.OrderedDict[str, Compiled]] = {}

    def get(self, key: str) -> Compiled | None:
        entries = self._contexts.get(context.current())
        found = entries.get(key) if entries is not None else None
        if found is not None:
            entries.move_to_end(key)  # type: ignore[union-attr]
        return found

    def put(self, key: str, compiled: Compiled) -> None:
        here = context.current()
        for other in [c for c in self._contexts if c != here]:
            self._evict_all(self._contexts.pop(other))
        entries = self._contexts.setdefault(here, collections.OrderedDict())
        entries[key] = compiled
        entries.move_to_end(key)
        while len(entries) > self.limit:
            _, evicted = entries.popitem(last=False)
            _forget(evicted, still_used=entries.values())

    def clear(self) -> None:
        """Forget every module (tests use it to stand for a new process)."""
        for entries in self._contexts.values():
            self._evict_all(entries)
        self._contexts.clear()

    def __contains__(self, key: str) -> bool:
        entries = self._contexts.get(context.current())
        return entries is not None and key in entries

    def __len__(self) -> int:
        return sum(len(e) for e in self._contexts.values())

    @staticmethod
    def _evict_all(entries: collections.OrderedDict[str, Compiled]) -> None:
        for compiled in entries.values():
            _forget(compiled, still_used=())


def _forget(compiled: Compiled, still_used: Any) -> None:
    if any(c.module == compiled.module for c in still_used):  # one module under two keys: still in use
        return
    module = sys.modules.get(compiled.module)
    if module is not None and getattr(module, compiled.meta.entry, None) is compiled.function:
        del sys.modules[compiled.module]
    diagnose.line_maps.pop(compiled.module + ".py", None)
