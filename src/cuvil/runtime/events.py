"""Compile events: what was compiled, why, how long each stage took, and whether a cache answered.

`CUVIL_LOG=recompiles,guards,codegen` logs through the `cuvil` logger: every compile after a function's first
(with its reason), the guards of each new variant, and the path of each generated module.
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import os
import statistics
import warnings
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import CuvilWarning

log = logging.getLogger("cuvil")


CATEGORIES = ("recompiles", "guards", "codegen")
_warned: set[str] = set()


def _categories() -> frozenset[str]:
    """The categories `CUVIL_LOG` names; an unknown one is one warning (a typo would otherwise log nothing,
    silently)."""
    named = frozenset(c.strip() for c in os.environ.get("CUVIL_LOG", "").split(",") if c.strip())
    for unknown in sorted(named - set(CATEGORIES) - _warned):
        _warned.add(unknown)
        warnings.warn(f"CUVIL_LOG: unknown category {unknown!r} ignored; the categories are "
                      f"{', '.join(CATEGORIES)}", CuvilWarning, stacklevel=2)
    return named


def _enabled(category: str) -> bool:
    categories = _categories()
    if categories and not log.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("cuvil: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    return category in categories

STAGES = ("parse", "normalize", "analyze", "codegen", "backend")


@dataclasses.dataclass(frozen=True)
class CompileEvent:
    function: str
    signature: str
    reason: str  # a sentence: why this compile happened
    seconds: dict[str, float]  # per stage, keys of STAGES
    cache: str  # "memory" | "disk" | "miss"
    context: str  # the process, or the Jupyter kernel session

    @property
    def total(self) -> float:
        return sum(self.seconds.values())


# Every dispatcher's events, by the Python function compiled (two functions named `f` — a cell run twice
# with other code, two modules — are two histories, not one); weakly, so a redefined function's history goes
# with it. stats() names each by its qualified name, with its origin when two live ones share it.
_events: weakref.WeakKeyDictionary[Callable[..., Any], list[CompileEvent]] = weakref.WeakKeyDictionary()


def record(fn: Callable[..., Any], event: CompileEvent, guard: list[str]) -> None:
    history = _events.setdefault(fn, [])
    history.append(event)
    if event.reason != "first call" and _enabled("recompiles"):
        log.info("recompiling %s: %s (cache %s, %.3f s)", event.function, event.reason, event.cache, event.total)
    if _enabled("guards"):
        log.info("guards of %s%s: %s", event.function, event.signature, "; ".join(guard))


def log_codegen(function: str, path: Path) -> None:
    if _enabled("codegen"):
        log.info("generated %s: %s", function, path)


@dataclasses.dataclass(frozen=True)
class Explanation:
    function: str
    compiles: list[CompileEvent]
    guards: list[list[str]]  # per live variant, newest first: its guard items
    loops: list[list[str]] = dataclasses.field(default_factory=list)  # per live variant: its loops in words

    def __str__(self) -> str:
        head = f"{self.function}: {len(self.compiles)} compile(s), {len(self.guards)} variant(s)"
        cols = ("#", "signature", "cache", *STAGES, "reason")
        rows = [
            (str(i), e.signature, e.cache, *(f"{e.seconds.get(s, 0.0) * 1e3:.1f}ms" for s in STAGES), e.reason)
            for i, e in enumerate(self.compiles, 1)
        ]
        widths = [max(len(c), *(len(r[k]) for r in rows)) if rows else len(c) for k, c in enumerate(cols)]
        lines = [head, "  ".join(c.ljust(w) for c, w in zip(cols, widths)).rstrip()]
        lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
        for n, items in enumerate(self.guards):
            number = len(self.guards) - n
            lines.append(f"variant #{number}{' (newest, checked first)' if n == 0 else ''}: " + "; ".join(items))
            loops = self.loops[n] if n < len(self.loops) else []
            lines += [f"  {text}" if text.startswith("checks ") else f"  loop {text}" for text in loops]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """A table of compiles and each variant's guard (jupyter.py); `str()` stays the plain-text form."""
        from ..jupyter import explanation_html

        return explanation_html(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))  # IPython's text/plain: the table, not the dataclass's fields

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # IPython takes a class's own __repr__ over an inherited _repr_pretty_, and a dataclass subclass gets
        # a __repr__ of its own: each subclass gets the method in its own namespace too.
        super().__init_subclass__(**kwargs)
        cls._repr_pretty_ = Explanation._repr_pretty_  # type: ignore[method-assign]


def stats() -> dict[str, dict[str, Any]]:
    """Per function: compiles, cache hits, and p50/p99 of compile seconds."""
    result = {}
    for name, events in sorted(_named(list(_events.items())).items()):
        totals = sorted(e.total for e in events)
        p99 = totals[min(len(totals) - 1, round(0.99 * (len(totals) - 1)))]
        result[name] = {
            "compiles": len(events),
            "cache_hits": sum(e.cache != "miss" for e in events),
            "p50_seconds": statistics.median(totals),
            "p99_seconds": p99,
        }
    return result


def _named(histories: list[tuple[Any, list[CompileEvent]]]) -> dict[str, list[CompileEvent]]:
    """Each function's history under its qualified name; where two live functions share one, each name gets
    the function's origin (`f (cell.py:3)`), and a number if that is shared too."""
    counts = collections.Counter(fn.__qualname__ for fn, _ in histories)
    named: dict[str, list[CompileEvent]] = {}
    for fn, events in histories:
        name = fn.__qualname__
        if counts[name] > 1:
            code = fn.__code__
            name = f"{name} ({os.path.basename(code.co_filename)}:{code.co_firstlineno})"
        while name in named:
            name += "'"
        named[name] = events
    return named
