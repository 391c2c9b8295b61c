"""Compile events: what was compiled, why, how long each stage took, and whether a cache answered.

`CUVIL_LOG=recompiles,guards,codegen` logs through the `cuvil` logger: every compile after a function's first
(with its reason), the guards of each new variant, and the path of each generated module.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import statistics
from pathlib import Path
from typing import Any

log = logging.getLogger("cuvil")


def _categories() -> frozenset[str]:
    return frozenset(c.strip() for c in os.environ.get("CUVIL_LOG", "").split(",") if c.strip())


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


_events: dict[str, list[CompileEvent]] = {}  # every dispatcher's, by function name: for stats()


def record(event: CompileEvent, guard: list[str]) -> None:
    history = _events.setdefault(event.function, [])
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
            lines += [f"  loop {text}" for text in loops]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(str(self))}</pre>"


def stats() -> dict[str, dict[str, Any]]:
    """Per function: compiles, cache hits, and p50/p99 of compile seconds."""
    result = {}
    for name, events in sorted(_events.items()):
        totals = sorted(e.total for e in events)
        p99 = totals[min(len(totals) - 1, round(0.99 * (len(totals) - 1)))]
        result[name] = {
            "compiles": len(events),
            "cache_hits": sum(e.cache != "miss" for e in events),
            "p50_seconds": statistics.median(totals),
            "p99_seconds": p99,
        }
    return result
