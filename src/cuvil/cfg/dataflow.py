"""Definite assignment: every read of a local must follow an assignment on *every* path that reaches it.

Numba does not check this: a variable assigned only inside `if x > 0:` reads as garbage when x <= 0, where
Python raises UnboundLocalError. Cuvil refuses such code at compile time instead of returning a wrong answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

import libcst as cst

from ..normalize.names import bound_names
from .build import CFG, statements
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


def live_after_loops(body: Sequence[cst.BaseStatement]) -> dict[int, frozenset[str]]:
    """Per loop (by identity), the names some path reads after it before assigning them: what a parallel loop
    must leave as Python leaves it. A read in the other copy of a loop that lower/ versioned (`if test: <loop>
    else: <its copy>`) is on no path after it, so it does not count."""
    after: dict[int, frozenset[str]] = {}

    def block(stmts: Sequence[cst.BaseStatement], live: frozenset[str], exits: tuple[frozenset[str], ...]) \
            -> frozenset[str]:
        for stmt in reversed(stmts):
            live = statement(stmt, live, exits)
        return live

    def statement(stmt: cst.BaseStatement, live: frozenset[str], exits: tuple[frozenset[str], ...]) \
            -> frozenset[str]:
        header = frozenset(n.value for n in reads(stmt))
        if isinstance(stmt, cst.If):
            orelse = block(statements(stmt.orelse.body), live, exits) if isinstance(stmt.orelse, cst.Else) else live
            return header | block(statements(stmt.body), live, exits) | orelse
        if isinstance(stmt, cst.For | cst.While):
            after[id(stmt)] = live
            target = bound_names(stmt.target) if isinstance(stmt, cst.For) else set()
            top = live | header if isinstance(stmt, cst.While) else live  # where each iteration starts
            while True:  # the body's reads reach the top again: to a fixed point
                inner = block(statements(stmt.body), top, (live, top)) - target
                grown = top | inner
                if grown == top:
                    return header | top
                top = grown
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) else None
        if isinstance(small, cst.Break):
            return exits[0]
        if isinstance(small, cst.Continue):
            return exits[1]
        if isinstance(small, cst.Return | cst.Raise):
            return header
        return (live - binds(stmt)) | header

    block(body, frozenset(), (frozenset(), frozenset()))
    return after
