"""Python's int arithmetic (issue 10 §2): `+ - * ** << //`, unary `-` and abs() of Python ints (weak int64 in
analysis/types.py) raise OverflowError when the true result does not fit in int64, where Numba wraps around
silently; int(x) and round(x) of a float raise as Python does for nan (ValueError), infinities and values
beyond int64 (OverflowError), where Numba's conversion gives -2**63 for all of them.

    r *= i                →  r = mul(r, i)             (runtime/pyint.py)
    out[i + 1] = k * n    →  out[i + 1] = mul(k, n)    (i + 1: a loop index plus a small constant, cannot)

NumPy integers (arrays, their elements, np.int32(...)) keep NumPy's wrap-around: only operations whose operands
are all Python ints follow Python. An operation cannot overflow, and is left alone, when both operands are
"bounded": integer literals below 2**61, lengths and shapes (below 2**62 on any machine), and the variables of
range loops over bounded ranges (the lowering's own loops included) that their bodies do not assign.
A counter — a variable only ever set to small literals and stepped by `+= c` or `-= c` with c at most 1024 —
is left alone too: it would need 2**52 steps (months of computing) to leave int64. An index `v ± c` (c a
literal below 2**61) is left alone too when bounds are checked: wrapped around, it is
more than 2**62 from any array's bounds, so its bounds check raises. `overflow="wrap"` on cuvil.jit leaves
everything alone, as Numba does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar
from ..cfg.uses import calls_in
from ..frontend.walk import walk
from ..normalize.names import assigned_names
from .overflow_arms import assignment_pairs, nonnegative, outside_test, pure_test
from .reductions import Intrinsic

MODULE = "cuvil.runtime.pyint"
_PYTHON_INT = Scalar("int64", True)
_PYTHON_BOOL = Scalar("bool", True)
_SMALL = 2**61
_OPERATORS: dict[type, str] = {cst.Add: "add", cst.Subtract: "sub", cst.Multiply: "mul",
                               cst.AddAssign: "add", cst.SubtractAssign: "sub", cst.MultiplyAssign: "mul"}


_SHIFTS: dict[type, str] = {cst.LeftShift: "lshift", cst.FloorDivide: "floordiv", cst.RightShift: "rshift",
                            cst.LeftShiftAssign: "lshift", cst.FloorDivideAssign: "floordiv",
                            cst.RightShiftAssign: "rshift"}
_PY_POW = "cuvil.runtime.intrinsics.py_pow"
_CONVERSIONS = {"int": "to_int", "round": "round_int"}
_ROUNDINGS = {"math.floor": "floor", "math.ceil": "ceil"}  # of a float: rounded as a float, then int()'s checks


class OverflowChecks(cst.CSTTransformer):
    def __init__(self, types: Types, intrinsic: Intrinsic, trusted: set[str], boundscheck: bool,
                 speculate: bool = False, roundings: bool = False, spans: bool = False):
        super().__init__()
        self.spans = spans  # a range whose span may exceed int64 checked before its loop (CPU)
        self.wide_ranges: set[int] = set()  # ids of such loops
        self.types, self.intrinsic, self.boundscheck = types, intrinsic, boundscheck
        self.roundings = roundings  # math.floor/ceil of a float rounded by np.floor (CPU) or pymath's (kernels)
        self.speculate = speculate  # arms' checks tested before the choice (lower/overflow_arms.py): CPU only
        self.nonnegative: set[str] = set()
        self.bounded: list[set[str]] = [set(trusted)]  # per enclosing loop: the names known to be small
        self.indices: set[int] = set()  # ids of the index expressions of array subscripts
        self.counters: set[str] = set()
        self.counts = {"checked": 0, "elided": 0}  # Python-int operations, for cuvil.explain (issue 10 §4)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.counters = _counters(node, lambda value: self.types.of(value) == _PYTHON_BOOL)
        self.nonnegative = nonnegative(node) if self.speculate else set()

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if self.boundscheck and isinstance(self.types.of(node.value), Array):
            self.indices |= {id(e.slice.value) for e in node.slice if isinstance(e.slice, cst.Index)}

    def visit_For(self, node: cst.For) -> None:
        names = set(self.bounded[-1]) - assigned_names(node.body)
        iter_ = node.iter
        if isinstance(node.target, cst.Name) and isinstance(iter_, cst.Call) and isinstance(iter_.func, cst.Name) \
                and iter_.func.value == "range" and all(self._small(a.value, names) for a in iter_.args) \
                and node.target.value not in assigned_names(node.body):
            names.add(node.target.value)
        if self.spans and isinstance(iter_, cst.Call) and isinstance(iter_.func, cst.Name) \
                and iter_.func.value == "range" and len(iter_.args) >= 2 \
                and not all(self._small(a.value, self.bounded[-1]) for a in iter_.args[:2]) \
                and not _counts_up_from_nonnegative(iter_.args) \
                and all(_signed(self.types.of(a.value)) for a in iter_.args[:2]) and not calls_in(iter_.args[0]):
            self.wide_ranges.add(id(node))
        self.bounded.append(names)

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        self.bounded.pop()
        if id(original) not in self.wide_ranges:
            return updated
        # range(a, b, c) -> range(a, range_stop(a, b), c): Numba counts b - a in int64 (a is read twice: no call)
        args = updated.iter.args  # type: ignore[attr-defined]
        stop = cst.Call(cst.Name(self.intrinsic(MODULE, "range_stop")),
                        [cst.Arg(args[0].value), cst.Arg(args[1].value)])
        return updated.with_changes(iter=updated.iter.with_changes(
            args=[args[0], args[1].with_changes(value=stop), *args[2:]]))

    def _small(self, node: cst.BaseExpression, names: set[str] | None = None) -> bool:
        names = self.bounded[-1] if names is None else names
        if isinstance(node, cst.Integer):
            return abs(int(node.evaluated_value)) < _SMALL
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            return self._small(node.expression, names)
        if isinstance(node, cst.Name):
            return node.value in names
        if isinstance(node, cst.Call):  # len(x)
            return isinstance(node.func, cst.Name) and node.func.value == "len" and len(node.args) == 1
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute):  # x.shape[k]
            return node.value.attr.value == "shape"
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Tuple):  # a static shape: (3, 4)[0]
            return all(self._small(e.value, names) for e in node.value.elements)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add | cst.Subtract):
            return self._small(node.left, names) and self._small(node.right, names)
        return False

    def _python_ints(self, *nodes: cst.BaseExpression) -> bool:
        return all(self.types.of(n) == _PYTHON_INT for n in nodes)

    def _python_operands(self, op: str, *nodes: cst.BaseExpression) -> bool:
        """Python ints, or for + and - a Python bool with one (`True + (2**63 - 1)` is an int beyond int64 too);
        an int times a bool is the int or 0, and checking it would cost a parallel loop its broadcast indices
        (`_v[i * _m]`, lower/broadcast's) that Numba's parfor pass must see as plain arithmetic."""
        kinds = [self.types.of(n) for n in nodes]
        if op in ("add", "sub"):
            return all(k in (_PYTHON_INT, _PYTHON_BOOL) for k in kinds) and _PYTHON_INT in kinds
        return all(k == _PYTHON_INT for k in kinds)

    def _call(self, op: str, *operands: cst.BaseExpression) -> cst.Call:
        self.counts["checked"] += 1
        return cst.Call(cst.Name(self.intrinsic(MODULE, op)), [cst.Arg(o) for o in operands])

    def _needs(self, op: str, left: cst.BaseExpression, right: cst.BaseExpression) -> bool:
        if op == "mul":
            return not (isinstance(left, cst.Integer) and isinstance(right, cst.Integer) and
                        abs(int(left.evaluated_value)) < 2**31 and abs(int(right.evaluated_value)) < 2**31)
        return not (self._small(left) and self._small(right))

    def _other(self, op: str, left: cst.BaseExpression, right: cst.BaseExpression) -> bool:
        """`<<`, `>>` and `//` of Python ints that need the check: `//` only overflows for -2**63 // -1, `>>`
        never (its count is checked: Numba's `a >> -3` was 0 and `a >> 64` a)."""
        python = (_PYTHON_INT, _PYTHON_BOOL) if op in ("lshift", "rshift") else (_PYTHON_INT,)  # True << -1 too
        if not all(self.types.of(n) in python for n in (left, right)):
            return False
        if op == "floordiv":
            return not (isinstance(right, cst.Integer) or self._small(left))
        if op == "rshift":  # never overflows: a negative count is Python's ValueError, 64 or more sign-fills
            return not (isinstance(right, cst.Integer) and int(right.evaluated_value) < 64)
        return not (isinstance(left, cst.Integer) and int(left.evaluated_value) == 0)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        name = self.types.calls.effect(original).name
        args = [a.value for a in original.args]
        if any(a.keyword is not None or a.star for a in original.args):
            return updated
        negative_literal = len(args) == 2 and isinstance(args[1], cst.UnaryOperation) \
            and isinstance(args[1].operator, cst.Minus) and isinstance(args[1].expression, cst.Integer)
        if name == _PY_POW and len(args) == 2 and self._python_ints(*args) and not negative_literal:  # k ** -2:
            # a float, which py_pow computes (its type carries the literal)
            return self._call("power", *(a.value for a in updated.args))
        if name == "abs" and len(args) == 1 and self._python_ints(*args) and not self._small(args[0]):
            return self._call("absolute", updated.args[0].value)
        kind = self.types.of(args[0]) if len(args) == 1 else None
        if name in _CONVERSIONS and isinstance(kind, Scalar) and kind.dtype.startswith("float"):
            return self._call(_CONVERSIONS[name], updated.args[0].value)
        if name == "math.trunc" and isinstance(kind, Scalar) and kind.dtype.startswith("float"):  # int()'s
            return self._call("to_int", updated.args[0].value)  # Numba's math.trunc(nan) was -2**63
        if name in _ROUNDINGS and isinstance(kind, Scalar) and kind.dtype.startswith("float"):
            # Numba's math.floor(1e19) wrapped to -2**63 (Python: an int beyond int64, Cuvil's OverflowError)
            how = _ROUNDINGS[name]
            rounding = cst.Attribute(cst.Name(self.intrinsic("numpy", "")), cst.Name(how)) if self.roundings \
                else cst.Name(self.intrinsic("cuvil.runtime.pymath", f"{how}_float"))  # a kernel's (cuda_pymath.py)
            return self._call("to_int", cst.Call(rounding, [cst.Arg(updated.args[0].value)]))
        return updated

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        other = _SHIFTS.get(type(original.operator))
        if other is not None and self._other(other, original.left, original.right):
            return self._call(other, updated.left, updated.right).with_changes(lpar=updated.lpar, rpar=updated.rpar)
        op = _OPERATORS.get(type(original.operator))
        if op is None or not self._python_operands(op, original.left, original.right):
            return updated
        if not self._needs(op, original.left, original.right) or (
                id(original) in self.indices and op in ("add", "sub") and isinstance(original.right, cst.Integer)
                and int(original.right.evaluated_value) < _SMALL):  # an index: its bounds check raises if wrapped
            self.counts["elided"] += 1
            return updated
        return self._call(op, updated.left, updated.right).with_changes(lpar=updated.lpar, rpar=updated.rpar)

    def leave_IfExp(self, original: cst.IfExp, updated: cst.IfExp) -> cst.BaseExpression:
        """A checked arm computed wrapped, its range tested with the condition (lower/overflow_arms.py)."""
        test = self.types.of(original.test)
        if not self.speculate or not (isinstance(test, Scalar) and test.dtype == "bool") \
                or not pure_test(original.test) or not updated.test.deep_equals(original.test):
            return updated
        taken = {"body": _paren(original.test), "orelse": cst.UnaryOperation(cst.Not(), _paren(original.test))}
        tests: list[cst.BaseExpression] = []
        arms = {}
        for field in ("body", "orelse"):
            arm, new = getattr(original, field), getattr(updated, field)
            arms[field] = new
            if not arm.deep_equals(new):
                outside = outside_test(arm, self.types, self.nonnegative)
                if outside is None:
                    return updated
                arms[field] = arm
                tests.append(_paren(cst.BinaryOperation(_paren(taken[field]), cst.BitAnd(), outside)))
        if not tests:
            return updated
        overflows = tests[0] if len(tests) == 1 else cst.BinaryOperation(tests[0], cst.BitOr(), tests[1])
        choice = updated.with_changes(body=arms["body"], orelse=arms["orelse"], lpar=[], rpar=[])
        call = cst.Call(cst.Name(self.intrinsic(MODULE, "arm_checked")), [cst.Arg(choice), cst.Arg(overflows)])
        return call.with_changes(lpar=updated.lpar, rpar=updated.rpar)

    def leave_UnaryOperation(self, original: cst.UnaryOperation,
                             updated: cst.UnaryOperation) -> cst.BaseExpression:
        if not isinstance(original.operator, cst.Minus) or not self._python_ints(original.expression) \
                or self._small(original.expression):
            return updated
        return self._call("neg", updated.expression).with_changes(lpar=updated.lpar, rpar=updated.rpar)

    def _unwrapped(self, original: cst.BaseExpression,
                   updated: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.BaseExpression]:
        """The value of `x op= v` without the in-place helpers compiler.py wraps it in (`inplace_value(x, v)`,
        `pow_exponent(x, v)`), which change nothing for Python ints."""
        if isinstance(original, cst.Call) and isinstance(updated, cst.Call) and len(original.args) == 2 \
                and self.types.calls.effect(original).name.endswith((".inplace_value", ".pow_exponent")):
            return original.args[1].value, updated.args[1].value
        return original, updated

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign) -> cst.BaseSmallStatement:
        if isinstance(original.target, cst.Name):
            value, new = self._unwrapped(original.value, updated.value)
            other = _SHIFTS.get(type(original.operator))
            if other is not None and self._other(other, original.target, value):
                return cst.Assign([cst.AssignTarget(updated.target)], self._call(other, updated.target, new))
            if isinstance(original.operator, cst.PowerAssign) and self._python_ints(original.target, value):
                return cst.Assign([cst.AssignTarget(updated.target)], self._call("power", updated.target, new))
        op = _OPERATORS.get(type(original.operator))
        if op is None or not isinstance(original.target, cst.Name) \
                or not self._python_operands(op, original.target, original.value):
            return updated
        if original.target.value in self.counters or not self._needs(op, original.target, original.value):
            self.counts["elided"] += 1
            return updated
        return cst.Assign([cst.AssignTarget(updated.target)], self._call(op, updated.target, updated.value))


def _paren(e: cst.BaseExpression) -> cst.BaseExpression:
    return e if e.lpar else e.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _counters(fn: cst.FunctionDef, flag: Callable[[cst.BaseExpression], bool]) -> set[str]:
    """Names only ever assigned small integer literals or stepped by a small literal or a Python bool (`+= c`,
    `-= c`, `count += x > 0`): a step of at most 1024 per statement cannot pass int64 in any loop that runs."""
    steps: set[str] = set()
    others: set[str] = set()

    def small(node: cst.BaseExpression, limit: int) -> bool:
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            node = node.expression
        return isinstance(node, cst.Integer) and int(node.evaluated_value) <= limit

    class Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for name, value in assignment_pairs(node):
                if not (isinstance(name, cst.Name) and small(value, _SMALL)):
                    others.update(_names(name))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name):
                stepped = isinstance(node.operator, cst.AddAssign | cst.SubtractAssign) \
                    and (small(node.value, 1024) or flag(node.value))
                (steps if stepped else others).add(node.target.value)

        def visit_For(self, node: cst.For) -> None:
            others.update(_names(node.target))

    walk(fn, Find())
    return steps - others


def _names(target: cst.BaseExpression) -> set[str]:
    """The names an assignment target binds (none for a subscript or an attribute)."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, cst.Tuple | cst.List):
        return {n for e in target.elements for n in _names(e.value)}
    return set()


def _signed(t: object) -> bool:
    return isinstance(t, Scalar) and t.dtype == "int64"


def _counts_up_from_nonnegative(args: Sequence[cst.Arg]) -> bool:
    """`range(1, n)`, `range(0, n, 2)`: a literal start >= 0 and a positive literal step (or none). Its span
    leaves int64 only for a stop below -2**63 + start (an empty range Numba would count as huge): not
    checked, so the common loop keeps its plain header (the Plan, bounds hoisting and prange read it)."""
    start = args[0].value
    step = args[2].value if len(args) > 2 else cst.Integer("1")
    return isinstance(start, cst.Integer) and isinstance(step, cst.Integer) and int(step.evaluated_value) > 0

