"""Where a statement may raise, as conditions that can be tested before it runs.

Numba loses exceptions raised inside a parallel loop (an integer `//` by zero gives 0 there, a raising helper
gives "SystemError: … returned a result with an exception set"). So a parallel loop tests each condition under
which a statement would raise *before* the statement, records an error code instead of raising, and the code
after the loop raises what Python would have raised (codegen/parallel.py). A raise that cannot be expressed as
such a condition (a helper that may raise, an opaque library call) is `Opaque`: that loop stays serial.

    out[i] = a[i] // d        →  Check(d == 0, ZeroDivisionError, "integer division or modulo by zero")
    m = np.max(row)           →  Check(row.size == 0, ValueError, "zero-size array to reduction operation …")
    assert x > 0, "positive"  →  Check(not (x > 0), AssertionError, "positive")

Conditions re-evaluate parts of the statement, so those parts must be pure (reads and pure library calls);
short-circuit operators and ternaries guard the checks of the parts they may skip.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from ..frontend.walk import walk
from ..library import numpy as library
from ..normalize.names import bound_names
from ..normalize.origins import origin_of
from .effects import Calls
from .uses import calls_in


@dataclasses.dataclass(frozen=True)
class Check:
    condition: cst.BaseExpression  # true when the statement would raise
    exception: str  # the builtin exception's name
    message: str
    line: int | None
    # A message that depends on values (a bounds check's index and size): they are recorded with the error,
    # and `raiser` called again with them in place of its first two arguments raises Python's exception.
    values: tuple[cst.BaseExpression, cst.BaseExpression] | None = None
    raiser: cst.Call | None = None  # the checking call, which `unchecked` replaces once the condition is false
    unchecked: cst.BaseExpression | None = None
    raised: cst.BaseExpression | None = None  # a user's `raise`: the exception as written (literal arguments)

    def error(self) -> cst.BaseExpression:
        """The exception to raise once the loop is over."""
        if self.raised is not None:
            return self.raised
        return cst.Call(cst.Name(self.exception), [cst.Arg(cst.SimpleString(repr(self.message)))])


class Opaque(Exception):
    """A statement may raise in a way no condition before it can tell; the message says why."""


_DIVISIONS: dict[type, str] = {
    cst.FloorDivide: "integer division or modulo by zero",
    cst.Modulo: "integer modulo by zero",
    cst.Divide: "division by zero",
    cst.FloorDivideAssign: "integer division or modulo by zero",
    cst.ModuloAssign: "integer modulo by zero",
    cst.DivideAssign: "division by zero",
}
_NONNEGATIVE_CALLS = frozenset({"len"})
_BOUNDS = "cuvil.runtime.checks.index"
_FITS = "cuvil.runtime.library_checks.fits_into"
_DIMS = "cuvil.runtime.library_checks.nonnegative_dims"  # lower/library_raises.py: `view = value` broadcasts
SECOND = "__b__"  # a Check's `unchecked`: the checking call's second argument as it stands
_INT_MESSAGE = ("int64 overflow: Python would give an int wider than 64 bits here; compute in float, or pass "
                "overflow=\"wrap\" to cuvil.jit for Numba's wrap-around")  # runtime/pyint.py's MESSAGE


def _nonzero_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus | cst.Plus):
        return _nonzero_literal(node.expression)
    if isinstance(node, cst.Integer | cst.Float):
        return float(node.evaluated_value) != 0.0
    return False


def _and(guard: cst.BaseExpression | None, condition: cst.BaseExpression) -> cst.BaseExpression:
    if guard is None:
        return condition
    return cst.BooleanOperation(_paren(guard), cst.And(), _paren(condition))


def _paren(node: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, cst.Name | cst.Integer | cst.Float | cst.Subscript | cst.Call | cst.Attribute):
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _not(node: cst.BaseExpression) -> cst.BaseExpression:
    return cst.UnaryOperation(cst.Not(), _paren(node))


class _Checks:
    def __init__(self, calls: Calls, line: int | None):
        self.calls, self.line = calls, line
        self.found: list[Check] = []

    def add(self, guard: cst.BaseExpression | None, condition: cst.BaseExpression, exception: str,
            message: str) -> None:
        self.found.append(Check(_and(guard, condition), exception, message, self.line))

    def pure(self, node: cst.BaseExpression, what: str) -> None:
        """`node` is evaluated again by a check: it must not call anything with an effect. A checked call
        (bounds, int, math) may appear: its own check comes first in the chain, so it cannot raise here."""
        for call in calls_in(node):
            effect = self.calls.effect(call)
            checked = effect.raises in ("int", "domain", "division", "span") or (effect.name == _BOUNDS)
            if effect.writes or (effect.raises and not checked) or effect.ordered:
                raise Opaque(f"{what} calls {effect.name}")

    def expr(self, node: cst.BaseExpression, guard: cst.BaseExpression | None) -> None:
        if isinstance(node, cst.BooleanOperation):
            self.expr(node.left, guard)
            skip = node.left if isinstance(node.operator, cst.And) else _not(node.left)
            self.pure(node.left, "a short-circuit operand")
            self.expr(node.right, _and(guard, skip))
        elif isinstance(node, cst.IfExp):
            self.expr(node.test, guard)
            self.pure(node.test, "a conditional expression's test")
            self.expr(node.body, _and(guard, node.test))
            self.expr(node.orelse, _and(guard, _not(node.test)))
        elif isinstance(node, cst.BinaryOperation):
            self.expr(node.left, guard)
            self.expr(node.right, guard)
            self.division(node.operator, node.right, guard)
        elif isinstance(node, cst.Call):
            self.call(node, guard)
        else:
            children = list(node.children)
            if isinstance(node, cst.Subscript):  # an index raises only through lower/checks.py's index()
                children = [node.value] + [c for part in node.slice for c in part.slice.children]
            for child in children:
                self.within(child, guard)

    def within(self, node: cst.CSTNode, guard: cst.BaseExpression | None) -> None:
        """The expressions in a part that is not one itself (a tuple's element, a comparison's operand)."""
        if isinstance(node, cst.BaseExpression):
            self.expr(node, guard)
        else:
            for child in node.children:
                self.within(child, guard)

    def division(self, operator: cst.CSTNode, divisor: cst.BaseExpression, guard: cst.BaseExpression | None) -> None:
        message = _DIVISIONS.get(type(operator))
        if message is None or _nonzero_literal(divisor):
            return
        self.pure(divisor, "a divisor")
        self.add(guard, cst.Comparison(_paren(divisor), [cst.ComparisonTarget(cst.Equal(), cst.Integer("0"))]),
                 "ZeroDivisionError", message)

    def call(self, node: cst.Call, guard: cst.BaseExpression | None) -> None:
        if isinstance(node.func, cst.Attribute):
            self.expr(node.func.value, guard)
        for arg in node.args:
            self.expr(arg.value, guard)
        effect = self.calls.effect(node)
        if effect.raises is None:
            return
        positional = [a for a in node.args if a.keyword is None]  # not `at=<line>` (lower/located.py)
        if effect.name == _BOUNDS and len(positional) == 3:  # lower/checks.py's index(i, n, axis)
            index, size = positional[0].value, positional[1].value
            self.pure(index, "an index")
            outside = cst.BooleanOperation(
                cst.Comparison(_paren(index), [cst.ComparisonTarget(cst.LessThan(), cst.UnaryOperation(
                    cst.Minus(), _paren(size)))]), cst.Or(),
                cst.Comparison(_paren(index), [cst.ComparisonTarget(cst.GreaterThanEqual(), _paren(size))]))
            self.found.append(Check(_and(guard, outside), "IndexError", "", self.line, (index, size), node, index))
            return
        if effect.name == _FITS and len(positional) == 2 and not any(
                isinstance(a.value, cst.Attribute) for a in positional):  # fits_into(length, length): 1-D
            target, value = positional[0].value, positional[1].value
            self.pure(target, "a length")
            self.pure(value, "a length")
            misfit = cst.BooleanOperation(
                cst.Comparison(_paren(value), [cst.ComparisonTarget(cst.NotEqual(), cst.Integer("1"))]), cst.And(),
                cst.Comparison(_paren(value), [cst.ComparisonTarget(cst.NotEqual(), _paren(target))]))
            self.found.append(Check(_and(guard, misfit), "ValueError", "", self.line, (target, value), node, None))
            return
        if effect.raises == "int":  # runtime/pyint.py: Python's int arithmetic
            operands = [a.value for a in positional]
            for operand in operands:
                self.pure(operand, "an int operand")
            plain = library.OVERFLOWS[effect.name.rsplit(".", 1)[1]]
            names = dict(zip("ab", ("__a__", "__b__")))
            unchecked = _put(cst.parse_expression(plain.format(**names)),
                             {names[k]: _paren(o) for k, o in zip("ab", operands)})
            test = node.with_changes(args=[*positional, cst.Arg(cst.Name("True"))])  # add(a, b, True): overflows?
            self.found.append(Check(_and(guard, test), "OverflowError", _INT_MESSAGE, self.line, None, node,
                                    unchecked.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])))
            return
        if effect.raises == "span" and len(positional) == 2:  # runtime/pyint.range_stop: a range's stop
            start, stop = (a.value for a in positional)
            self.pure(start, "a range's start")
            self.pure(stop, "a range's stop")
            names = {"a": "__a__", "b": "__b__"}
            wide = _put(cst.parse_expression(library.SPANS[effect.name.rsplit(".", 1)[1]].format(**names)),
                        {"__a__": _paren(start), "__b__": _paren(stop)})
            self.found.append(Check(_and(guard, wide), "OverflowError", library.SPAN_MESSAGE, self.line, None, node,
                                    cst.Name(SECOND)))  # once tested, range_stop(a, b) is its b
            return
        if effect.raises == "division" and len(positional) == 2:  # runtime/pyint.py: CPython's ZeroDivisionError
            message, plain = library.DIVISIONS[effect.name.rsplit(".", 1)[1]]
            divisor = positional[1].value
            self.pure(divisor, "a divisor")
            names = dict(zip("ab", ("__a__", "__b__")))
            unchecked = _put(cst.parse_expression(plain.format(**names)),
                             {names[k]: _paren(a.value) for k, a in zip("ab", positional)})
            if not isinstance(unchecked, cst.BinaryOperation):  # divmod(): no operator to run unchecked
                raise Opaque(f"{effect.name} may raise")
            zero = cst.Comparison(_paren(divisor), [cst.ComparisonTarget(cst.Equal(), cst.Integer("0"))])
            self.found.append(Check(_and(guard, zero), "ZeroDivisionError", message, self.line, None, node,
                                    unchecked.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])))
            return
        if effect.raises == "domain" and len(positional) == 1:  # runtime/pymath.py: CPython's math errors
            self.pure(positional[0].value, "a math function's argument")
            for exception, message, when in library.DOMAINS[effect.name.rsplit(".", 1)[1]]:  # disjoint
                condition = _put(cst.parse_expression(when.format(x="__x__")), {"__x__": _paren(positional[0].value)})
                self.add(guard, condition, exception, message)
            return
        if effect.raises == "empty" and effect.args:
            array = effect.args[0]
            self.pure(array, "a reduction's argument")
            size = cst.Attribute(_paren(array), cst.Name("size"))
            self.add(guard, cst.Comparison(size, [cst.ComparisonTarget(cst.Equal(), cst.Integer("0"))]),
                     "ValueError", _empty_message(effect.name))
        elif effect.raises == "dims" and effect.args and _known_nonnegative(effect.args[0], self.calls.lengths):
            return
        elif effect.raises == "dims" and effect.args and isinstance(effect.args[0], cst.Tuple):
            # `np.empty((_d0, 3))`, lower/library_raises.py's `nonnegative_dims((m, 2))`: each dim that may be
            # negative is tested (the check helper itself is then left out of the loop)
            raiser = node if effect.name == _DIMS else None
            for element in effect.args[0].elements:
                if not _known_nonnegative(element.value, self.calls.lengths):
                    self.pure(element.value, "a dim")
                    negative = cst.ComparisonTarget(cst.LessThan(), cst.Integer("0"))
                    self.found.append(Check(_and(guard, cst.Comparison(_paren(element.value), [negative])),
                                            "ValueError", "negative dimensions are not allowed", self.line,
                                            raiser=raiser))
        elif effect.raises == "opaque":
            raise Opaque(f"{library.shown(effect.name)} may raise")
        elif effect.raises in library.RAISES:
            raise Opaque(f"{library.shown(effect.name)}: {library.RAISES[effect.raises]}")
        else:
            raise Opaque(f"{library.shown(effect.name)} may raise ({effect.raises})")


class _Put(cst.CSTTransformer):
    def __init__(self, values: dict[str, cst.BaseExpression]):
        super().__init__()
        self.values = values

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return self.values.get(updated.value, updated)


def _put(template: cst.BaseExpression, values: dict[str, cst.BaseExpression]) -> cst.BaseExpression:
    """`template` with its placeholder names replaced by expressions."""
    out = template.visit(_Put(values))
    assert isinstance(out, cst.BaseExpression)
    return out


def _empty_message(name: str) -> str:
    """NumPy's words for a reduction without identity of an empty array (`numpy.max`, `.argmin`, `numpy.nanmax`)."""
    short = name.rsplit(".", 1)[-1]
    if short.startswith(("argmax", "argmin", "nanarg")):
        return f"attempt to get {short.replace('nan', '')} of an empty sequence"
    ufunc = {"max": "maximum", "amax": "maximum", "min": "minimum", "amin": "minimum", "nanmax": "fmax",
             "nanmin": "fmin"}.get(short, short)
    return f"zero-size array to reduction operation {ufunc} which has no identity"


