"""Array lowering over a whole function: each block's statements lowered one by one (lower/arrays.py), then
the block's nests fused (lower/fuse.py). Blocks nest: an `if` or a loop body is a block of its own."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import libcst as cst

from ..cfg.build import statements
from ..cfg.uses import reads_in
from .arrays import Lowering
from .fuse import Item, fuse
from .nest import Stmts
from .zerodim import ZeroDim


def lower_arrays(fn: cst.FunctionDef, lowering: Lowering) -> cst.FunctionDef:
    reads = Counter(n.value for n in reads_in(fn.body))

    def used_elsewhere(name: str, sources: list[cst.BaseStatement]) -> bool:
        inside = Counter(n.value for s in sources for n in reads_in(s))
        return reads[name] > inside[name]

    def block(stmts: Sequence[cst.BaseStatement]) -> Stmts:
        items: list[Item] = []
        for stmt in stmts:
            if isinstance(stmt, cst.If):
                orelse = stmt.orelse
                if isinstance(orelse, cst.Else):
                    orelse = orelse.with_changes(body=orelse.body.with_changes(body=block(statements(orelse.body))))
                items.append(stmt.with_changes(body=stmt.body.with_changes(body=block(statements(stmt.body))),
                                               orelse=orelse))
            elif isinstance(stmt, cst.For | cst.While):
                lowering.loops += 1
                items.append(stmt.with_changes(body=stmt.body.with_changes(body=block(statements(stmt.body)))))
                lowering.loops -= 1
            else:
                items += lowering.statement(stmt) or [stmt]
        return fuse(items, used_elsewhere, lowering.fresh)

    lowered = fn.with_changes(body=fn.body.with_changes(body=block(statements(fn.body))))
    return cst.ensure_type(lowered.visit(ZeroDim(lowering.types)), cst.FunctionDef)
