"""Checked Python-int arithmetic in one arm of a conditional expression, tested before the choice (CPU target).

A check inside an arm makes the arm a branch: `n // 2 if n % 2 == 0 else mul(3, n) + 1` cannot become a select,
and on data whose parity is random the branch mispredicts every other step (the Collatz search ran at 0.70× of
Numba's unchecked select, measured). When an arm is affine in one Python-int name with literal coefficients, the
values of that name for which none of the arm's operations overflows form one interval, known at compile time;
the arm is computed wrapped, and the choice raises OverflowError when the arm taken was outside it:

    n = n // 2 if n % 2 == 0 else 3 * n + 1
      →  n = arm_checked(n // 2 if n % 2 == 0 else 3 * n + 1, (not n % 2 == 0) & (n > 3074457345618258602))

Where every assignment keeps a name non-negative (`nonnegative`), one comparison is enough. The raise happens
exactly when the checked arm would have raised: the interval is the exact set of values whose every operation fits.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import Scalar
from ..frontend.walk import walk

_PYTHON_INT = Scalar("int64", True)
_MIN, _MAX = -(2**63), 2**63 - 1
Affine = tuple[int, int]  # (a, b): the value a * x + b


def outside_test(arm: cst.BaseExpression, types: Types, nonnegative: set[str]) -> cst.BaseExpression | None:
    """The condition under which some Python-int operation of `arm` does not fit in int64; None when the arm is
    not affine in one name (or cannot fit at all)."""
    names: set[str] = set()
    bounds: list[Affine] = []
    if _affine(arm, types, names, bounds) is None or len(names) != 1:
        return None
    (name,) = names
    lo, hi = _MIN, _MAX
    for a, b in bounds:
        if a == 0:
            if not _MIN <= b <= _MAX:
                return None
            continue
        low, high = -((b - _MIN) // a), (_MAX - b) // a  # ceil((MIN - b) / a), floor((MAX - b) / a) for a > 0
        if a < 0:
            low, high = -((_MAX - b) // -a), (b - _MIN) // -a
        lo, hi = max(lo, low), min(hi, high)
    if lo > hi:
        return None
    x = cst.Name(name)
    above = _paren(cst.Comparison(x, [cst.ComparisonTarget(cst.GreaterThan(), _integer(hi))]))
    if name in nonnegative and lo <= 0:
        return above
    below = _paren(cst.Comparison(x, [cst.ComparisonTarget(cst.LessThan(), _integer(lo))]))
    return _paren(cst.BinaryOperation(below, cst.BitOr(), above))


def _integer(v: int) -> cst.BaseExpression:
    return cst.Integer(str(v)) if v >= 0 else cst.UnaryOperation(cst.Minus(), cst.Integer(str(-v)))


def _paren(e: cst.BaseExpression) -> cst.BaseExpression:
    return e.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _affine(node: cst.BaseExpression, types: Types, names: set[str], bounds: list[Affine]) -> Affine | None:
    """`node` as a * x + b, every operation's result appended to `bounds`; None for anything else."""
    if types.of(node) != _PYTHON_INT:
        return None
    if isinstance(node, cst.Integer):
        return 0, int(node.evaluated_value)
    if isinstance(node, cst.Name):
        names.add(node.value)
        return 1, 0
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _affine(node.expression, types, names, bounds)
        if inner is None:
            return None
        out = (-inner[0], -inner[1])
    elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add | cst.Subtract | cst.Multiply):
        left = _affine(node.left, types, names, bounds)
        right = _affine(node.right, types, names, bounds) if left is not None else None
        if left is None or right is None:
            return None
        if isinstance(node.operator, cst.Multiply):
            if left[0] and right[0]:
                return None  # x * x: not affine
            out = (left[0] * right[1] + right[0] * left[1], left[1] * right[1])
        else:
            sign = 1 if isinstance(node.operator, cst.Add) else -1
            out = (left[0] + sign * right[0], left[1] + sign * right[1])
    else:
        return None
    bounds.append(out)
    return out


