"""Loop-carried dependences: which `for … in range` loops may run their iterations in any order, in parallel.

A loop is parallel when no iteration reads what another writes. Checked conservatively, on the syntax of the
normalized body:
  * no `break`, `continue`, `return` or `print`, and no call that could write memory (only builtins, module
    functions like `np.sqrt`/`math.exp`, and read-only array methods);
  * the loop variable is not rebound;
  * every scalar the body assigns is private (assigned before it is read, in every iteration, and not read
    after the loop) or a reduction (`s += e`, `s -= e` or `s *= e` only, with one operator, and read nowhere
    else in the body);
  * every array the body writes is allocated in the body, or is indexed, in every read and write in the body,
    with the bare loop variable at one fixed axis (so iterations touch disjoint elements).
As with Numba's `prange`, arrays written in the loop are assumed not to alias arrays read in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import UnionType

import libcst as cst

from ..normalize.names import assigned_names
from .build import build, statements
from .dataflow import unassigned_reads
from .uses import reads_in

_PURE_BUILTINS = frozenset({"len", "abs", "min", "max", "int", "float", "bool", "round", "range"})
_READ_ONLY_METHODS = frozenset(
    {"copy", "sum", "min", "max", "mean", "prod", "dot", "astype", "any", "all", "argmin", "argmax"}
)
_ALLOCATORS = frozenset(
    {"empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like", "copy"}
)
_REDUCTIONS = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign)
_SHAPE_ATTRS = frozenset({"shape", "size", "ndim"})


def _nodes(root: cst.CSTNode, kind: type[cst.CSTNode] | UnionType) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, kind):
                found.append(node)
            return True

    root.visit(Find())
    return found


def _is_range_loop(stmt: cst.CSTNode) -> bool:
    return (
        isinstance(stmt, cst.For)
        and isinstance(stmt.target, cst.Name)
        and isinstance(stmt.iter, cst.Call)
        and isinstance(stmt.iter.func, cst.Name)
        and stmt.iter.func.value == "range"
    )


def _index(sub: cst.Subscript) -> list[cst.BaseExpression | None]:
    """The components of `a[i, j]`: a bare expression per axis, None for a slice."""
    parts = [e.slice.value if isinstance(e.slice, cst.Index) else None for e in sub.slice]
    if len(parts) == 1 and isinstance(parts[0], cst.Tuple):
        return [e.value for e in parts[0].elements]
    return parts


def _calls_are_safe(body: cst.CSTNode, local: set[str]) -> bool:
    for call in _nodes(body, cst.Call):
        assert isinstance(call, cst.Call)
        func = call.func
        if isinstance(func, cst.Name) and func.value in _PURE_BUILTINS:
            continue
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            if func.value.value not in local or func.attr.value in _READ_ONLY_METHODS:
                continue  # a module's function (np.sqrt), or a read-only method of a local array
        return False
    return True


class _Loop:
    def __init__(self, loop: cst.For, fn: cst.FunctionDef, local: set[str]):
        self.loop, self.fn, self.local = loop, fn, local
        assert isinstance(loop.target, cst.Name)
        self.var = loop.target.value
        self.assigned = assigned_names(loop.body)

    def parallel(self) -> bool:
        body = self.loop.body
        if _nodes(body, cst.Break | cst.Continue | cst.Return):
            return False
        if any(n.value == "print" for n in reads_in(body)) or not _calls_are_safe(body, self.local):
            return False
        if self.var in self.assigned:
            return False
        written = self.written_arrays()
        carried = {r.name.value for r in unassigned_reads(build(statements(body), {self.var}), self.assigned)}
        read_after = {n.value for n in reads_in(self.fn.body) if not self.inside(n)}
        for name in self.assigned:
            if name in written:
                if not self.allocated_in_body(name):
                    return False
            elif self.is_reduction(name):
                continue
            elif name in carried or name in read_after:
                return False
        return all(self.disjoint(name) for name in written - self.assigned)

    def inside(self, node: cst.CSTNode) -> bool:
        return any(node is n for n in _nodes(self.loop.body, cst.Name))

    def written_arrays(self) -> set[str]:
        targets: list[cst.BaseExpression] = []
        for node in _nodes(self.loop.body, cst.AssignTarget | cst.AugAssign):
            targets.append(node.target)  # type: ignore[attr-defined]
        written = set()
        for target in targets:
            for sub in _nodes(target, cst.Subscript):
                assert isinstance(sub, cst.Subscript)
                if isinstance(sub.value, cst.Name):
                    written.add(sub.value.value)
                else:
                    written.add("")  # `a[i][j] = …`: we cannot tell what that writes
        return written

    def allocated_in_body(self, name: str) -> bool:
        """`name` is bound in the body only by allocations (`np.empty(…)`, `x.copy()`): private memory."""
        binds = 0
        for node in _nodes(self.loop.body, cst.Assign):
            assert isinstance(node, cst.Assign)
            if any(name in assigned_names(t) for t in node.targets):
                value = node.value
                if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
                    return False
                if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                        and value.func.attr.value in _ALLOCATORS):
                    return False
                binds += 1
        others = [n for n in _nodes(self.loop.body, cst.AugAssign | cst.For) if name in assigned_names(n)]
        return binds > 0 and not others

    def is_reduction(self, name: str) -> bool:
        updates = [
            n for n in _nodes(self.loop.body, cst.AugAssign)
            if isinstance(n.target, cst.Name) and n.target.value == name  # type: ignore[attr-defined]
        ]
        if not updates or len({type(u.operator) for u in updates}) != 1:  # type: ignore[attr-defined]
            return False
        if not isinstance(updates[0].operator, _REDUCTIONS):  # type: ignore[attr-defined]
            return False
        plain = [n for n in _nodes(self.loop.body, cst.AssignTarget) if name in assigned_names(n)]
        uses = [n for n in reads_in(self.loop.body) if n.value == name]
        return not plain and len(uses) == len(updates)

    def disjoint(self, name: str) -> bool:
        """Every access to `name` in the body has the bare loop variable at one fixed axis."""
        if name == "":
            return False
        subs = [s for s in _nodes(self.loop.body, cst.Subscript)
                if isinstance(s.value, cst.Name) and s.value.value == name]  # type: ignore[attr-defined]
        indexed = {id(s.value) for s in subs}  # type: ignore[attr-defined]
        for use in reads_in(self.loop.body):
            if use.value == name and id(use) not in indexed and not self.shape_only(use):
                return False  # passed whole to something, or sliced through another name
        axes: set[int] | None = None
        for sub in subs:
            parts = _index(sub)  # type: ignore[arg-type]
            here = {k for k, p in enumerate(parts) if isinstance(p, cst.Name) and p.value == self.var}
            axes = here if axes is None else axes & here
        return bool(axes)

    def shape_only(self, use: cst.Name) -> bool:
        for attr in _nodes(self.loop.body, cst.Attribute):
            if attr.value is use and attr.attr.value in _SHAPE_ATTRS:  # type: ignore[attr-defined]
                return True
        for call in _nodes(self.loop.body, cst.Call):
            func = call.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Name) and func.value == "len" and call.args[0].value is use:  # type: ignore[attr-defined]
                return True
        return False


def parallel_loops(fn: cst.FunctionDef) -> frozenset[cst.For]:
    """The outermost range loops of `fn` whose iterations are independent (see the module docstring)."""
    local = {p.name.value for p in fn.params.params} | assigned_names(fn.body)
    found: set[cst.For] = set()

    def visit(stmts: Sequence[cst.BaseStatement]) -> None:
        for stmt in stmts:
            if isinstance(stmt, cst.For) and _is_range_loop(stmt) and _Loop(stmt, fn, local).parallel():
                found.add(stmt)
                continue  # Numba runs a prange nested in a prange serially anyway
            if isinstance(stmt, cst.If):
                visit(statements(stmt.body))
                if isinstance(stmt.orelse, cst.Else):
                    visit(statements(stmt.orelse.body))
            elif isinstance(stmt, cst.For | cst.While):
                visit(statements(stmt.body))

    visit(statements(fn.body))
    return frozenset(found)
