"""Expressions a lowering may write twice: three strengths, each the weakest its users can live with.

A rewrite that evaluates part of a statement again (a check before it, a shape for an output, the target of
`t //= b` read and written) must not repeat an effect. How much more it asks depends on where the copy runs:

    repeatable   no call, no walrus: the same value at the same point (`c[1:, i]` of `c[1:, i] //= b`)
    cheap        reads and arithmetic only: a copy that runs at a check costs next to nothing (`n * 2` as a
                 dim of `np.empty`)
    hoistable    a name, an integer, or a subscript of a name by names and integers: evaluated again before a
                 loop (or for a shape), whose names lower/checks.py can test are not assigned in the loop
"""

from __future__ import annotations

import libcst as cst

from ..cfg.uses import contains


def repeatable(node: cst.BaseExpression) -> bool:
    return not contains(node, cst.Call, cst.NamedExpr, cst.Lambda, cst.Yield, cst.Await)


def cheap(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name | cst.Integer | cst.Float):
        return True
    if isinstance(node, cst.Attribute):
        return cheap(node.value)
    if isinstance(node, cst.Subscript):
        return cheap(node.value) and all(_cheap_part(e.slice) for e in node.slice)
    if isinstance(node, cst.Tuple):
        return all(cheap(e.value) for e in node.elements)
    if isinstance(node, cst.UnaryOperation):
        return cheap(node.expression)
    if isinstance(node, cst.BinaryOperation):
        return cheap(node.left) and cheap(node.right)
    return False


def _cheap_part(part: cst.BaseSlice) -> bool:
    if isinstance(part, cst.Index):
        return cheap(part.value)
    return isinstance(part, cst.Slice) and all(b is None or cheap(b) for b in (part.lower, part.upper, part.step))


def hoistable(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name | cst.Integer):
        return True
    if isinstance(node, cst.Subscript):
        return hoistable(node.value) and all(isinstance(e.slice, cst.Index) and isinstance(
            e.slice.value, cst.Name | cst.Integer) for e in node.slice)
    return False
