"""A loop nest the lowering made from array code, before it is fused with its neighbours and printed.

    pre                      # what runs once before: views, scalars, extents, the allocation
    for var in range(extent):
        row                  # one iteration of the outer loop (inner loops included)
    post                     # what runs once after: a whole-array reduction's result

The outer loop is the axis fusion merges on (lower/fuse.py) and the dependence analysis parallelizes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import cast

import libcst as cst

from ..frontend.walk import walk
from ..normalize.names import Rename
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
    # Names bound in `pre` to `dim != 1`, one per operand axis that broadcasts or not, known only at run time:
    # the operand is indexed `i * flag` there, which LLVM cannot vectorize.
    flags: tuple[str, ...] = ()
    result: str = ""  # a reduction's result name

    def statements(self, fresh: Callable[[str], str] | None = None) -> Stmts:
        """The loop. With broadcast flags and `fresh` (names for the copy's loop variables), twice: a copy with
        plain indices for the usual case where no operand broadcasts at run time (it vectorizes: 9.2 → 3.0 ms
        for a 10M float32 axpy), the general loop otherwise. Without `fresh`, the general loop alone (what a
        caller collecting the names the nest reads needs)."""
        loop = with_origin(cst.For(cst.Name(self.var), cst.Call(cst.Name("range"), [cst.Arg(self.extent)]),
                                   cst.IndentedBlock(self.row)), self.line)
        if not self.flags or fresh is None:
            return [*self.pre, loop, *self.post]
        plain = cast(cst.For, loop.visit(_Unflag(set(self.flags))))
        plain = cast(cst.For, plain.visit(Rename({t: fresh(t.rstrip("0123456789")) for t in _loop_variables(plain)})))
        test: cst.BaseExpression = cst.Name(self.flags[0])
        for flag in self.flags[1:]:
            test = cst.BooleanOperation(test, cst.And(), cst.Name(flag))
        versioned = with_origin(cst.If(test, cst.IndentedBlock([plain]), orelse=cst.Else(cst.IndentedBlock([loop]))),
                                self.line)
        return [*self.pre, versioned, *self.post]


def _loop_variables(loop: cst.For) -> list[str]:
    found: list[str] = []

    class Find(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            if isinstance(node.target, cst.Name):
                found.append(node.target.value)

    walk(loop, Find())
    return found


class _Unflag(cst.CSTTransformer):
    """`i * flag` → `i`: what the index is when every flag is true."""

    def __init__(self, flags: set[str]):
        super().__init__()
        self.flags = flags

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        if isinstance(updated.operator, cst.Multiply) and isinstance(updated.right, cst.Name) \
                and updated.right.value in self.flags:
            return updated.left
        return updated


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
    elif not index:  # a 0-d array's one element: `a[()]`
        elements = [cst.SubscriptElement(cst.Index(cst.Tuple([])))]
    else:
        elements = [cst.SubscriptElement(cst.Index(cst.Tuple([cst.Element(i) for i in index], lpar=[], rpar=[])))]
    return cst.Subscript(base, elements)
