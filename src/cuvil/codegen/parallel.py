"""A parallel loop as Numba source: a `numba.prange` loop, with what its dependence decision relies on.

    for i in range(n - 1, -1, -1):          _n0 = len(range(n - 1, -1, -1))  # L5
        out[i] = a[i] // d[i]               _errs0 = error_slots()  # L5
    return i                                if overlaps(out, a) or overlaps(out, d) or self_overlaps(out):  # L5
                                                for i in range(n - 1, -1, -1):  # L5     (the loop as written)
                                                    out[i] = a[i] // d[i]  # L6
                                            else:
                                                for _k0 in numba.prange(_n0):  # L5
                                                    _i0 = n - 1 + _k0 * -1  # L5
                                                    _ok0 = True  # L5
                                                    if d[_i0] == 0:  # L6
                                                        record_error(_errs0, _k0, 1)  # L6
                                                        _ok0 = False  # L6
                                                    else:
                                                        out[_i0] = a[_i0] // d[_i0]  # L6
                                                _e0 = first_error(_errs0)  # L5
                                                if _e0 == 1:  # L6
                                                    raise ZeroDivisionError("integer division or modulo by zero")
                                                if _n0 > 0:  # L5
                                                    i = n - 1 + (_n0 - 1) * -1  # L5
                                            return i

The serial twin runs when run time shows what the analysis had to assume false (arguments that overlap, an
index that would be negative). The index gets a fresh name inside the parallel loop and Python's last value
after it (a thread's own last index is not Python's). Statements that may raise test the condition first and
record the iteration and an error code (per thread); the first failing iteration's exception is raised after
the loop, as Python raises at the first; what the other iterations wrote by then is unspecified.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import libcst as cst

from ..cfg.dependence import LoopDecision
from ..cfg.raising import SECOND, Check
from ..frontend.walk import walk
from ..normalize.names import Fresh, Rename, assigned_names
from ..normalize.origins import origin_of, with_origin
from .parfor_index import distinct_index_copies

Stmts = list[cst.BaseStatement]


def _line(small: cst.BaseSmallStatement, line: int | None) -> cst.SimpleStatementLine:
    return with_origin(cst.SimpleStatementLine([small]), line)


def _assign(name: str, value: cst.BaseExpression, line: int | None) -> cst.SimpleStatementLine:
    return _line(cst.Assign([cst.AssignTarget(cst.Name(name))], value), line)


def _call(func: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name(func), [cst.Arg(a) for a in args])


def _if(test: cst.BaseExpression, body: Stmts, line: int | None, orelse: Stmts | None = None) -> cst.If:
    other = cst.Else(cst.IndentedBlock(orelse)) if orelse else None
    return with_origin(cst.If(test, cst.IndentedBlock(body), orelse=other), line)


def _any(tests: Sequence[cst.BaseExpression]) -> cst.BaseExpression:
    out = tests[0]
    for test in tests[1:]:
        out = cst.BooleanOperation(out, cst.Or(), test)
    return out


def _simple(node: cst.BaseExpression) -> bool:
    """Evaluating it again gives the same value at no cost: a name, a literal, `len(name)`."""
    if isinstance(node, cst.UnaryOperation):
        return _simple(node.expression)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len":
        return len(node.args) == 1 and isinstance(node.args[0].value, cst.Name)
    return isinstance(node, cst.Name | cst.Integer)


def _binary(left: cst.BaseExpression, op: cst.BaseBinaryOp, right: cst.BaseExpression) -> cst.BinaryOperation:
    def paren(e: cst.BaseExpression) -> cst.BaseExpression:
        return e if isinstance(e, cst.Name | cst.Integer | cst.Call) else e.with_changes(
            lpar=[cst.LeftParen()], rpar=[cst.RightParen()])

    return cst.BinaryOperation(paren(left), op, paren(right))


# A reduction's partial per iteration starts from its operator's identity, in the variable's dtype; `-=` partials
# are combined with `+=` (s - e1 - e2 = s + (0 - e1 - e2))
_IDENTITY = {cst.AddAssign: 0, cst.SubtractAssign: 0, cst.MultiplyAssign: 1}
_COMBINE = {cst.AddAssign: cst.AddAssign, cst.SubtractAssign: cst.AddAssign, cst.MultiplyAssign: cst.MultiplyAssign}
_LITERAL_DTYPES = {"int64": "{}", "float64": "{}.0", "complex128": "{}+0j"}  # a Python literal is this dtype


def _identity(operator: type[cst.BaseAugOp], dtype: str) -> cst.BaseExpression | None:
    value = _IDENTITY[operator]
    if dtype in _LITERAL_DTYPES:
        return cst.parse_expression(_LITERAL_DTYPES[dtype].format(value))
    if dtype in ("int8", "int16", "int32", "uint8", "uint16", "uint32", "uint64", "float32", "complex64"):
        return cst.parse_expression(f"np.{dtype}({value})")
    return None


class _Partials(cst.CSTTransformer):
    """`s op= e` → `_p op= e` for the reductions being privatized."""

    def __init__(self, names: dict[str, str]):
        super().__init__()
        self.names = names

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign) -> cst.AugAssign:
        if isinstance(updated.target, cst.Name) and updated.target.value in self.names:
            return updated.with_changes(target=cst.Name(self.names[updated.target.value]))
        return updated


def _nested_update(body: Sequence[cst.BaseStatement], name: str) -> type[cst.BaseAugOp] | None:
    """The operator of `name`'s updates when one of them is not a statement of `body` itself."""
    top = {id(s.body[0]) for s in body if isinstance(s, cst.SimpleStatementLine)}
    found: list[cst.AugAssign] = []

    class Find(cst.CSTVisitor):
        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name) and node.target.value == name:
                found.append(node)

    for stmt in body:
        walk(stmt, Find())
    if not found or all(id(u) in top for u in found) or type(found[0].operator) not in _IDENTITY:
        return None
    return type(found[0].operator)


