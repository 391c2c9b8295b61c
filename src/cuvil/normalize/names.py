"""Names in a function: which exist, so that the names a pass introduces never clash with the user's."""

from __future__ import annotations

import libcst as cst

from ..frontend.walk import walk


class _Collect(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)


def all_names(node: cst.CSTNode) -> set[str]:
    visitor = _Collect()
    walk(node, visitor)
    return visitor.names


class Fresh:
    """Hands out names that appear nowhere in the function: `_i0`, `_i1`, `_rv`…"""

    def __init__(self, taken: set[str]):
        self.taken = set(taken)

    def __call__(self, base: str, numbered: bool = True) -> str:
        n = 0
        name = f"{base}{n}" if numbered else base
        while name in self.taken:
            n += 1
            name = f"{base}{n}"
        self.taken.add(name)
        return name


def assigned_names(node: cst.CSTNode) -> set[str]:
    """Every name bound anywhere under `node`: assignment, augmented assignment and loop targets."""
    names: set[str] = set()

    class Targets(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            names.update(bound_names(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            names.update(bound_names(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            names.update(bound_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            names.update(bound_names(node.target))

    walk(node, Targets())
    return names


def bound_names(target: cst.BaseExpression) -> set[str]:
    """Names a target binds: `a, (b, c)` binds all three; `x[i]` and `p.q` bind none."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, cst.Tuple | cst.List):
        return set().union(*(bound_names(e.value) for e in target.elements))
    return set()


class Rename(cst.CSTTransformer):
    """Renames variables (`names`: old → new); attribute names and keywords are not variables."""

    def __init__(self, names: dict[str, str]):
        super().__init__()
        self.names = names

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        new = self.names.get(updated.value)
        return updated.with_changes(value=new) if new else updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)
