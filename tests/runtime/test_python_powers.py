"""A Python number to a literal power is CPython's (lower/pypow.py): the same value, or the same exception —
`1e200 ** 2` raises OverflowError where Numba's multiplication gives inf, `k ** 2` of a Python int raises
OverflowError where its result leaves int64 (Numba wraps) — while NumPy's scalars and arrays keep NumPy's inf.
`pow()` and `math.pow` of Python numbers too. Error lines: tests/runtime/test_error_lines.py."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.runtime.pyint import MESSAGE
from tests.helpers import define

pytestmark = [pytest.mark.filterwarnings("ignore::RuntimeWarning"),  # NumPy's overflow warning in the plain runs
              pytest.mark.filterwarnings("error::cuvil.PerformanceWarning")]  # no fallback to the code as written

FLOAT_EXPONENTS = ("0", "1", "2", "3", "4", "5", "7", "10", "0.0", "1.0", "2.0", "3.0", "-1", "-2", "-3", "-1.0",
                   "-2.0")
INT_EXPONENTS = ("0", "1", "2", "3", "4", "5", "7", "10", "40", "63")


def _branches(name: str, exponents: tuple[str, ...]) -> str:
    """One function with a literal power per branch: each `x ** <literal>` as written, one compile for all."""
    lines = [f"def {name}(x, k):"]
    lines += [f"    if k == {n}:\n        return x ** {e}" for n, e in enumerate(exponents)]
    lines.append("    return x ** 0")
    return "\n".join(lines) + "\n"


_FLOATS = define(_branches("float_powers", FLOAT_EXPONENTS))
_INTS = define(_branches("int_powers", INT_EXPONENTS))
_FLOATS_JIT, _INTS_JIT = cuvil.jit(_FLOATS), cuvil.jit(_INTS)


def _outcome(fn, *args):
    try:
        value = fn(*args)
    except Exception as exc:  # noqa: BLE001 (the exception is the outcome compared)
        return type(exc), str(exc)
    return type(value), value if value == value else "nan"


@settings(max_examples=300, deadline=None)
@given(x=st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e200, -1e200, 1e-200, 0.0, -0.0,
                                                                           6.898715980997042e-15,  # ** -1: C pow()
                                                                           1.3407807929942596e154]),
       k=st.integers(0, len(FLOAT_EXPONENTS) - 1))
@example(x=6.898715980997042e-15, k=FLOAT_EXPONENTS.index("-1"))  # LLVM's 1 / x is not C's pow(x, -1.0) here
def test_float_to_a_literal_power_is_cpythons(x, k):
    """Same value (C's pow(), as CPython computes it) or same exception type and message."""
    assert _outcome(_FLOATS_JIT, x, k) == _outcome(_FLOATS, x, k)


@settings(max_examples=300, deadline=None)
@given(x=st.integers(-2**63, 2**63 - 1) | st.integers(-3037000500, 3037000500) | st.integers(-8, 8),
       k=st.integers(0, len(INT_EXPONENTS) - 1))
def test_int_to_a_literal_power_is_cpythons_or_overflow(x, k):
    """Python's int where it fits in int64; OverflowError exactly where it does not — never a wrapped number."""
    expected = _INTS(x, k)
    if -2**63 <= expected < 2**63:
        assert _outcome(_INTS_JIT, x, k) == (int, expected)
    else:
        assert _outcome(_INTS_JIT, x, k) == (OverflowError, MESSAGE)


NUMPY_POWERS = """
def numpy_powers(a, s):
    b = a ** 2
    c = a[0] ** 3
    d = s ** 2.0
    e = a[1]
    e **= 2
    return b, c, d, e
"""


def test_numpy_scalars_and_arrays_keep_numpys_inf():
    fn = define(NUMPY_POWERS)
    jitted = cuvil.jit(fn)
    for a, s in [(np.array([1e200, 3.0]), np.float64(1e300)), (np.array([1e200, 1e300]), np.float64(2.0)),
                 (np.array([1e30, 1e20], np.float32), np.float32(1e30))]:  # first call, hit, miss
        got, want = jitted(a, s), fn(a, s)
        np.testing.assert_array_equal(got[0], want[0])
        assert got[0].dtype == want[0].dtype
        for g, w in zip(got[1:], want[1:]):
            assert g == w and np.dtype(type(g)) == np.dtype(type(w))  # inf, NumPy's dtype
    assert len(jitted.compile_events) == 2


PYTHON_POWERS = """
def python_powers(x, e, k):
    y = x * 1.0
    y **= 3
    z = x * 1.0
    z **= e
    return y, z, pow(x, 2), pow(k, 3), math.pow(x, e), math.pow(k, 2), 2 ** 62, (-3) ** 3
"""


def test_python_number_powers_are_cpythons_values():
    fn = define(PYTHON_POWERS, env={"math": math})
    jitted = cuvil.jit(fn)
    for args in [(1.5, 2.0, 7), (-2.5, 3.0, -11), (0.5, 2, -2**21)]:  # first call, hit, miss
        got, want = jitted(*args), fn(*args)
        assert got == want and [type(g) for g in got] == [type(w) for w in want]
    assert len(jitted.compile_events) == 2


@pytest.mark.parametrize(("args", "error"), [
    ((1e200, 2.0, 1), (OverflowError, "(34, 'Numerical result out of range')")),  # y **= 3
    ((1e100, 4.0, 1), (OverflowError, "(34, 'Numerical result out of range')")),  # z **= e
    ((0.0, -1.0, 1), (ZeroDivisionError, "0.0 cannot be raised to a negative power")),  # z **= e
    ((1.0, 2.0, 2**22), (OverflowError, MESSAGE)),  # pow(k, 3): Python's big int
])
def test_python_number_powers_raise_as_cpython(args, error):
    fn = define(PYTHON_POWERS, env={"math": math})
    if error[1] != MESSAGE:
        assert _outcome(fn, *args) == error
    assert _outcome(cuvil.jit(fn), *args) == error


def test_wrap_leaves_int_powers_to_numba():
    """`overflow="wrap"`: int powers wrap around as Numba's (and NumPy's int64) do; float powers still raise."""
    fn = define(PYTHON_POWERS, env={"math": math})
    jitted = cuvil.jit(fn, overflow="wrap")
    assert jitted(1.0, 2.0, 2**22)[3] == int(np.int64(2**22) ** np.int64(3))  # 2**66 wraps to 0
    assert _outcome(jitted, 1e200, 2.0, 1) == (OverflowError, "(34, 'Numerical result out of range')")


LOOP_POWERS = """
def loop_powers(a, h):
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = a[i] + i ** 2
    for i in range(a.shape[0]):
        x = (i + 0.5) * h
        out[i] += x ** 3
    return out
"""


def test_powers_in_parallel_loops():
    """`i ** 2` of a loop index stays parallel (products whose overflow the loop tests before it runs); a Python
    float's power is checked at every iteration (its loop serial); both give Python's values."""
    fn = define(LOOP_POWERS, env={"np": np})
    jitted = cuvil.jit(fn, parallel=True)
    for a, h in [(np.arange(1000.0), 0.001), (np.arange(1000.0), 0.5), (np.arange(7, dtype=np.float32), 2.0)]:
        np.testing.assert_array_equal(jitted(a, h), fn(a, h))
    loops = [line for line in str(cuvil.explain(jitted)).splitlines() if "loop loop_powers L3" in line]
    assert loops and all("parallel" in line for line in loops)


@pytest.mark.parametrize("overflow", ["raise", "wrap"])
def test_builtin_pow_of_ints_to_a_negative_power_is_loud(overflow):
    """`pow(2, -1)` is 0.5 in Python, a float only the values tell: ValueError with a hint, as `2 ** e` gives
    (Numba's pow answered 0), under either overflow option."""
    fn = define("""
def power(k, e):
    return pow(k, e)
""")
    jitted = cuvil.jit(fn, overflow=overflow)
    assert _outcome(jitted, 2, -1) == (ValueError, "integer ** negative integer gives a float in Python; write "
                                                   "float(base) ** exp")
    assert _outcome(jitted, 3, 4) == _outcome(fn, 3, 4) == (int, 81)


def test_literal_exponents_are_cs_pow_not_llvms_rewrites():
    """LLVM writes pow(x, -1.0) as 1.0 / x once the literal is inlined, which is not C's pow() for every x:
    `**`, pow() and math.pow() of a Python float call the C library's pow(), as CPython does."""
    fn = define("def lit(x):\n    return x ** -1, math.pow(x, -1.0), pow(x, -1), x ** 2, math.pow(x, 2)\n",
                env={"math": math})
    x = 6.898715980997042e-15
    assert cuvil.jit(fn)(x) == fn(x) and fn(x)[0] != 1.0 / x
