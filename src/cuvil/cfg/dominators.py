"""Which blocks of a CFG run on every path through the function: those that dominate every exit.

An analysis that finds an error in such a block may report it before the program runs (exceptions raised by
earlier statements aside, the function cannot return without executing it); an error anywhere else is on a
path the program may never take, and is left to run time.

    def f(a, b):
        if len(a) != len(b):          # block 0: certain
            _rv = a * 0.0             # block 1: not certain
        else:
            _rv = a + b               # block 2: not certain
        return _rv                    # block 3: certain
"""

from __future__ import annotations

from .build import CFG


def successors(cfg: CFG) -> dict[int, list[int]]:
    succ: dict[int, list[int]] = {b.id: [] for b in cfg.blocks}
    for block in cfg.blocks:
        for pred in block.preds:
            succ[pred].append(block.id)
    return succ


def reachable(cfg: CFG) -> set[int]:
    """Blocks some path from the entry (block 0) reaches: not those after a `return` or `break`."""
    succ = successors(cfg)
    seen, todo = {0}, [0]
    while todo:
        for nxt in succ[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def dominators(cfg: CFG) -> dict[int, set[int]]:
    """For each reachable block, the blocks every path from the entry to it passes through (itself included)."""
    live = reachable(cfg)
    dom = {b: set(live) for b in live}
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for block in cfg.blocks:
            if block.id == 0 or block.id not in live:
                continue
            preds = [dom[p] for p in block.preds if p in live]
            new = set.intersection(*preds) | {block.id} if preds else {block.id}
            if new != dom[block.id]:
                dom[block.id], changed = new, True
    return dom


def certain_blocks(cfg: CFG) -> frozenset[int]:
    """Reachable blocks on every path from the entry to every exit. A function that never exits (`while True`
    without a `break` or `return`) has only its entry block certain."""
    live = reachable(cfg)
    succ = successors(cfg)
    dom = dominators(cfg)
    exits = [b for b in live if not succ[b]]
    if not exits:
        return frozenset({0})
    return frozenset(set.intersection(*(dom[e] for e in exits)))
