"""What a block of statements reads and writes of arrays, and which calls it makes, for the dependence test.

An access names the array it goes through, the roots that array may view (cfg/aliases.py) and, when it is
indexed, the index expression of each axis the first subscript covers:

    out[i, j] = a[i] * w      →  write out (i, j); read a (i,); w is a number: nothing
    np.add(x, 1.0, out[i])    →  read x (whole); write out (i,)   (written arguments from the library table)
    s += np.sum(row)          →  read row (whole)
    len(x), x.shape[0]        →  nothing: the shape is not the memory
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import libcst as cst

from ..normalize.origins import origin_of
from .aliases import Aliases, Roots
from .effects import CallEffect, Calls

_SHAPE_ATTRS = frozenset({"shape", "size", "ndim", "dtype", "itemsize", "nbytes", "strides"})
Index = tuple[cst.BaseExpression | None, ...]  # per axis: the index expression, None for a slice or new axis


@dataclasses.dataclass(frozen=True)
class Access:
    name: str | None  # the array's name; None when it is not a name (a call's result)
    roots: Roots
    write: bool
    index: Index | None  # None: the whole array (passed on, or updated in place)
    line: int | None


@dataclasses.dataclass(frozen=True)
class CallSite:
    effect: CallEffect
    node: cst.Call
    line: int | None


def index_of(sub: cst.Subscript, calls: Calls | None = None) -> Index:
    """The index expression per axis of one subscript: `a[i, 1:]` → (i, None); a bounds check
    `a[index(i, n, 0)]` (lower/checks.py, resolved through `calls`) indexes by i."""
    parts: list[cst.BaseExpression | None] = []
    for element in sub.slice:
        if isinstance(element.slice, cst.Index):
            value = element.slice.value
            if calls is not None and isinstance(value, cst.Call) and value.args \
                    and calls.effect(value).name == "cuvil.runtime.checks.index":
                value = value.args[0].value
            if isinstance(value, cst.Tuple):
                parts += [e.value for e in value.elements]
            else:
                parts.append(None if isinstance(value, cst.Name) and value.value == "None" else value)
        else:
            parts.append(None)
    return tuple(parts)


class Collector:
    """Walks statements in evaluation order and records their accesses and calls."""

    def __init__(self, aliases: Aliases):
        self.aliases = aliases
        self.accesses: list[Access] = []
        self.calls: list[CallSite] = []
        self.line: int | None = None

    def statements(self, stmts: Sequence[cst.BaseStatement]) -> Collector:
        for stmt in stmts:
            self.statement(stmt)
        return self

    def statement(self, stmt: cst.BaseStatement) -> None:
        self.line = origin_of(stmt) or self.line
        if isinstance(stmt, cst.If):
            self.expr(stmt.test)
            self.statements(stmt.body.body)  # type: ignore[arg-type]
            if isinstance(stmt.orelse, cst.Else):
                self.statements(stmt.orelse.body.body)  # type: ignore[arg-type]
        elif isinstance(stmt, cst.For):
            self.expr(stmt.iter)
            self.statements(stmt.body.body)  # type: ignore[arg-type]
        elif isinstance(stmt, cst.While):
            self.expr(stmt.test)
            self.statements(stmt.body.body)  # type: ignore[arg-type]
        elif isinstance(stmt, cst.SimpleStatementLine):
            small = stmt.body[0]
            if isinstance(small, cst.Assign):
                self.expr(small.value)
                for target in small.targets:
                    self.target(target.target, read=False)
            elif isinstance(small, cst.AugAssign):
                self.expr(small.value)
                self.target(small.target, read=True)
            elif isinstance(small, cst.Raise):
                pass  # builds its exception of literals (cfg/raising.py refuses any other in a parallel loop)
            else:
                for child in small.children:
                    if isinstance(child, cst.BaseExpression):
                        self.expr(child)

    def record(self, node: cst.BaseExpression, write: bool) -> None:
        """An access to the array `node` (a name, or a subscript of one) as a whole or by index."""
        index: Index | None = None
        while isinstance(node, cst.Subscript):
            index = index_of(node, self.aliases.calls)  # the first subscript decides the slot: `a[i][j]` is inside a[i]
            inner = node.value
            if not isinstance(inner, cst.Subscript):
                break
            node = inner
        base = node.value if isinstance(node, cst.Subscript) else node
        name = base.value if isinstance(base, cst.Name) else None
        roots = self.aliases.roots(base)
        if roots:
            self.accesses.append(Access(name, roots, write, index, self.line))

    def target(self, node: cst.BaseExpression, read: bool) -> None:
        if isinstance(node, cst.Tuple | cst.List):
            for element in node.elements:
                self.target(element.value, read)
        elif isinstance(node, cst.Subscript):
            self.indices(node)
            if read:
                self.record(node, write=False)
            self.record(node, write=True)
        elif isinstance(node, cst.Name):
            if read and self.aliases.roots(node):  # `t += a` on an array updates it in place
                self.record(node, write=False)
                self.record(node, write=True)
        else:
            self.expr(node)

    def indices(self, node: cst.Subscript) -> None:
        for element in node.slice:
            for child in element.slice.children:
                if isinstance(child, cst.BaseExpression):
                    self.expr(child)
        if isinstance(node.value, cst.Subscript):
            self.indices(node.value)
        elif not isinstance(node.value, cst.Name):
            self.expr(node.value)

    def expr(self, node: cst.BaseExpression) -> None:
        if isinstance(node, cst.Subscript):
            self.indices(node)
            self.record(node, write=False)
        elif isinstance(node, cst.Name):
            self.record(node, write=False)
        elif isinstance(node, cst.Attribute):
            if node.attr.value not in _SHAPE_ATTRS:
                self.expr(node.value)
        elif isinstance(node, cst.Call):
            self.call(node)
        else:
            self.parts(node)

    def parts(self, node: cst.CSTNode) -> None:
        """The expressions inside `node`, also those held by nodes that are not expressions themselves: a
        tuple's elements, a comparison's right sides (skipped, `v, w = a[i + 1], b[i]` read nothing)."""
        for child in node.children:
            if isinstance(child, cst.BaseExpression):
                self.expr(child)
            else:
                self.parts(child)

    def call(self, node: cst.Call) -> None:
        effect = self.aliases.calls.effect(node)
        self.calls.append(CallSite(effect, node, self.line))
        if effect.name == "len":
            return  # the length is not the memory
        if isinstance(node.func, cst.Attribute) and effect.name.startswith("."):
            self.expr(node.func.value)
        for arg in node.args:
            self.expr(arg.value)
        for written in effect.writes:
            if isinstance(written, cst.Subscript | cst.Name):
                self.record(written, write=True)
            else:
                roots = self.aliases.roots(written)
                if roots:
                    self.accesses.append(Access(None, roots, True, None, self.line))
