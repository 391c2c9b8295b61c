"""Compile events: what was compiled, why, how long each stage took, and whether a cache answered."""

from __future__ import annotations

import dataclasses
import logging
import statistics
from typing import Any

log = logging.getLogger("cuvil")

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


def record(event: CompileEvent) -> None:
    _events.setdefault(event.function, []).append(event)
    log.debug("compiled %s%s (%s; cache %s) in %.3f s", event.function, event.signature, event.reason,
              event.cache, event.total)


@dataclasses.dataclass(frozen=True)
class Explanation:
    function: str
    compiles: list[CompileEvent]
    guards: list[str]

    def __str__(self) -> str:
        head = f"{self.function}: {len(self.compiles)} compile(s)"
        cols = ("#", "signature", "cache", *STAGES, "reason")
        rows = [
            (str(i), e.signature, e.cache, *(f"{e.seconds.get(s, 0.0) * 1e3:.1f}ms" for s in STAGES), e.reason)
            for i, e in enumerate(self.compiles, 1)
        ]
        widths = [max(len(c), *(len(r[k]) for r in rows)) if rows else len(c) for k, c in enumerate(cols)]
        lines = [head, "  ".join(c.ljust(w) for c, w in zip(cols, widths))]
        lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)) for r in rows]
        lines += [f"guard: {g}" for g in self.guards]
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
