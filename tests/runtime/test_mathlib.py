"""`math` functions Numba lacks behave as CPython's inside jitted code, errors included."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

floats = st.floats(-1e6, 1e6, allow_nan=False) | st.sampled_from([0.0, -0.0, 2.5, -7.25, math.inf, -math.inf])
ints = st.integers(-5, 80) | st.integers(10**6, 10**12)
small = st.integers(-5, 80)  # factorial/perm/comb of huge n take CPython ages; small n reach overflow anyway


def _pair(name: str):
    fn = define(f"""
        import math
        def f(a, b):
            return math.{name}(a, b)
        """)
    return fn, cuvil.jit(fn)


def _unary(name: str):
    fn = define(f"""
        import math
        def f(a):
            return math.{name}(a)
        """)
    return fn, cuvil.jit(fn)


FUNCTIONS = {name: _pair(name) for name in ("fmod", "isclose")} | {
    name: _unary(name) for name in ("cbrt", "modf")}
INTEGER_FUNCTIONS = {name: _pair(name) for name in ("comb", "perm", "lcm")} | {
    name: _unary(name) for name in ("isqrt", "factorial")}


def _outcome(fn, *args):
    try:
        return "ok", fn(*args)
    except (ValueError, OverflowError) as exc:
        return "error", type(exc)


def _same(expected, got):
    if expected[0] == "error":
        return got[0] == "error" and (got[1] is expected[1] or expected[1] is OverflowError)
    a, b = expected[1], got[1]
    if isinstance(a, tuple):
        return all(_same(("ok", x), ("ok", y)) for x, y in zip(a, b, strict=True))
    return got[0] == "ok" and (a == b or (a != a and b != b)) and math.copysign(1, a) == math.copysign(1, b)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@given(a=floats, b=floats)
def test_float_functions_match_python(name, a, b):
    plain, jitted = FUNCTIONS[name]
    args = (a, b) if plain.__code__.co_argcount == 2 else (a,)
    assert _same(_outcome(plain, *args), _outcome(jitted, *args))


@pytest.mark.parametrize("name", sorted(INTEGER_FUNCTIONS))
@given(data=st.data())
def test_integer_functions_match_python_or_refuse_to_overflow(name, data):
    a = data.draw(ints if name in ("isqrt", "lcm") else small)
    b = data.draw(ints if name == "lcm" else small)
    plain, jitted = INTEGER_FUNCTIONS[name]
    args = (a, b) if plain.__code__.co_argcount == 2 else (a,)
    expected = _outcome(plain, *args)
    if expected[0] == "ok" and abs(expected[1]) > 2**63 - 1:
        expected = ("error", OverflowError)  # 64-bit integers: loud instead of wrapped
    assert _same(expected, _outcome(jitted, *args))