def pure_test(node: cst.BaseExpression) -> bool:
    """A condition that can be evaluated twice: names, literals, arithmetic and comparisons, no calls."""
    if isinstance(node, cst.Name | cst.Integer | cst.Float):
        return True
    if isinstance(node, cst.UnaryOperation):
        return pure_test(node.expression)
    if isinstance(node, cst.BinaryOperation | cst.BooleanOperation):
        return pure_test(node.left) and pure_test(node.right)
    if isinstance(node, cst.Comparison):
        return pure_test(node.left) and all(pure_test(c.comparator) for c in node.comparisons)
    return False


def nonnegative(fn: cst.FunctionDef) -> set[str]:
    """Names never negative: every assignment gives a value non-negative when these names are (the largest
    such set; parameters and names bound any other way are left out). A checked operation's value is Python's,
    so `3 * n + 1` of a non-negative n is non-negative too (or raised)."""
    found: list[tuple[str, cst.BaseExpression | None]] = []  # None: a value this analysis does not follow

    class Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for name, value in assignment_pairs(node):
                _bind(name, value)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name):
                op = _AUGMENTED.get(type(node.operator))
                found.append((node.target.value, None if op is None else
                              cst.BinaryOperation(node.target, op, node.value)))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            _bind(node.target, node.value)

        def visit_For(self, node: cst.For) -> None:
            it = node.iter
            start: cst.BaseExpression = cst.Integer("0")
            if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range" \
                    and 1 <= len(it.args) <= 3 and not any(a.keyword or a.star for a in it.args):
                step = it.args[2].value if len(it.args) == 3 else cst.Integer("1")
                positive = isinstance(step, cst.Integer) and int(step.evaluated_value) > 0
                start = it.args[0].value if len(it.args) >= 2 else start
                _bind(node.target, start if positive else None)
            else:
                _bind(node.target, None)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            _bind(node.target, node.value)

    def _bind(target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Name):
            found.append((target.value, value))
        elif isinstance(target, cst.Tuple | cst.List):
            for e in target.elements:
                _bind(e.value, None)

    walk(fn.body, Find())
    params = {p.name.value for p in fn.params.params}
    known = {name for name, _ in found} - params
    changed = True
    while changed:
        changed = False
        for name, value in found:
            if name in known and (value is None or not _nonnegative(value, known)):
                known.discard(name)
                changed = True
    return known


_AUGMENTED: dict[type, cst.BaseBinaryOp] = {cst.AddAssign: cst.Add(), cst.MultiplyAssign: cst.Multiply(),
                                            cst.FloorDivideAssign: cst.FloorDivide(), cst.ModuloAssign: cst.Modulo(),
                                            cst.RightShiftAssign: cst.RightShift()}


def _nonnegative(node: cst.BaseExpression, known: set[str]) -> bool:
    if isinstance(node, cst.Integer):
        return True
    if isinstance(node, cst.Name):
        return node.value in known
    if isinstance(node, cst.BinaryOperation):
        if isinstance(node.operator, cst.Modulo):  # Python's % takes the divisor's sign
            return _nonnegative(node.right, known)
        if isinstance(node.operator, cst.Add | cst.Multiply | cst.FloorDivide | cst.RightShift):
            return _nonnegative(node.left, known) and _nonnegative(node.right, known)
        return False
    if isinstance(node, cst.IfExp):
        return _nonnegative(node.body, known) and _nonnegative(node.orelse, known)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
        return node.func.value == "len" and len(node.args) == 1
    return False


def assignment_pairs(node: cst.Assign) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(target, value) per name an assignment binds: `a, b = x, y` pairs a with x and b with y; any other
    target is paired with the whole value."""
    pairs = []
    for target in node.targets:
        left, right = target.target, node.value
        if isinstance(left, cst.Tuple) and isinstance(right, cst.Tuple) and len(left.elements) == len(right.elements):
            pairs += [(e.value, v.value) for e, v in zip(left.elements, right.elements)]
        else:
            pairs.append((left, right))
    return pairs
