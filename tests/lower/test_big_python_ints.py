"""Python ints at the int64 boundary written into a function (a literal, a module global, a global tuple's element,
a default): compiled code gives CPython's or NumPy 2's answer, or the OverflowError it raises for any Python
int beyond int64 (lower/big_ints.py) — never a wrapped number or a uint64 where CPython has an int. Numba typed
2**63 … 2**64 - 1 as uint64: `MASK - x` gave -2, `int64_array + MASK` gave 0, `return MASK` an np.uint64.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define
from tests.lower.compare import differences, outcome

BOUNDARY = (2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1)
FORMS = ("literal", "global", "tuple", "default")
OPERATORS = ("+", "-", "*", "//", "%", "**", "&", "|", "^", "<<", ">>", "<", "<=", ">", ">=", "==", "!=")
BITWISE = ("&", "|", "^", "<<", ">>")
OPERANDS = {  # what the int meets: (a description, the argument)
    "python int": lambda: 3,
    "python float": lambda: 1.5,
    "python bool": lambda: True,
    "int64 element": lambda: np.array([3, -2]),
    "uint64 element": lambda: np.array([3, 2], np.uint64),
    "int8 element": lambda: np.array([3, -2], np.int8),
    "int64 array": lambda: np.array([3, -2]),
    "uint64 array": lambda: np.array([3, 2], np.uint64),
    "uint8 array": lambda: np.array([3, 2], np.uint8),
    "float64 array": lambda: np.array([1.5, -2.0]),
    "float32 array": lambda: np.array([1.5, -2.0], np.float32),
}
WEAK = ("python int", "python float", "python bool")
_MIN, _MAX = -(2**63), 2**63 - 1


def source(value: int, form: str, expression: str) -> tuple[str, dict[str, Any]]:
    """A function of `x` returning `expression`, in which `V` stands for `value` written in `form`."""
    text = {"literal": f"({value})", "global": "V", "tuple": "T[1]", "default": "v",
            "expression": f"({value - 5} + 5)"}[form]  # literal arithmetic (normalize/int_constants.py)
    params = "x, v=V" if form == "default" else "x"
    return f"def f({params}):\n    return {expression.replace('V', text)}\n", {"V": value, "T": (1, value)}


@functools.cache
def jitted(text: str, env: tuple[tuple[str, Any], ...] = ()) -> Any:
    return cuvil.jit(define(text, env={"np": np, **dict(env)}))


def compiled(value: int, form: str, expression: str) -> Any:
    text, env = source(value, form, expression)
    return jitted(text, tuple(sorted(env.items())))


def refusal_allowed(value: int, form: str, operand: str | None, op: str | None, expected: Any) -> bool:
    """Where compiled code may raise OverflowError though Python answers: Python keeps an int beyond int64 (a
    result, or the literal in Python-int arithmetic, a default taken as an argument, a Python float compared
    exactly with it)."""
    if isinstance(expected, int) and not isinstance(expected, bool) and not _MIN <= expected <= _MAX:
        return True
    if _MIN <= value <= _MAX:
        return False
    if form == "default" or operand is None:
        return True
    return operand in WEAK and not (operand == "python float" and op not in ("<", "<=", ">", ">=", "==", "!="))


def check(value: int, form: str, operand: str | None, op: str | None, left: bool = False) -> None:
    if operand is None:
        expression, args = "V", (0,)
    else:
        x = "x[0]" if operand.endswith("element") else "x"
        expression = f"V {op} {x}" if left else f"{x} {op} V"
        arg = OPERANDS[operand]()
        if not left and op in ("**", "<<") and operand in WEAK:
            arg = type(arg)(0)  # 3 ** 2**64 is beyond any memory
        args = (arg,)
    fn = compiled(value, form, expression)
    expected, got = outcome(fn.py_func, *args), outcome(fn, *args)
    where = f"{expression} with V={value} as a {form}, x={args[0]!r}"
    if got[0] == "raise" and got[1][0] is OverflowError \
            and refusal_allowed(value, form, operand, op, expected[1] if expected[0] == "value" else None):
        return  # (also where Python raises: `False << -(2**63 + 1)`'s ValueError needs the int Cuvil refuses)
    if form == "default" and not _MIN <= value <= _MAX:  # the entry's default is an argument: refused at the call
        assert got[0] == "raise" and got[1][0] is OverflowError and got[1][1].startswith("argument 'v' is "), got
        return
    if expected[0] == "raise" or got[0] == "raise":
        assert got == expected, f"{where}: expected {expected}, got {got}"
        return
    problems = differences(expected[1], got[1], "result")
    assert not problems, f"{where}: " + "; ".join(problems)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("value", BOUNDARY)
def test_boundary_ints_returned_and_with_python_ints(value: int, form: str) -> None:
    check(value, form, None, None)
    check(value, form, "python int", "-", left=True)


@pytest.mark.parametrize("value", BOUNDARY)
@pytest.mark.parametrize("operand", ["int64 element", "uint64 array"])
def test_boundary_ints_meeting_numpy_integers(value: int, operand: str) -> None:
    check(value, "global", operand, "&" if operand.startswith("uint64") else "+")


@settings(max_examples=100, deadline=None)
@given(value=st.sampled_from(BOUNDARY) | st.integers(2**63 - 3, 2**64 + 3) | st.integers(-(2**63) - 3, -(2**63) + 3),
       form=st.sampled_from(FORMS), operand=st.sampled_from(sorted(OPERANDS)), op=st.sampled_from(OPERATORS),
       left=st.booleans())
def test_ints_near_the_boundary_in_every_operation(value: int, form: str, operand: str, op: str, left: bool) -> None:
    if "float" in operand and op in BITWISE:
        return  # a TypeError in both, whatever the int
    if op == "**" and not left and value < 0 and operand in ("python int", "python bool"):
        return  # int ** negative int: Cuvil's documented ValueError, whatever the int's size
    if op == "**" and left and value < 0 and operand == "python float":
        return  # a negative number ** 1.5: Cuvil's documented ValueError (Python: a complex), whatever its size
    check(value, form, operand, op, left)


@pytest.mark.parametrize("operand", ["int64 array", "int64 element"])
def test_int64_plus_the_constant_min_int64(operand: str) -> None:
    """Numba's `nsw` let LLVM fold `x + (-2**63)` to `x | -2**63`: -2 + (-2**63) gave -2, NumPy 2**63 - 2
    (runtime/wrapping.py; found by the property test above at stop 46)."""
    check(_MIN, "literal", operand, "+")


def test_min_int64_written_as_a_negative_literal() -> None:
    """`-9223372036854775808` is `-(2**63)`: it fits (Numba negated a uint64, and Cuvil's check refused it)."""
    fn = jitted("def f(x):\n    return -9223372036854775808 + x\n")
    assert fn(0) == -(2**63) and type(fn(0)) is int


def test_a_global_tuple_holding_a_big_int_whole_is_refused_at_its_line() -> None:
    fn = jitted("def f(x):\n    a, b = T\n    return a + x\n", (("T", (1, 2**64 - 1)),))
    with pytest.raises(cuvil.CuvilTypeError, match="tuple holding a Python int outside int64"):
        fn(1)


def test_a_helper_default_beyond_int64_is_refused_at_its_line() -> None:
    """Numba compiled the default as a uint64 constant: `h(x)` of `def h(x, m=2**64 - 1): return m - x` gave -2."""
    fn = jitted("def h(x, m=0xFFFFFFFFFFFFFFFF):\n    return m - x\n\n\ndef f(x):\n    return h(x)\n")
    with pytest.raises(cuvil.CuvilTypeError, match="the default of 'm' is a Python int outside int64"):
        fn(1)


@pytest.mark.parametrize("op", ["+", "-", "*"])
@pytest.mark.parametrize(("x", "y"), [(True, 2**63 - 1), (True, -(2**63)), (2**63 - 1, True), (-(2**63), True),
                                      (False, -(2**63)), (True, 5)])
def test_python_bool_with_python_int_overflows_as_ints_do(op: str, x: bool | int, y: bool | int) -> None:
    """A Python bool is an int in Python's arithmetic: `True + (2**63 - 1)` is beyond int64, Cuvil's
    OverflowError (the check took only int with int, and this wrapped to -2**63)."""
    fn = jitted(f"def f(x, y):\n    return x {op} y\n")
    expected = eval(f"x {op} y")  # noqa: S307 (our own operators)
    if _MIN <= expected <= _MAX:
        assert fn(x, y) == expected and type(fn(x, y)) is int
    else:
        with pytest.raises(OverflowError, match="int64 overflow"):
            fn(x, y)


@pytest.mark.parametrize("parallel", [False, True])
def test_a_count_of_python_bools_stays_a_parallel_reduction(parallel: bool) -> None:
    """`c += x > 0.5` steps by at most 1: no check, so Numba still sees the reduction (a checked add would keep
    the loop serial); the count is Python's."""
    fn = define("def f(a):\n    c = 0\n    for i in range(a.shape[0]):\n        x = float(a[i])\n"
                "        c += x > 0.5\n    return c\n")
    jitted = cuvil.jit(fn, parallel=parallel)
    for n in (100, 100, 1001):
        a = np.random.default_rng(n).random(n)
        assert jitted(a) == fn(a) and type(jitted(a)) is int
    assert ("loop f L3: parallel (reduction c)" in str(cuvil.explain(jitted))) == parallel


@pytest.mark.parametrize("operand", ["uint64 element", "int64 element", "int8 element"])
def test_numpy_integer_to_a_big_literal_power(operand: str) -> None:
    """Numba's own integer `**` gave 2**64 - 1 for `uint64(3) ** (2**63 - 1)` (NumPy squares, wrapping: the
    property test above found it at stop 47); NumPy's integer power is runtime/elementwise.power."""
    check(_MAX, "literal", operand, "**")


@pytest.mark.parametrize("value", BOUNDARY)
@pytest.mark.parametrize(("operand", "op"), [(None, None), ("uint64 element", "&"), ("int64 element", "+"),
                                             ("uint64 array", "-"), ("python int", "<")])
def test_literal_arithmetic_beyond_int64_is_its_value(value: int, operand: str | None, op: str | None) -> None:
    """`(9223372036854775803 + 5)` is the literal 2**63, as `np.uint64(2**64 - 1)` is NumPy's: compiled code
    computed it in int64 and raised OverflowError."""
    check(value, "expression", operand, op)


@pytest.mark.parametrize("text", ["np.uint64(2**64 - 1) - x[0]", "x[0] & (1 << 63)", "-(2**63) + x[0]",
                                  "x[0] ^ ~(2**63)", "np.uint64(2**64 // 3 * 2) + x[0]",
                                  "x[0] + 10**20 // 10**10", "x[0] * ((2**64 + 1) % 2**32)", "(2**64 - 1) / 2**64",
                                  "x[0] + 2**63 / 2", "int(2**63) - 1"])
def test_numpy_integers_of_literal_arithmetic(text: str) -> None:
    fn = jitted(f"def f(x):\n    return {text}\n")
    for x in (np.array([3], np.uint64), np.array([3], np.uint64), np.array([-3], np.int64)):
        expected, got = outcome(fn.py_func, x), outcome(fn, x)
        if expected[0] == "raise" or got[0] == "raise":
            assert got == expected
        else:
            assert not differences(expected[1], got[1], "result"), (text, x, expected, got)
