"""A loop nest the lowering made from array code, before it is fused with its neighbours and printed.

    pre                      # what runs once before: views, scalars, extents, the allocation
    for var in range(extent):
        row                  # one iteration of the outer loop (inner loops included)
    post                     # what runs once after: a whole-array reduction's result

The outer loop is the axis fusion merges on (lower/fuse.py) and the dependence analysis parallelizes.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from ..normalize.origins import with_origin

Stmts = list[cst.BaseStatement]


@dataclasses.dataclass
class Alloc:
    name: str
    shape: tuple[cst.BaseExpression, ...]
    dtype: str
    statement: cst.BaseStatement  # `name = np.empty(shape, dtype)`, the first of `pre`'s allocations
    keys: tuple[str | None, ...] = ()  # per dim what it is symbolically ("s0", "1"); None: unknown


@dataclasses.dataclass
class Nest:
    line: int | None
    pre: Stmts
    allocs: list[Alloc]
    var: str
    extent: cst.BaseExpression
    key: str | None  # what the extent is symbolically ("s0", "4"): equal keys, equal extents; None: unknown
    row: Stmts
    post: Stmts
    defines: set[str]  # names bound in `pre` and `post` (temporaries, reduction results)
    sources: list[cst.BaseStatement] = dataclasses.field(default_factory=list)  # the statements it lowers

    def statements(self) -> Stmts:
        loop = cst.For(cst.Name(self.var), cst.Call(cst.Name("range"), [cst.Arg(self.extent)]),
                       cst.IndentedBlock(self.row))
        return [*self.pre, with_origin(loop, self.line), *self.post]


def line(small: cst.BaseSmallStatement, origin: int | None) -> cst.SimpleStatementLine:
    return with_origin(cst.SimpleStatementLine([small]), origin)


def assign(target: cst.BaseAssignTargetExpression, value: cst.BaseExpression,
           origin: int | None) -> cst.SimpleStatementLine:
    return line(cst.Assign([cst.AssignTarget(target)], value), origin)


def loop(var: str, extent: cst.BaseExpression, body: Stmts, origin: int | None) -> cst.For:
    return with_origin(cst.For(cst.Name(var), cst.Call(cst.Name("range"), [cst.Arg(extent)]),
                               cst.IndentedBlock(body)), origin)


def subscript(base: cst.BaseExpression, index: list[cst.BaseExpression]) -> cst.Subscript:
    if len(index) == 1:
        elements = [cst.SubscriptElement(cst.Index(index[0]))]
    else:
        elements = [cst.SubscriptElement(cst.Index(cst.Tuple([cst.Element(i) for i in index], lpar=[], rpar=[])))]
    return cst.Subscript(base, elements)
