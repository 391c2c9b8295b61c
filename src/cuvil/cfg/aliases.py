"""Alias analysis: for every array-valued name, the roots — the memory — it may view.

A root is a parameter (`arg:a`: whatever the caller passed; two parameters are distinct roots, which the
generated code checks at run time where it matters), an allocation site (`new:3`: fresh memory from an
allocation, an arithmetic expression or a call returning a fresh array), or a captured constant (`global:W`).
`b = a[1:]`, `b = a`, `b = a.T`, `b = np.ravel(a)`, `b, c = a, 0`, `b = a if c else d`, a helper returning
its argument: each makes `b` view what the right side views. A name that may hold a number has no root.

Flow-insensitive on purpose: a name's roots are the union over all its bindings, so no path can view memory
the analysis did not list. The dependence test (cfg/dependence.py) then reasons over roots, not names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import libcst as cst

from ..frontend.walk import walk
from ..library import numpy as library
from ..normalize.names import bound_names
from .effects import Calls

_SHAPE_ATTRS = frozenset({"shape", "size", "ndim", "dtype", "itemsize", "nbytes", "strides"})
_SCALAR_BUILTINS = frozenset({"len", "int", "float", "bool", "complex", "range", "round", "abs", "divmod"})

Roots = frozenset[str]
NONE: Roots = frozenset()


class Aliases:
    """`roots(expr)`: what `expr` may view. `names`: each local name's roots."""

    def __init__(self, fn: cst.FunctionDef, calls: Calls, numbers: frozenset[str] = frozenset(),
                 ranks: Mapping[str, int] | None = None, is_number: Callable[[cst.BaseExpression], bool] | None = None):
        self.calls = calls
        self.is_number_expr = is_number or (lambda node: False)  # the types analysis, where it knows
        self.names: dict[str, Roots] = {}
        assignments = list(_assignments(fn.body))
        self.ranks = _ranks(fn, assignments, {**{n: 0 for n in numbers}, **(ranks or {})}, calls)
        self._sites: dict[int, str] = {}  # id(node) → allocation-site root, numbered in the order first seen
        self._nodes: dict[str, int] = {}  # and back
        for param in fn.params.params:
            name = param.name.value
            self.names[name] = NONE if name in numbers else frozenset({f"arg:{name}"})
        changed = True
        while changed:  # to a fixed point: `c = b` may come before `b = a` in the text
            changed = False
            for target, value, augmented in assignments:
                for name, roots in self._bind(target, value, augmented):
                    old = self.names.get(name, NONE)
                    if not roots <= old:
                        self.names[name] = old | roots
                        changed = True

    def site(self, node: cst.CSTNode) -> str:
        """The root of fresh memory made at `node` (stable: numbered in the order nodes are first seen)."""
        if id(node) not in self._sites:
            root = f"new:{len(self._sites)}"
            self._sites[id(node)], self._nodes[root] = root, id(node)
        return self._sites[id(node)]

    def made_in(self, root: str, node_ids: set[int]) -> bool:
        """`root` is fresh memory made by one of the nodes whose ids are given (a loop body's, say)."""
        return self._nodes.get(root) in node_ids

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None,
              augmented: bool) -> Iterator[tuple[str, Roots]]:
        if value is None:  # a loop target: `for i in range(...)` binds an int
            return
        if augmented:  # `s += a`: an array is updated in place; a number may become a fresh array
            if isinstance(target, cst.Name) and self.roots(value):
                yield target.value, frozenset({self.site(value)})
            return
        if isinstance(target, cst.Tuple | cst.List) and isinstance(value, cst.Tuple | cst.List) \
                and len(target.elements) == len(value.elements):
            for t, v in zip(target.elements, value.elements):
                yield from self._bind(t.value, v.value, False)
            return
        roots = self.roots(value)
        for name in bound_names(target):
            yield name, roots

    def roots(self, node: cst.BaseExpression) -> Roots:
        if self.is_number_expr(node):
            return NONE
        if isinstance(node, cst.Subscript | cst.BinaryOperation | cst.UnaryOperation | cst.Call) \
                and self.rank(node) == 0:
            return NONE  # an element, or arithmetic on elements: a number
        if isinstance(node, cst.Name):
            if node.value in self.names:
                return self.names[node.value]
            found = self.calls.global_of(node.value)
            return frozenset({f"global:{node.value}"}) if found is not None and found.kind == "constant" else NONE
        if isinstance(node, cst.Integer | cst.Float | cst.Imaginary | cst.SimpleString | cst.ConcatenatedString):
            return NONE
        if isinstance(node, cst.Subscript):
            return self.roots(node.value)  # a view, or a number: the conservative answer covers both
        if isinstance(node, cst.Attribute):
            if node.attr.value in _SHAPE_ATTRS:
                return NONE
            if isinstance(node.value, cst.Name) and node.value.value not in self.names:
                found = self.calls.global_of(node.value.value)
                if found is not None and found.kind == "module":  # `cfg.TABLE`, `np.pi`: a constant
                    return frozenset({f"global:{node.value.value}.{node.attr.value}"})
            entry = library.method(node.attr.value)
            return self.roots(node.value) if entry.views else frozenset({self.site(node)})
        if isinstance(node, cst.Call):
            return self._call(node)
        if isinstance(node, cst.BooleanOperation):  # `x or y` is one of its operands
            return self.roots(node.left) | self.roots(node.right)
        if isinstance(node, cst.IfExp):
            return self.roots(node.body) | self.roots(node.orelse)
        if isinstance(node, cst.Tuple | cst.List):
            return frozenset().union(*(self.roots(e.value) for e in node.elements))
        operands = [c for c in node.children if isinstance(c, cst.BaseExpression)]
        if any(self.roots(c) for c in operands):  # arithmetic, comparisons: a fresh array
            return frozenset({self.site(node)})
        return NONE

    def _call(self, call: cst.Call) -> Roots:
        effect = self.calls.effect(call)
        if isinstance(call.func, cst.Name) and call.func.value in _SCALAR_BUILTINS \
                and self.calls.global_of(call.func.value) is None:
            return NONE
        if effect.name.startswith("math."):
            return NONE
        viewed = frozenset().union(*(self.roots(v) for v in effect.views))
        return viewed | {self.site(call)}

    def rank(self, node: cst.BaseExpression) -> int | None:
        """The number of dims of an array expression (0 for a number), where the argument types tell."""
        if isinstance(node, cst.Name):
            return self.ranks.get(node.value)
        return _rank(node, self.ranks, self.calls)

    def is_number(self, name: str) -> bool:
        """`name` never holds an array (nor a tuple that could hold one)."""
        return not self.names.get(name, NONE)