class _Printer:
    def __init__(self, loop: cst.For, decision: LoopDecision, fresh: Fresh, intrinsic: Callable[[str], str],
                 dtypes: dict[str, str] | None = None, parfor: bool = False):
        self.loop, self.decision, self.fresh, self.intrinsic = loop, decision, fresh, intrinsic
        self.dtypes = dtypes or {}
        self.parfor = parfor
        self.line = origin_of(loop)
        assert isinstance(loop.target, cst.Name) and isinstance(loop.iter, cst.Call)
        self.var = loop.target.value
        self.codes: list[Check] = []
        self.errs = self.fresh("_errs") if decision.checks else ""
        self.ok = self.fresh("_ok") if decision.checks else ""

    def statements(self) -> Stmts:
        line, d = self.line, self.decision
        prologue: Stmts = []
        args = [a.value for a in self.loop.iter.args]  # type: ignore[attr-defined]
        bound = []
        for arg in args:  # evaluated once, as range() evaluates them
            if _simple(arg):
                bound.append(arg)
            else:
                name = self.fresh("_r")
                prologue.append(_assign(name, arg, line))
                bound.append(cst.Name(name))
        start, stop, step = (bound[0], bound[1], bound[2] if len(bound) == 3 else None) if len(bound) > 1 \
            else (None, bound[0], None)
        trivial = start is None and step is None and not d.last_value
        count: cst.BaseExpression = stop
        if not trivial:
            n = self.fresh("_n")
            prologue.append(_assign(n, _call("len", cst.Call(cst.Name("range"), [cst.Arg(b) for b in bound])),
                                    line))
            count = cst.Name(n)
        parallel = self.parallel_loop(trivial, count, start, step)
        if self.errs:
            parallel.insert(0, _assign(self.errs, _call(self.intrinsic("error_slots")), line))
        guards: list[cst.BaseExpression] = [
            _call(self.intrinsic("overlaps"), cst.Name(a), cst.Name(b)) for a, b in d.overlap]
        guards += [_call(self.intrinsic("self_overlaps"), cst.Name(a)) for a in d.self_overlap]
        if not d.nonnegative:
            guards.append(self.negative_index(count, start, step))
        if not guards:
            return prologue + parallel
        return [*prologue, _if(_any(guards), [self.loop], line, parallel)]

    def index(self, k: cst.BaseExpression, start: cst.BaseExpression | None,
              step: cst.BaseExpression | None) -> cst.BaseExpression:
        value = k if step is None else _binary(k, cst.Multiply(), step)
        return value if start is None else _binary(start, cst.Add(), value)

    def negative_index(self, count: cst.BaseExpression, start: cst.BaseExpression | None,
                       step: cst.BaseExpression | None) -> cst.BaseExpression:
        """True when some iteration's index is negative: the smaller of the first and the last."""
        first = start if start is not None else cst.Integer("0")
        last = self.index(_binary(count, cst.Subtract(), cst.Integer("1")), start, step)
        lowest = _call("min", first, last)
        below = cst.Comparison(lowest, [cst.ComparisonTarget(cst.LessThan(), cst.Integer("0"))])
        some = cst.Comparison(count, [cst.ComparisonTarget(cst.GreaterThan(), cst.Integer("0"))])
        return cst.BooleanOperation(some, cst.And(), below)

    def parallel_loop(self, trivial: bool, count: cst.BaseExpression, start: cst.BaseExpression | None,
                      step: cst.BaseExpression | None) -> Stmts:
        line, d = self.line, self.decision
        assert isinstance(self.loop.body, cst.IndentedBlock)
        guarded, _ = self.guard(self.loop.body.body)
        prange = cst.Attribute(cst.Name("numba"), cst.Name("prange"))
        if trivial:
            k = self.var
            head: Stmts = []
            guarded = distinct_index_copies(guarded, k)
        else:
            k = self.fresh("_k")
            index = self.fresh(f"_{self.var}")
            head = [_assign(index, self.index(cst.Name(k), start, step), line)]
            guarded = [s.visit(Rename({self.var: index})) for s in guarded]  # type: ignore[misc]
            guarded = distinct_index_copies(guarded, index)
        if self.ok:
            head.append(_assign(self.ok, cst.Name("True"), line))
            guarded = self.private(guarded) if self.parfor else guarded
        guarded, tail = self.partials(guarded, head)
        loop = self.loop.with_changes(target=cst.Name(k), iter=cst.Call(prange, [cst.Arg(count)]),
                                      body=self.loop.body.with_changes(body=[*head, *guarded, *tail]))
        after: Stmts = [loop, *self.raise_first()]
        if d.last_value:
            last = self.index(_binary(count, cst.Subtract(), cst.Integer("1")), start, step)
            some = cst.Comparison(count, [cst.ComparisonTarget(cst.GreaterThan(), cst.Integer("0"))])
            after.append(_if(some, [_assign(self.var, last, line)], line))
        self.k = k
        return after

    def private(self, body: Stmts) -> Stmts:
        """The checks' `if _ok:` leaves a variable of the body assigned on one path only, and Numba's parfor
        then types it together with its namesakes in the loop's other copies (the serial twin, the checked
        copy): `t = (k, j + i)` became Tuple(float64, int64) and no longer indexed. The body's own variables
        (the dependence decision keeps them out of everything after the loop) get names of their own."""
        own = set().union(*(assigned_names(s) for s in body)) - set(self.decision.reductions) - {self.var, self.ok}
        names = {name: self.fresh(f"_{name.lstrip('_')}") for name in sorted(own)}
        return [s.visit(Rename(names)) for s in body] if names else body  # type: ignore[misc]

    def partials(self, body: Stmts, head: Stmts) -> tuple[Stmts, Stmts]:
        """Reductions updated inside an `if` or an inner loop (the checks' `if _ok:` puts them there too)
        accumulate into a partial of their iteration, added to the variable at the end of the body: Numba's
        parfor loses such an update (a sum of 0.0 for 20.0; numba#4922's family), and handles `s += _p` at the
        top of the body. The dtype comes from the Plan; without one the loop is printed as it was."""
        names: dict[str, str] = {}
        tail: Stmts = []
        for name in self.decision.reductions:
            operator = _nested_update(body, name)
            identity = _identity(operator, self.dtypes.get(name, "?")) if operator is not None else None
            if operator is None or identity is None:
                continue
            names[name] = self.fresh(f"_{name}_part")
            head.append(_assign(names[name], identity, self.line))
            tail.append(_line(cst.AugAssign(cst.Name(name), _COMBINE[operator](), cst.Name(names[name])), self.line))
        if not names:
            return body, tail
        return [s.visit(_Partials(names)) for s in body], tail  # type: ignore[misc]

    # -- statements that may raise: test first, record, skip the rest of the iteration --------------------

    def guard(self, stmts: Sequence[cst.BaseStatement]) -> tuple[Stmts, bool]:
        """`stmts` with their checks; once one may fail, the rest runs under `if _ok:`."""
        out: Stmts = []
        for k, stmt in enumerate(stmts):
            printed, fails = self.statement(stmt)
            out += printed
            if fails and k + 1 < len(stmts):
                rest, _ = self.guard(stmts[k + 1:])
                out.append(_if(cst.Name(self.ok), rest, origin_of(stmts[k + 1])))
                return out, True
            if fails:
                return out, True
        return out, False

    def statement(self, stmt: cst.BaseStatement) -> tuple[Stmts, bool]:
        checks = self.decision.checks.get(stmt, [])
        fails = bool(checks)
        if isinstance(stmt, cst.If):
            body, b = self.guard(stmt.body.body)  # type: ignore[arg-type]
            orelse: Stmts = []
            o = False
            if isinstance(stmt.orelse, cst.Else):
                orelse, o = self.guard(stmt.orelse.body.body)  # type: ignore[arg-type]
            stmt = stmt.with_changes(body=stmt.body.with_changes(body=body),
                                     orelse=stmt.orelse.with_changes(body=stmt.orelse.body.with_changes(
                                         body=orelse)) if isinstance(stmt.orelse, cst.Else) else None)
            fails = fails or b or o
        elif isinstance(stmt, cst.For | cst.While):
            body, b = self.guard(stmt.body.body)  # type: ignore[arg-type]
            if b:
                stop = _if(cst.UnaryOperation(cst.Not(), cst.Name(self.ok)),
                           [_line(cst.Break(), origin_of(stmt))], origin_of(stmt))
                body.append(stop)
            if isinstance(stmt, cst.While) and checks:  # the test runs every time round: check it there
                test = _if(cst.UnaryOperation(cst.Not(), stmt.test.with_changes(lpar=[cst.LeftParen()],
                                                                                rpar=[cst.RightParen()])),
                           [_line(cst.Break(), origin_of(stmt))], origin_of(stmt))
                failed = self.failures(checks, [test], origin_of(stmt), leave=True)
                stmt = stmt.with_changes(test=cst.Name("True"), body=stmt.body.with_changes(body=[*failed, *body]))
                return [stmt], True
            stmt = stmt.with_changes(body=stmt.body.with_changes(body=body))
            fails = fails or b
        elif isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assert | cst.Raise):
            return self.failures(checks, [], origin_of(stmt)), True  # the check is the assertion
        if not checks:
            return [stmt], fails
        return self.failures(checks, [stmt], origin_of(stmt)), True

    def failures(self, checks: list[Check], then: Stmts, line: int | None, leave: bool = False) -> Stmts:
        """`if c1: record 1 … elif c2: record 2 … else: then`, where `then` indexes without the bounds checks
        that c1, c2… made (a raise in a prange loop stops Numba from parallelizing it)."""
        raisers = [(c.raiser, c.unchecked if c.values is None else None) for c in checks if c.raiser is not None]
        chain: Stmts = [s.visit(_Unchecked(raisers)) for s in then] if raisers else then  # type: ignore[misc]
        for check in reversed(checks):
            if raisers:  # a condition, and the values a failure records, run after the checks before it: the
                # calls those tested are safe there (a checked call left in would stop Numba parallelizing)
                condition = check.condition.visit(_Unchecked(raisers))
                assert isinstance(condition, cst.BaseExpression)
                recorded = check.values and (_unchecked(check.values[0], raisers),
                                             _unchecked(check.values[1], raisers))
                check = dataclasses.replace(check, condition=condition, values=recorded)
            self.codes.append(check)
            code = len(self.codes)
            values, recorder = (check.values, "record_error_values") if check.values else ((), "record_error")
            record: Stmts = [_line(cst.Expr(_call(self.intrinsic(recorder), cst.Name(self.errs),
                                           cst.Name("__K__"), cst.Integer(str(code)), *values)), check.line),
                      _assign(self.ok, cst.Name("False"), check.line)]
            if leave:
                record.append(_line(cst.Break(), check.line))
            always = check.raised is not None and not chain  # a user's raise: nothing after it runs
            chain = record if always else [_if(check.condition, record, check.line, chain)]
        return chain

    def raise_first(self) -> Stmts:
        """After the loop: the exception of the first failing iteration."""
        if not self.codes:
            return []
        e = self.fresh("_e")
        out: Stmts = [_assign(e, _call(self.intrinsic("first_error"), cst.Name(self.errs)), self.line)]
        for code, check in enumerate(self.codes, 1):
            error = check.error()
            test = cst.Comparison(cst.Name(e), [cst.ComparisonTarget(cst.Equal(), cst.Integer(str(code)))])
            raised: Stmts = [_line(cst.Raise(error), check.line)]
            if check.values is not None and check.raiser is not None:  # again, with the recorded values: the message
                values = [cst.Arg(_call(self.intrinsic("error_value"), cst.Name(self.errs), cst.Integer(str(k))))
                          for k in (0, 1)]
                raised.insert(0, _line(cst.Expr(check.raiser.with_changes(args=[*values, *check.raiser.args[2:]])),
                                       check.line))
            out.append(_if(test, raised, check.line))
        return out


