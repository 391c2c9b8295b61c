"""`//`, `%` and `/` of Python numbers by zero raise CPython's ZeroDivisionError with CPython's words
(lower/zerodivision.py, runtime/pyint.py), where Numba words its own ("integer division by zero", "modulo by
zero"); NumPy scalars keep NumPy's answers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def floordiv(a, b):
    return a // b


def mod(a, b):
    return a % b


def truediv(a, b):
    return a / b


def quotient_and_remainder(a, b):
    return divmod(a, b)


def in_place(a, b):
    q = a
    q //= b
    r = a
    r %= b
    return q, r


def small_left(x, k):
    return len(x) // k


def _outcome(fn, *args):
    try:
        return fn(*args)
    except ZeroDivisionError as e:
        return ZeroDivisionError, str(e)


def _same_three_times(jitted, fn, *args):
    expected = _outcome(fn, *args)
    for _ in range(3):
        got = _outcome(jitted, *args)
        assert got == expected and type(got) is type(expected), (args, got, expected)


NUMBERS = st.sampled_from([0, 0.0, -0.0, False, True]) | st.integers(-10**6, 10**6) | \
    st.floats(-1e6, 1e6, allow_nan=False)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@settings(max_examples=60)
@given(a=NUMBERS, b=NUMBERS)
def test_division_of_python_numbers_is_cpythons(a, b):
    for fn in (floordiv, mod, truediv, quotient_and_remainder, in_place):
        _same_three_times(cuvil.jit(fn), fn, a, b)


@pytest.mark.parametrize(("fn", "args", "message"), [
    (floordiv, (1, 0), "integer division or modulo by zero"),
    (mod, (1, 0), "integer modulo by zero"),
    (truediv, (1, 0), "division by zero"),
    (floordiv, (1.0, 0.0), "float floor division by zero"),
    (floordiv, (1, 0.0), "float floor division by zero"),
    (mod, (1.5, 0.0), "float modulo"),
    (truediv, (1.5, 0), "float division by zero"),
    (mod, (True, False), "integer modulo by zero"),
    (small_left, (np.zeros(3), 0), "integer division or modulo by zero"),
    (quotient_and_remainder, (7, 0), "integer division or modulo by zero"),
    (quotient_and_remainder, (7, 0.0), "float divmod\\(\\)"),
    (quotient_and_remainder, (-1.5, False), "float divmod\\(\\)"),
])
def test_message_is_cpythons(fn, args, message):
    with pytest.raises(ZeroDivisionError, match=f"^{message}$"):
        fn(*args)
    jitted = cuvil.jit(fn)
    for _ in range(2):
        with pytest.raises(ZeroDivisionError, match=f"^{message}$"):
            jitted(*args)


def test_numpy_scalars_keep_numpys_answer():
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = floordiv(np.float64(1.0), np.float64(0.0))
        got = cuvil.jit(floordiv)(np.float64(1.0), np.float64(0.0))
    assert got == expected == np.inf


PARALLEL = """
def ratios(x, a, b):
    out = np.empty(x.shape[0], np.float64)
    for i in range(x.shape[0]):
        out[i] = x[i] + {expr}
    return out
"""


@pytest.mark.parametrize("op", ["//", "%", "/", "divmod"])
@pytest.mark.parametrize(("a", "b", "miss"), [(1, 0, (1.5, 0)), (1.0, 0, (1, 0.0)), (2, 0.0, (True, False))])
def test_parallel_loop_division_by_zero_is_cpythons(op, a, b, miss):
    """The loop tests the divisor before each iteration (cfg/raising.py) and raises after it, with the words
    of the operands' kinds and at the user's line; first call, guard hit, guard miss."""
    import traceback

    from tests.helpers import define

    expr = "divmod(a + i, b)[1]" if op == "divmod" else f"(a + i) {op} b"
    fn = define(PARALLEL.replace("{expr}", expr), env={"np": np})
    jitted = cuvil.jit(fn, parallel=True)
    x = np.ones(4)

    def raised(f, *args):
        with pytest.raises(ZeroDivisionError) as info:
            f(*args)
        last = traceback.extract_tb(info.value.__traceback__)[-1]
        return str(info.value), last.filename, last.lineno

    for args in [(x, a, b), (x, a, b), (x, *miss)]:
        assert raised(jitted, *args) == raised(fn, *args)
    loop = next(line for line in jitted.loops()[0] if line.startswith("ratios"))
    assert loop.startswith("ratios L3: parallel") == (op != "divmod"), loop  # divmod: no operator to run unchecked
    assert len(jitted.compile_events) == 2
    assert np.array_equal(jitted(x, a, 3), fn(x, a, 3))