def _assignments(
    node: cst.CSTNode,
) -> Iterator[tuple[cst.BaseExpression, cst.BaseExpression | None, bool]]:
    """(target, value, augmented) for every binding under `node`; loop targets have no value."""
    found: list[tuple[cst.BaseExpression, cst.BaseExpression | None, bool]] = []

    class Collect(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for t in node.targets:
                found.append((t.target, node.value, False))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            found.append((node.target, node.value, True))

        def visit_For(self, node: cst.For) -> None:
            found.append((node.target, None, False))

    walk(node, Collect())
    return iter(found)


_ALLOCATIONS = frozenset(f"numpy.{n}" for n in library.named("allocate"))
_SAME_RANK = frozenset({".copy", ".astype"} | {f"numpy.{n}" for n in library.named("like", "cast")})


def _rank(node: cst.BaseExpression, ranks: Mapping[str, int | None], calls: Calls) -> int | None:
    if isinstance(node, cst.Name):
        return ranks.get(node.value)
    if isinstance(node, cst.Integer | cst.Float | cst.Imaginary):
        return 0
    if isinstance(node, cst.Subscript):
        base = _rank(node.value, ranks, calls)
        if base is None:
            return None
        out = base
        for part in _index_parts(node):
            if part is None:
                return None  # a slice: stays an array of unknown size, rank kept... keep it simple
            if isinstance(part, cst.Name) and part.value == "None":
                out += 1
            elif _rank(part, ranks, calls) == 0:
                out -= 1
            else:
                return None  # an index array: fancy indexing
        return out if out >= 0 else None
    if isinstance(node, cst.UnaryOperation):
        return _rank(node.expression, ranks, calls)
    if isinstance(node, cst.BinaryOperation) and not isinstance(node.operator, cst.MatrixMultiply):
        left, right = _rank(node.left, ranks, calls), _rank(node.right, ranks, calls)
        return None if left is None or right is None else max(left, right)
    if isinstance(node, cst.Call):
        effect = calls.effect(node)
        if effect.name in ("len", "int", "float", "bool") or effect.name.startswith("math."):
            return 0
        if effect.name in _ALLOCATIONS and effect.args:
            shape = effect.args[0]
            if isinstance(shape, cst.Tuple):
                return len(shape.elements)
            return 1 if _rank(shape, ranks, calls) == 0 else None
        if effect.name in _SAME_RANK and effect.args:
            return _rank(effect.args[0], ranks, calls)
    return None


def _index_parts(sub: cst.Subscript) -> list[cst.BaseExpression | None]:
    parts: list[cst.BaseExpression | None] = []
    for element in sub.slice:
        if isinstance(element.slice, cst.Index):
            value = element.slice.value
            parts += [e.value for e in value.elements] if isinstance(value, cst.Tuple) else [value]
        else:
            parts.append(None)
    return parts


def _ranks(fn: cst.FunctionDef, assignments: list[tuple[cst.BaseExpression, cst.BaseExpression | None, bool]],
           known: Mapping[str, int], calls: Calls) -> dict[str, int]:
    """Names whose every binding has one known rank (parameters: from the argument types)."""
    params = {p.name.value for p in fn.params.params}
    values: dict[str, list[cst.BaseExpression | None]] = {}
    for target, value, _ in assignments:
        if isinstance(target, cst.Name):
            values.setdefault(target.value, []).append(value)
        else:
            for name in bound_names(target):
                values.setdefault(name, []).append(None)  # unpacking: not followed
    ranks: dict[str, int | None] = {n: r for n, r in known.items() if n in params and n not in values}
    for name in values:
        if name not in params:
            ranks.setdefault(name, None)
    counters = _loop_targets(fn)
    for _ in range(len(values) + 1):  # each round settles at least one more name, or nothing changes
        changed = False
        for name, bound in values.items():
            if name in params and name not in known:
                continue
            found = {0 if v is None and name in counters else (None if v is None else _rank(v, ranks, calls))
                     for v in bound}
            if name in known:
                found.add(known[name])
            new = found.pop() if len(found) == 1 else None
            if ranks.get(name) != new:
                ranks[name], changed = new, True
        if not changed:
            break
    return {n: r for n, r in ranks.items() if r is not None}


def _loop_targets(fn: cst.FunctionDef) -> frozenset[str]:
    """The names a `for` binds (after normalization, integer counters), found in one walk: asking per name in
    each round of the fixed point walked the function a few hundred times (a tenth of a compile)."""
    found: set[str] = set()

    class Find(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            if isinstance(node.target, cst.Name):
                found.add(node.target.value)

    walk(fn, Find())
    return frozenset(found)
