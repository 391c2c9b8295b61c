"""A `for` over a range as lower/checks.py's hoisted bounds checks read it: its variable's first and last values,
when it runs at all, and whether its body runs through every time (then a test of both ends before the loop
covers every iteration)."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..cfg.uses import contains
from ..normalize.names import assigned_names


class LoopRange:
    """A `for` over a range: the first and last values of its variable and when it runs at all, as
    expressions to evaluate before it (`plain` when those are known and its body runs through every time)."""

    def __init__(self, node: cst.For, arithmetic: Callable[[cst.Call], bool]):
        self.var = node.target.value if isinstance(node.target, cst.Name) else None
        args = [a.value for a in node.iter.args] if isinstance(node.iter, cst.Call) and isinstance(
            node.iter.func, cst.Name) and node.iter.func.value == "range" else []
        self.start: cst.BaseExpression = cst.Integer("0")
        self.last: cst.BaseExpression | None = None
        self.nonempty: cst.BaseExpression | None = None
        if 1 <= len(args) <= 2 or len(args) == 3 and _step(args[2]) is not None:
            self.start = args[0] if len(args) > 1 else self.start
            stop = args[1] if len(args) > 1 else args[0]
            if len(args) == 3:  # first + (count - 1) * step
                count = cst.Call(cst.Name("len"), [cst.Arg(node.iter)])
                self.nonempty = cst.Comparison(cst.Integer("0"), [cst.ComparisonTarget(cst.LessThan(), count)])
                steps = cst.BinaryOperation(count, cst.Subtract(), cst.Integer("1"), lpar=[cst.LeftParen()],
                                            rpar=[cst.RightParen()])
                self.last = cst.BinaryOperation(paren(self.start), cst.Add(),
                                                cst.BinaryOperation(steps, cst.Multiply(), paren(args[2])))
            else:
                self.nonempty = cst.Comparison(self.start, [cst.ComparisonTarget(cst.LessThan(), stop)])
                self.last = cst.BinaryOperation(paren(stop), cst.Subtract(), cst.Integer("1"))
        self.stop = args[-1] if len(args) in (1, 2) else None  # what a loop over an array's own axis stops at
        simple = self.var is not None and 1 <= len(args) <= 3 and all(_simple(a, arithmetic) for a in args)
        self.range: tuple[cst.BaseExpression, cst.BaseExpression, cst.BaseExpression] | None = None
        if simple:  # (start, stop, step), evaluated again before the loop by lower/indirect.py's test
            self.range = (args[0] if len(args) > 1 else cst.Integer("0"), args[1] if len(args) > 1 else args[0],
                          args[2] if len(args) == 3 else cst.Integer("1"))
        self.assigned = assigned_names(node.body)
        self.plain = self.var is not None and self.last is not None and all(_simple(a, arithmetic) for a in args) \
            and not _exits(node.body)
        self.body = {id(s) for s in node.body.body}
        self.tests: list[cst.BaseExpression] = []  # outside(first, last, n) per hoisted index: run the checked copy
        self.fast: set[int] = set()  # the hoisted indices' checks (by identity), dropped in the fast copy
        self.hoisted: list[cst.BaseStatement] = []  # without copies (CUDA): the checks of both ends, before it
        self.stores: list[cst.BaseStatement] = []  # the checks of an assignment's targets, after its value's
        self.indirect: list[tuple[cst.Name, cst.BaseExpression, int]] = []  # (idx, array, axis) of `a[idx[v]]`
        self.unchecked: set[int] = set()  # their checks (by identity), dropped in the loop's unchecked copy
        self.node = node
        self.writes: list[cst.Name] | None = None  # lower/indirect.py's written_arrays, once needed


def _step(node: cst.BaseExpression) -> int | None:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _step(node.expression)
        return -inner if inner is not None else None
    return int(node.value) or None if isinstance(node, cst.Integer) else None


def _simple(node: cst.BaseExpression, arithmetic: Callable[[cst.Call], bool]) -> bool:
    """Pure and cheap to evaluate again before the loop: names, literals, arithmetic, shapes, len()."""
    if isinstance(node, cst.Name | cst.Integer):
        return True
    if isinstance(node, cst.UnaryOperation):
        return _simple(node.expression, arithmetic)
    if isinstance(node, cst.BinaryOperation):
        return _simple(node.left, arithmetic) and _simple(node.right, arithmetic)
    if isinstance(node, cst.Attribute):
        return isinstance(node.value, cst.Name)
    if isinstance(node, cst.Subscript):
        return isinstance(node.value, cst.Attribute | cst.Name | cst.Tuple) and len(node.slice) == 1 \
            and isinstance(node.slice[0].slice, cst.Index) and isinstance(node.slice[0].slice.value, cst.Integer)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len":
        return len(node.args) == 1 and isinstance(node.args[0].value, cst.Name)
    if isinstance(node, cst.Call) and arithmetic(node):  # lower/overflow.py's: it raises in range() first
        return all(a.keyword is None and _simple(a.value, arithmetic) for a in node.args)
    return isinstance(node, cst.Tuple) and all(_simple(e.value, arithmetic) for e in node.elements)


def _exits(body: cst.CSTNode) -> bool:
    return contains(body, cst.Break, cst.Continue, cst.Return, cst.Raise, nested=False)


def paren(node: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, cst.Name | cst.Integer | cst.Subscript | cst.Call | cst.Attribute):
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
