"""Basic blocks and their predecessors over a normalized statement list.

A block is a run of statements that execute together. An `if` stays in the block that evaluates its test; a
loop's `for`/`while` header is a block of its own, entered from before the loop, from the end of its body and
from every `continue`; the block after a loop is entered from the header (the test failed or the range ran out;
never for `while True`) and from every `break`. Block ids follow source order, so they are stable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import libcst as cst

from ..frontend.walk import walk
from ..normalize.names import bound_names


@dataclasses.dataclass
class Block:
    id: int
    preds: list[int]
    stmts: list[cst.BaseStatement]
    binds: set[str]  # names bound on entry: a loop body binds the loop's target


@dataclasses.dataclass(frozen=True)
class CFG:
    blocks: tuple[Block, ...]
    block_of: Mapping[cst.BaseStatement, int]


@dataclasses.dataclass
class _Loop:
    header: int
    breaks: list[int]
    continues: list[int]


class _Builder:
    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.block_of: dict[cst.BaseStatement, int] = {}
        self.loops: list[_Loop] = []

    def new(self, preds: Sequence[int], binds: set[str] | None = None) -> int:
        self.blocks.append(Block(len(self.blocks), list(preds), [], binds or set()))
        return len(self.blocks) - 1

    def add(self, block: int, stmt: cst.BaseStatement) -> None:
        self.blocks[block].stmts.append(stmt)
        self.block_of[stmt] = block

    def walk(self, stmts: Sequence[cst.BaseStatement], cur: int) -> int:
        """Add `stmts` starting in block `cur`; return the block control is in afterwards."""
        for stmt in stmts:
            if isinstance(stmt, cst.If):
                cur = self.branch(stmt, cur)
            elif isinstance(stmt, cst.For | cst.While):
                cur = self.loop(stmt, cur)
            else:
                self.add(cur, stmt)
                small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) else None
                if isinstance(small, cst.Break | cst.Continue | cst.Return | cst.Raise):
                    if isinstance(small, cst.Break) and self.loops:
                        self.loops[-1].breaks.append(cur)
                    elif isinstance(small, cst.Continue) and self.loops:
                        self.loops[-1].continues.append(cur)
                    cur = self.new([])  # what follows is unreachable
        return cur

    def branch(self, stmt: cst.If, cur: int) -> int:
        self.add(cur, stmt)
        then_end = self.walk(statements(stmt.body), self.new([cur]))
        if stmt.orelse is None:
            return self.new([then_end, cur])
        else_end = self.walk(statements(stmt.orelse.body), self.new([cur]))
        return self.new([then_end, else_end])

    def loop(self, stmt: cst.For | cst.While, cur: int) -> int:
        header = self.new([cur])
        self.add(header, stmt)
        binds = bound_names(stmt.target) if isinstance(stmt, cst.For) else set()
        self.loops.append(_Loop(header, [], []))
        end = self.walk(statements(stmt.body), self.new([header], binds))
        loop = self.loops.pop()
        self.blocks[header].preds += [end, *loop.continues]
        exits = [] if _always_true(stmt) else [header]
        return self.new([*exits, *loop.breaks])


def statements(suite: cst.BaseSuite) -> Sequence[cst.BaseStatement]:
    """The statements of an indented block (every block is one after CanonicalBlocks)."""
    assert isinstance(suite, cst.IndentedBlock), "CanonicalBlocks runs first"
    return suite.body


def all_statements(node: cst.CSTNode) -> list[cst.BaseStatement]:
    """Every statement under `node` (simple lines and the headers of if/for/while), in source order."""
    found: list[cst.BaseStatement] = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, child: cst.CSTNode) -> bool:
            if isinstance(child, cst.SimpleStatementLine | cst.If | cst.For | cst.While):
                found.append(child)
            return True

    walk(node, Collect())
    return found


def _always_true(stmt: cst.For | cst.While) -> bool:
    if not isinstance(stmt, cst.While):
        return False
    test = stmt.test
    return (isinstance(test, cst.Name) and test.value == "True") or (
        isinstance(test, cst.Integer) and int(test.value, 0) != 0
    )


def _compact(blocks: list[Block]) -> list[Block]:
    """Drop empty blocks (joins at the end of a body, dead code after `break`), edges routed through them,
    and number the rest in source order. The entry, and a loop body that binds the loop's target, stay even
    when they hold no statement (`for i …: for j …:` binds i in an otherwise empty block)."""
    empty = {b.id for b in blocks if b.id and not b.stmts and not b.binds}

    def sources(pred: int) -> list[int]:
        return [pred] if pred not in empty else [s for p in blocks[pred].preds for s in sources(p)]

    kept = [b for b in blocks if b.id not in empty]
    number = {b.id: k for k, b in enumerate(kept)}
    return [
        Block(number[b.id], list(dict.fromkeys(number[s] for p in b.preds for s in sources(p))), b.stmts, b.binds)
        for b in kept
    ]


def build(stmts: Sequence[cst.BaseStatement], binds: set[str] | None = None) -> CFG:
    """The CFG of a statement list (a function body, or a loop body taken alone); block 0 is the entry."""
    builder = _Builder()
    builder.walk(stmts, builder.new([], binds))
    blocks = _compact(builder.blocks)
    return CFG(tuple(blocks), {stmt: b.id for b in blocks for stmt in b.stmts})


def build_function(fn: cst.FunctionDef) -> CFG:
    params = {p.name.value for p in fn.params.params}
    return build(statements(fn.body), params)
