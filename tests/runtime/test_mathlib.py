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
# Near the square of a root above 2**26.5 the float estimate math.sqrt gives is off by one, so the exact integer
# correction runs (both ways); roots up to isqrt(2**63 - 1), where (r + 1)**2 no longer fits in 64 bits.
ISQRT_ROOT_MAX = 3037000499
near_squares = st.builds(lambda r, d: min(r * r + d, 2**63 - 1), st.integers(2**26, ISQRT_ROOT_MAX),
                         st.integers(-2, 2)).filter(lambda n: n >= 0)
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
        return "error", (type(exc), str(exc))


def _same(expected, got):
    """Equal values (signed zeros and NaN too); or the same exception type with CPython's message (`None`:
    Cuvil's own 64-bit overflow, which CPython has no message for)."""
    if expected[0] == "error":
        kind, message = expected[1]
        return got[0] == "error" and got[1][0] is kind and message in (None, got[1][1])
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
        expected = ("error", (OverflowError, None))  # 64-bit integers: loud instead of wrapped
    assert _same(expected, _outcome(jitted, *args))


@given(n=near_squares | st.sampled_from([0, 1, 2, 3, 4, 2**63 - 1, ISQRT_ROOT_MAX**2, ISQRT_ROOT_MAX**2 - 1]))
def test_isqrt_corrects_its_float_estimate_exactly(n):
    plain, jitted = INTEGER_FUNCTIONS["isqrt"]
    assert jitted(n) == plain(n)


@pytest.mark.parametrize(("name", "args"), [("factorial", (21,)), ("perm", (30, 20)), ("comb", (70, 35)),
                                            ("lcm", (2**40 + 1, 2**40 - 1))])
def test_results_past_64_bits_raise_overflow_error(name, args):
    """Never a wrapped value, and an OverflowError as CPython raises for a result too large for its type."""
    plain, jitted = INTEGER_FUNCTIONS[name]
    assert abs(plain(*args)) > 2**63 - 1
    with pytest.raises(OverflowError, match=f"{name}\\(\\) .*does not fit in 64 bits"):
        jitted(*args)
