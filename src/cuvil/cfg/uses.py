"""What each statement reads and binds, as the dataflow analyses see it (headers only: bodies are blocks)."""

from __future__ import annotations

import libcst as cst

from ..frontend.walk import walk
from ..normalize.names import bound_names


class _Reads(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: list[cst.Name] = []

    def visit_Name(self, node: cst.Name) -> None:
        self.names.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        walk(node.value, self)  # `.attr` is not a variable
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        walk(node.value, self)  # `keyword=` is not a variable
        return False


def reads_in(node: cst.CSTNode | None) -> list[cst.Name]:
    if node is None:
        return []
    visitor = _Reads()
    walk(node, visitor)
    return visitor.names


def contains(node: cst.CSTNode, *kinds: type[cst.CSTNode], nested: bool = True) -> bool:
    """Whether `node` holds a node of one of `kinds` (itself included); `nested=False` does not look into the
    functions defined inside it."""
    found = False

    class Find(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            nonlocal found
            found = found or isinstance(n, kinds)
            return not found and (nested or n is node or not isinstance(n, cst.FunctionDef))

    walk(node, Find())
    return found


def subscripts_in(node: cst.CSTNode) -> list[cst.Subscript]:
    """Every subscript in `node`, outermost first."""
    found: list[cst.Subscript] = []

    class Find(cst.CSTVisitor):
        def visit_Subscript(self, sub: cst.Subscript) -> None:
            found.append(sub)

    walk(node, Find())
    return found


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """Every call in `node`, outermost first."""
    found: list[cst.Call] = []

    class Find(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

    walk(node, Find())
    return found


def _target_reads(target: cst.BaseExpression) -> list[cst.Name]:
    """A target reads what it indexes: `a[i] = v` reads a and i; `x = v` reads nothing."""
    if isinstance(target, cst.Name):
        return []
    if isinstance(target, cst.Tuple | cst.List):
        return [n for e in target.elements for n in _target_reads(e.value)]
    return reads_in(target)


def reads(stmt: cst.BaseStatement) -> list[cst.Name]:
    """Names `stmt` reads, in evaluation order as far as it matters (before its own bindings)."""
    if isinstance(stmt, cst.If | cst.While):
        return reads_in(stmt.test)
    if isinstance(stmt, cst.For):
        return reads_in(stmt.iter)
    assert isinstance(stmt, cst.SimpleStatementLine)
    small = stmt.body[0]
    if isinstance(small, cst.Assign):
        return reads_in(small.value) + [n for t in small.targets for n in _target_reads(t.target)]
    if isinstance(small, cst.AugAssign):
        return reads_in(small.value) + reads_in(small.target)
    if isinstance(small, cst.Expr | cst.Return):
        return reads_in(small.value)
    if isinstance(small, cst.Assert):
        return reads_in(small.test) + reads_in(small.msg)
    return []


def binds(stmt: cst.BaseStatement) -> set[str]:
    """Names `stmt` binds in its own block (a loop's target is bound in its body's block instead)."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return set()
    small = stmt.body[0]
    if isinstance(small, cst.Assign):
        return set().union(*(bound_names(t.target) for t in small.targets))
    if isinstance(small, cst.AugAssign):
        return bound_names(small.target)
    return set()
