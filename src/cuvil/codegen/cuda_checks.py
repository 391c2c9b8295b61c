"""Python's errors in a single-thread kernel: each statement that may raise tests first, records an error code
and leaves the kernel; the launcher raises the exception after the launch (codegen/launch.py).

    s += x[index(idx[i], n, 0)]  # L7         if idx[i] < -n or idx[i] >= n:  # L7
                                                  _record_error_values(_errs0, 0, 1, idx[i], n)  # L7
                                                  return  # L7
                                              s += x[index(idx[i], n, 0)]  # L7     (index: the unchecked twin)

A statement whose failures cfg/raising.py can state as conditions (bounds, divisions, Python-int `+ - *`,
math domains, asserts) tests them before it runs, as a parallel loop's iteration does (codegen/parallel.py),
so it neither runs nor writes when it would have raised. One that calls a helper no condition describes (a
Python int `**`, `<<`, `//`, abs(), int() of a float…) calls the recording twins of runtime/cuda_checks.py for
every checked operation in it, in Python's order, and the kernel leaves right after it:

    out[i] = k ** i  # L15                    out[i] = _ck.power(_errs0, 1, k, i)  # L15
                                              if _ck.failed(_errs0):  # L15
                                                  return  # L15

That statement has run by then with a harmless value in place of the failing operation's, and may have
written it (an array's value is unspecified after an exception, as in a parallel loop).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from ..cfg.effects import Calls
from ..cfg.raising import Check, Opaque, statement_checks
from ..library.numpy import DOMAINS, MATH_RAISES
from ..normalize.names import Fresh
from ..normalize.origins import origin_of, with_origin
from ..runtime.elementwise import _TOO_LARGE
from ..runtime.pyint import _NEGATIVE_POWER, _ZERO_POWER, MESSAGE

Stmts = list[cst.BaseStatement]
# What each recording twin's codes stand for (runtime/cuda_checks.py records `code + k` for the k-th), in the
# order the twins test them. Here, not there: compiling needs the table, and importing the twins imports
# numba.cuda, which the CPU target never does.
_INT = ("OverflowError", MESSAGE)
_INT_ZERO = ("ZeroDivisionError", "integer division or modulo by zero")
OUTCOMES: dict[str, tuple[tuple[str, str], ...]] = {
    "add": (_INT,), "sub": (_INT,), "mul": (_INT,), "neg": (_INT,), "absolute": (_INT,),
    "power": (("ZeroDivisionError", _ZERO_POWER), ("ValueError", _NEGATIVE_POWER), _INT),
    "lshift": (("ValueError", "negative shift count"), _INT),
    "rshift": (("ValueError", "negative shift count"),),
    "floordiv": (_INT_ZERO, _INT),
    "to_int": (("ValueError", "cannot convert float NaN to integer"),
               ("OverflowError", "cannot convert float infinity to integer"), _INT),
    "as_index": (("TypeError", "'float' object cannot be interpreted as an integer"),),
    "index": (("IndexError", ""),),  # the message is runtime/checks.index's, from the recorded values
    "true_divide": (("ZeroDivisionError", "division by zero"),),
    "floor_divide": (_INT_ZERO,), "modulo": (_INT_ZERO,),
    **{name: tuple((exception, message) for exception, message, _ in DOMAINS[name]) for name in DOMAINS},
    **MATH_RAISES,  # runtime/pymath.py's, computed with the index of their error
}
OUTCOMES["round_int"] = OUTCOMES["to_int"]
# runtime/elementwise.py's fits of a number into an integer dtype (NumPy's setitem and operands): the last
# outcome's message names the value, raised again on the host from the recorded value (_FIT_RAISER)
_FIT = ("OverflowError", "")
FITS = {"python_int_as": (_FIT,), "numpy_int_as": (("OverflowError", _TOO_LARGE), _FIT),
        "python_float_as": (OUTCOMES["to_int"][0], OUTCOMES["to_int"][1], ("OverflowError", _TOO_LARGE), _FIT)}
OUTCOMES.update(FITS)
_FIT_RAISER = "_rt.int_out_of_bounds"
Failure = tuple[int, cst.BaseExpression, int | None, cst.Call | None]  # (code, exception, line, raiser)
CHECKS = "_ck"  # the generated module's name of runtime/cuda_checks.py
_HELPERS = ("cuvil.runtime.pyint.", "cuvil.runtime.pymath.", "cuvil.runtime.checks.")
_ELEMENTWISE = "cuvil.runtime.elementwise."
_DIVISIONS = {cst.Divide: "true_divide", cst.FloorDivide: "floor_divide", cst.Modulo: "modulo"}


def _line(small: cst.BaseSmallStatement, line: int | None) -> cst.SimpleStatementLine:
    return with_origin(cst.SimpleStatementLine([small]), line)


def _call(func: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.parse_expression(func), [cst.Arg(a) for a in args])


def _if(test: cst.BaseExpression, body: Stmts, line: int | None) -> cst.If:
    return with_origin(cst.If(test, cst.IndentedBlock(body)), line)


class SerialChecks:
    def __init__(self, calls: Calls, errs: str, fresh: Fresh, record_error: str, record_values: str):
        self.calls, self.errs, self.fresh = calls, errs, fresh
        self.record_error, self.record_values = record_error, record_values
        self.failures: list[Failure] = []

    def code(self) -> int:
        return len(self.failures) + 1

    def leave(self, line: int | None) -> cst.If:
        return _if(_call(f"{CHECKS}.failed", cst.Name(self.errs)), [_line(cst.Return(), line)], line)

    # -- statements -----------------------------------------------------------------------------------

    def block(self, stmts: Sequence[cst.BaseStatement]) -> Stmts:
        return [s for stmt in stmts for s in self.statement(stmt)]

    def statement(self, stmt: cst.BaseStatement) -> Stmts:
        line = origin_of(stmt)
        if isinstance(stmt, cst.SimpleStatementLine):
            try:
                checks = statement_checks(stmt, self.calls)
            except Opaque:
                before = len(self.failures)
                recorded = stmt.visit(_Recording(self, line))
                return [recorded, self.leave(line)] if len(self.failures) > before else [stmt]  # type: ignore
            tested = self.tested(checks)
            if isinstance(stmt.body[0], cst.Assert):
                return tested  # the check is the assertion
            return [*tested, stmt]
        if isinstance(stmt, cst.If):
            head, test = self.header(stmt.test, stmt, line)
            orelse = stmt.orelse
            if isinstance(orelse, cst.If):  # `elif`: its test runs only when the first is false
                orelse = cst.Else(cst.IndentedBlock(self.statement(orelse)))
            elif isinstance(orelse, cst.Else):
                orelse = orelse.with_changes(body=orelse.body.with_changes(body=self.block(orelse.body.body)))  # type: ignore[arg-type]
            body = stmt.body.with_changes(body=self.block(stmt.body.body))  # type: ignore[arg-type]
            return [*head, stmt.with_changes(test=test, body=body, orelse=orelse)]
        if isinstance(stmt, cst.While):
            head, test = self.header(stmt.test, stmt, line)
            inner = self.block(stmt.body.body)  # type: ignore[arg-type]
            if not head:
                return [stmt.with_changes(body=stmt.body.with_changes(body=inner))]
            stop = _if(cst.UnaryOperation(cst.Not(), test.with_changes(lpar=[cst.LeftParen()],
                                                                       rpar=[cst.RightParen()])),
                       [_line(cst.Break(), line)], line)  # the test runs every time round: checked there
            return [stmt.with_changes(test=cst.Name("True"), body=stmt.body.with_changes(
                body=[*head, stop, *inner]))]
        if isinstance(stmt, cst.For):
            head, iter_ = self.header(stmt.iter, stmt, line)
            inner = self.block(stmt.body.body)  # type: ignore[arg-type]
            return [*head, stmt.with_changes(iter=iter_, body=stmt.body.with_changes(body=inner))]
        return [stmt]

    def header(self, test: cst.BaseExpression, stmt: cst.BaseStatement,
               line: int | None) -> tuple[Stmts, cst.BaseExpression]:
        """The checks of a compound statement's header, and the header to evaluate after them; a header no
        condition describes is evaluated first, into a name, by the recording twins."""
        try:
            return self.tested(statement_checks(stmt, self.calls)), test
        except Opaque:
            name = self.fresh("_c")
            value = test.visit(_Recording(self, line))
            assert isinstance(value, cst.BaseExpression)
            return [_line(cst.Assign([cst.AssignTarget(cst.Name(name))], value), line), self.leave(line)], \
                cst.Name(name)

    def tested(self, checks: Sequence[Check]) -> Stmts:
        out: Stmts = []
        for check in checks:
            code = self.code()
            errs, zero = cst.Name(self.errs), cst.Integer("0")
            if check.values is not None and check.raiser is not None:
                record = _call(self.record_values, errs, zero, cst.Integer(str(code)), *check.values)
                self.failures.append((code, _call(check.exception, cst.SimpleString("''")), check.line,
                                      check.raiser))
            else:
                record = _call(self.record_error, errs, zero, cst.Integer(str(code)))
                self.failures.append((code, check.error(), check.line, None))
            out.append(_if(check.condition, [_line(cst.Expr(record), check.line), _line(cst.Return(), check.line)],
                           check.line))
        return out


class _Recording(cst.CSTTransformer):
    """Every checked operation of an expression as its recording twin, codes given in Python's order."""

    def __init__(self, checks: SerialChecks, line: int | None):
        super().__init__()
        self.checks, self.line = checks, line

    def twin(self, name: str, args: Sequence[cst.BaseExpression], raiser: cst.Call | None) -> cst.Call:
        """The raiser words the outcome without a message of its own (a bounds check's, a fit's)."""
        code = self.checks.code()
        for k, (exception, message) in enumerate(OUTCOMES[name]):
            self.checks.failures.append((code + k, _call(exception, cst.SimpleString(repr(message))), self.line,
                                         None if message else raiser))
        return _call(f"{CHECKS}.{name}", cst.Name(self.checks.errs), cst.Integer(str(code)), *args)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        name = self.checks.calls.effect(original).name
        short = name.rsplit(".", 1)[-1]
        if name.startswith(_ELEMENTWISE) and short in FITS and len(updated.args) == 2:
            value, dtype = (a.value for a in updated.args)
            return self.twin(short, [value, dtype], _call(_FIT_RAISER, value, value, dtype))
        if not name.startswith(_HELPERS) or any(a.keyword or a.star for a in updated.args):
            return updated
        if short not in OUTCOMES or (short in ("add", "sub", "mul", "neg") and len(updated.args) > 2 - (
                short == "neg")):
            return updated
        raiser = original if short == "index" else None
        return self.twin(short, [a.value for a in updated.args], raiser)

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        name = _DIVISIONS.get(type(original.operator))
        divisor = original.right
        if name is None or isinstance(divisor, cst.Integer | cst.Float) and float(divisor.evaluated_value) != 0:
            return updated
        return self.twin(name, [updated.left, updated.right], None).with_changes(lpar=updated.lpar,
                                                                                 rpar=updated.rpar)


__all__ = ["CHECKS", "Failure", "SerialChecks"]
