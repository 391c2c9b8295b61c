"""Definite assignment: every read of a local must follow an assignment on *every* path that reaches it.

Numba does not check this: a variable assigned only inside `if x > 0:` reads as garbage when x <= 0, where
Python raises UnboundLocalError. Cuvil refuses such code at compile time instead of returning a wrong answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import libcst as cst

from .build import CFG
from .uses import binds, reads


@dataclasses.dataclass(frozen=True)
class UnassignedRead:
    stmt: cst.BaseStatement
    name: cst.Name
    never: bool  # no path assigns it first (else: some path does, some does not)


def _solve(cfg: CFG, universe: frozenset[str], must: bool) -> list[frozenset[str]]:
    """Names assigned on entry to each block: on all paths (`must`) or on some path."""
    gen = [frozenset(b.binds).union(*(binds(s) for s in b.stmts)) for b in cfg.blocks]
    start = universe if must else frozenset()
    entry: list[frozenset[str]] = [start] * len(cfg.blocks)
    entry[0] = frozenset(cfg.blocks[0].binds)
    changed = True
    while changed:
        changed = False
        for block in cfg.blocks[1:]:
            outs = [entry[p] | gen[p] for p in block.preds]
            if not outs:
                new = universe if must else frozenset()  # unreachable: say nothing about it
            elif must:
                new = frozenset.intersection(*outs)
            else:
                new = frozenset.union(*outs)
            if new != entry[block.id]:
                entry[block.id], changed = new, True
    return entry


def unassigned_reads(cfg: CFG, checked: Iterable[str]) -> list[UnassignedRead]:
    """Reads of names in `checked` that some path reaches before any assignment, in block order."""
    universe = frozenset(checked)
    must, may = _solve(cfg, universe, True), _solve(cfg, universe, False)
    found: list[UnassignedRead] = []
    for block in cfg.blocks:
        if block.id and not block.preds:
            continue
        sure, maybe = must[block.id] | block.binds, may[block.id] | block.binds
        for stmt in block.stmts:
            for name in reads(stmt):
                if name.value in universe and name.value not in sure:
                    found.append(UnassignedRead(stmt, name, name.value not in maybe))
            sure, maybe = sure | binds(stmt), maybe | binds(stmt)
    return found