def _unchecked(value: cst.BaseExpression, raisers: list[tuple[cst.Call, cst.BaseExpression | None]]) \
        -> cst.BaseExpression:
    out = value.visit(_Unchecked(raisers))
    assert isinstance(out, cst.BaseExpression)
    return out


class _Unchecked(cst.CSTTransformer):
    """`index(i, n, axis)` → `i` (no operation given), `add(a, b)` → `a + b`: the checking calls whose
    conditions were tested, with the checked calls inside them unchecked too."""

    def __init__(self, raisers: list[tuple[cst.Call, cst.BaseExpression | None]]):
        super().__init__()
        self.raisers = raisers

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        found = next((plain for call, plain in self.raisers if original.deep_equals(call)), updated)
        args = [a.value for a in updated.args]  # a checked call inside is unchecked already
        if found is None:  # a bounds check: its index
            return args[0]
        if isinstance(found, cst.BinaryOperation):
            return found.with_changes(left=args[0], right=args[1])
        if isinstance(found, cst.UnaryOperation):
            return found.with_changes(expression=args[0])
        if isinstance(found, cst.Name) and found.value == SECOND:  # range_stop(a, b): b
            return args[1]
        return updated


class _Iteration(cst.CSTTransformer):
    """The iteration number `record_error` records: the prange loop's own index."""

    def __init__(self, k: str):
        super().__init__()
        self.k = k

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.k) if updated.value == "__K__" else updated


def parallel_loop(loop: cst.For, decision: LoopDecision, fresh: Fresh, intrinsic: Callable[[str], str],
                  dtypes: dict[str, str] | None = None, parfor: bool = False) -> Stmts:
    """The statements that replace `loop`, which `decision` found parallel; `dtypes` are its reductions'
    (the CPU target's Numba parfor needs partials for nested updates: `partials`; `parfor`: it is Numba's
    parfor that runs it, whose typing needs the body's own names: `private`)."""
    printer = _Printer(loop, decision, fresh, intrinsic, dtypes, parfor)
    printed = printer.statements()
    return [s.visit(_Iteration(printer.k)) for s in printed]  # type: ignore[misc]
