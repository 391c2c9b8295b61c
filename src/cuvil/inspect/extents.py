"""Index expressions of a Plan as polynomials (inspect/symbolic.py): loop extents, array shapes, trip counts.

What the cost model multiplies by. A name assigned once is its value (`n = x.shape[0]`, `_d0 = _b2[0]`); `len`,
`range` and `.shape` of the function's arrays, tuple items, `min`/`max` and the generated code's
`broadcast_shape` are understood; anything else is a symbol named by its own text.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import libcst as cst

from ..frontend.walk import walk
from .symbolic import Poly

_code = cst.Module([])


class Extents:
    def __init__(self) -> None:
        self.arrays: dict[str, tuple[int, list[Poly]]] = {}  # name → (itemsize, dims)
        self.env: dict[str, Any] = {}  # a name assigned once → its value (Poly, list of Polys) or an alloc's kind

    def value(self, node: cst.BaseExpression) -> Any:
        """A Poly, a list of Polys (a shape or tuple), or None."""
        if isinstance(node, cst.Integer):
            return Poly.const(int(node.value.replace("_", ""), 0))
        if isinstance(node, cst.Name):
            if node.value in self.arrays:  # `len(x)`: its first dim
                return list(self.arrays[node.value][1])
            found = self.env.get(node.value)
            return found if isinstance(found, Poly | list) else Poly.symbol(node.value)
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.attr.value == "shape" \
                and node.value.value in self.arrays:
            return list(self.arrays[node.value.value][1])
        if isinstance(node, cst.Tuple):
            items = [self.value(e.value) for e in node.elements]
            return [Poly.symbol(_code.code_for_node(e.value)) if v is None else v
                    for v, e in zip(items, node.elements)]
        if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            seq, k = self.value(node.value), self.value(node.slice[0].slice.value)
            constant = k.constant() if isinstance(k, Poly) else None
            if isinstance(seq, list) and constant is not None:
                index = int(constant)
                if -len(seq) <= index < len(seq):
                    return seq[index]
        if isinstance(node, cst.BinaryOperation):
            left, right = self.value(node.left), self.value(node.right)
            if isinstance(left, Poly) and isinstance(right, Poly):
                if isinstance(node.operator, cst.Add):
                    return left + right
                if isinstance(node.operator, cst.Subtract):
                    return left - right
                if isinstance(node.operator, cst.Multiply):
                    return left * right
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            inner = self.value(node.expression)
            return -inner if isinstance(inner, Poly) else None
        if isinstance(node, cst.Call):
            return self.call_value(node)
        return Poly.symbol(_code.code_for_node(node))

    def call_value(self, node: cst.Call) -> Any:
        name, args = callee(node), [self.value(a.value) for a in node.args if a.keyword is None]  # not at=<line>
        if name == "len" and args:
            if isinstance(args[0], list):
                return args[0][0] if args[0] else Poly()
            return self.trips(node.args[0].value)
        if name == "range" and args:
            return self.trips(node)
        if name in ("min", "max") and args and all(isinstance(a, Poly) for a in args):
            unique = sorted(set(args), key=str)
            consts = [c for c in (a.constant() for a in unique) if c is not None]
            if len(consts) == len(unique):
                return Poly.const((min if name == "min" else max)(consts))
            return _extremum(name, unique)
        if name == "broadcast_shape" and len(args) == 1 and isinstance(args[0], list):
            return _broadcast(self.value(node.args[0].value))
        return Poly.symbol(_code.code_for_node(node))

    def poly(self, node: cst.BaseExpression) -> Poly:
        found = self.value(node)
        return found if isinstance(found, Poly) else Poly.symbol(_code.code_for_node(node))

    def shape(self, node: cst.BaseExpression) -> list[Poly]:
        found = self.value(node)
        return found if isinstance(found, list) else [self.poly(node)]

    def trips(self, node: cst.BaseExpression) -> Poly | None:
        """The trip count of a `range(...)` (or `numba.prange`) call, None for anything else."""
        if not isinstance(node, cst.Call) or callee(node) not in ("range", "prange") or not 1 <= len(node.args) <= 3:
            return None
        args = [self.poly(a.value) for a in node.args]
        start, stop = (Poly(), args[0]) if len(args) == 1 else (args[0], args[1])
        step = args[2].constant() if len(args) == 3 else Fraction(1)
        if step is None or step == 0:
            return None
        return (stop - start) * Poly.const(Fraction(1) / step) if step > 0 else (start - stop) * Poly.const(
            Fraction(-1) / step)


def callee(node: cst.Call) -> str:
    func = node.func
    return func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else ""


def all_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, child: cst.CSTNode) -> bool:
            found.append(child)
            return True

    walk(node, Collect())
    return found


def _broadcast(shapes: Any) -> Any:
    if not isinstance(shapes, list) or not all(isinstance(s, list) for s in shapes):
        return None
    rank = max(len(s) for s in shapes)
    out = []
    for k in range(rank):
        dims = {d for s in shapes if (j := k - rank + len(s)) >= 0 for d in [s[j]] if d != Poly.const(1)}
        ordered = sorted(dims, key=str)
        out.append(Poly.const(1) if not ordered else _extremum("max", ordered))
    return out


def _extremum(name: str, polys: Sequence[Poly]) -> Poly:
    """`max(a, b, …)` as one symbol, nested ones flattened and repeats dropped (`max(max(a, b), a)` is
    `max(a, b)`): broadcasting three arrays of one length gives the max of their lengths, not a tower."""
    members: set[str] = set()
    for p in polys:
        (only,) = p.symbols if len(p.terms) == 1 and p.terms.get(tuple(p.symbols)) == 1 and len(p.symbols) == 1 \
            else (None,)
        if only is not None and only.startswith(f"{name}(") and only.endswith(")"):
            members |= set(_split_arguments(only[len(name) + 1:-1]))
        else:
            members.add(str(p))
    ordered = sorted(members)
    return Poly.symbol(ordered[0]) if len(ordered) == 1 else Poly.symbol(f"{name}({', '.join(ordered)})")


def _split_arguments(text: str) -> list[str]:
    out, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += ch in "([" and 1 or ch in ")]" and -1 or 0
        if ch == "," and depth == 0:
            out.append(text[start:k].strip())
            start = k + 1
    return [*out, text[start:].strip()]