def _known_nonnegative(shape: cst.BaseExpression, lengths: frozenset[str] = frozenset()) -> bool:
    """An allocation's shape that cannot hold a negative dim: literals, lengths, shapes of arrays, and `lengths`,
    names that only ever hold one of those (the lowering's `_d0 = row.shape[0]`)."""
    if isinstance(shape, cst.Tuple):
        return all(_known_nonnegative(e.value, lengths) for e in shape.elements)
    if isinstance(shape, cst.Integer) or (isinstance(shape, cst.Name) and shape.value in lengths):
        return True
    if isinstance(shape, cst.Call) and isinstance(shape.func, cst.Name) and shape.func.value in _NONNEGATIVE_CALLS:
        return True
    if isinstance(shape, cst.Attribute) and shape.attr.value in ("shape", "size"):
        return True
    return isinstance(shape, cst.Subscript) and isinstance(shape.value, cst.Attribute) \
        and shape.value.attr.value == "shape"


def lengths(fn: cst.FunctionDef) -> frozenset[str]:
    """The names of `fn` every binding of which is a plain `name = <a length>` (of a known length or of
    such a name): they are never negative."""
    values: dict[str, list[cst.BaseExpression]] = {}
    other: set[str] = {p.name.value for p in fn.params.params}

    class Bindings(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name) and len(node.targets) == 1:
                    values.setdefault(target.target.value, []).append(node.value)
                else:
                    other.update(bound_names(target.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            other.update(bound_names(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            other.update(bound_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            other.update(bound_names(node.target))

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            other.update(bound_names(node.target))

    walk(fn.body, Bindings())
    known: frozenset[str] = frozenset()
    while True:  # to a fixed point: `_d5 = _d0` once `_d0` is known
        found = frozenset(name for name, assigned in values.items() if name not in other
                          and all(_known_nonnegative(v, known) and not isinstance(v, cst.Tuple) for v in assigned))
        if found == known:
            return known
        known = found


def statement_checks(stmt: cst.BaseStatement, calls: Calls) -> list[Check]:
    """The checks of a simple statement, or of a compound statement's header, in evaluation order; raises
    `Opaque` when the statement may raise in a way no check can tell."""
    checks = _Checks(calls, origin_of(stmt))
    if isinstance(stmt, cst.If | cst.While):
        checks.expr(stmt.test, None)
    elif isinstance(stmt, cst.For):
        checks.expr(stmt.iter, None)
    elif isinstance(stmt, cst.SimpleStatementLine):
        small = stmt.body[0]
        if isinstance(small, cst.Assign):
            checks.expr(small.value, None)
            for target in small.targets:
                _target(checks, target.target)
        elif isinstance(small, cst.AugAssign):
            checks.expr(small.value, None)
            _target(checks, small.target)
            checks.division(small.operator, small.value, None)
        elif isinstance(small, cst.Assert):
            checks.expr(small.test, None)
            checks.pure(small.test, "an assertion")
            message = small.msg.evaluated_value if isinstance(small.msg, cst.SimpleString) else ""
            if small.msg is not None and not isinstance(small.msg, cst.SimpleString):
                raise Opaque("an assertion's message is not a literal string")
            checks.add(None, _not(small.test), "AssertionError", str(message))
        elif isinstance(small, cst.Raise):
            checks.found.append(_user_raise(small, checks.line))
        elif isinstance(small, cst.Expr | cst.Return) and small.value is not None:
            checks.expr(small.value, None)
    return checks.found


def _literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation):
        return _literal(node.expression)
    if isinstance(node, cst.Name):
        return node.value in ("True", "False", "None")
    return isinstance(node, cst.SimpleString | cst.ConcatenatedString | cst.Integer | cst.Float)


def _user_raise(small: cst.Raise, line: int | None) -> Check:
    """`raise E(...)` always fails where it stands (the `if` around it is its condition). Its exception is
    raised again after the loop, so its arguments must be literals: a value computed in the iteration is gone."""
    exc = small.exc
    func = exc.func if isinstance(exc, cst.Call) else exc
    args = exc.args if isinstance(exc, cst.Call) else ()
    literal = all(a.keyword is None and not a.star and _literal(a.value) for a in args)
    if not isinstance(func, cst.Name) or not literal or small.cause is not None:
        raise Opaque("it raises an exception built from values of the iteration")
    first = args[0].value if args else None
    message = first.evaluated_value if isinstance(first, cst.SimpleString) else ""
    return Check(cst.Name("True"), func.value, str(message), line, raised=exc)


def _target(checks: _Checks, target: cst.BaseExpression) -> None:
    if isinstance(target, cst.Tuple | cst.List):
        for element in target.elements:
            _target(checks, element.value)
    elif isinstance(target, cst.Subscript):
        for part in target.slice:
            for child in part.slice.children:
                if isinstance(child, cst.BaseExpression):
                    checks.expr(child, None)
        checks.expr(target.value, None)
