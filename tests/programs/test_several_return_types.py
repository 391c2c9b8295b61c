"""A function that returns numbers of different types returns each as Python does (lower/returns.py): Numba
types the one variable normalize/single_exit.py joins the returns into with one type, so an early np.int32
came back as a float, an early Python int as a float, an early bool as an int (and `return a.max() if n
else 0`, the one return of a function, which single_exit leaves alone, returned a Python int for np.int8).
Every program runs on the paths that return each type, first call / guard hit / guard miss (another dtype),
compared by value and type."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

PROGRAMS = {
    "element_or_float": """
        def f(a, k):
            s = 0.0
            for i in range(a.shape[0]):
                if a[i] > k:
                    return a[i]
                s += 0.5
            return s
        """,
    "int_or_float": """
        def f(a, k):
            if a.shape[0] == 0:
                return 0
            if k > 50:
                return True
            return a.sum() / a.shape[0]
        """,
    "three_kinds": """
        def f(a, k):
            if k < -50:
                return k
            for i in range(a.shape[0]):
                if a[i] == k:
                    return a[i] * 2
            return float(k)
        """,
    "branches": """
        def f(a, k):
            if k % 2 == 0:
                r = a.max() if a.shape[0] > 0 else k
            else:
                r = k * 0.5
            return r
        """,
    "one_conditional_return": """
        def f(a, k):
            return a.max() if a.shape[0] > 0 else (k if k > 0 else k * 0.5)
        """,
}
DTYPES = ("int32", "float32", "int8", "uint16", "float64", "int64")


FUNCTIONS = {name: define(text, env={"np": np}) for name, text in PROGRAMS.items()}
JITTED = {name: cuvil.jit(fn) for name, fn in FUNCTIONS.items()}
BOXED = {np.float64: float, np.int64: int, np.bool_: bool, np.complex128: complex}  # Numba returns Python's


def _outcome(fn, *args):
    try:
        result = fn(*args)
    except Exception as exc:  # noqa: BLE001 (compared with the other side's)
        return "raise", type(exc).__name__
    return "ok", BOXED.get(type(result), type(result)), result


@pytest.mark.parametrize("program", list(PROGRAMS))
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_each_return_has_pythons_type(program, data):
    fn, jitted = FUNCTIONS[program], JITTED[program]
    first = data.draw(st.sampled_from(DTYPES))
    for dtype in (first, first, data.draw(st.sampled_from(DTYPES))):  # first call, guard hit, guard miss
        a = np.array(data.draw(st.lists(st.integers(0, 60), max_size=6)), dtype)
        k = data.draw(st.integers(-60, 60))
        assert _outcome(jitted, a, k) == _outcome(fn, a, k), (program, a, k)


def test_one_type_returned_stays_one_value():
    """Numbers of one type (a Python int and an np.int64 both box as int) keep the plain return."""
    fn = define("""
        def f(a, k):
            if k > 0:
                return k
            return a.shape[0]
        """)
    jitted = cuvil.jit(fn)
    assert jitted(np.ones(3), 5) == 5 and jitted(np.ones(3), -1) == 3
    assert "CUVIL_SEVERAL_RETURNS" not in jitted.source()
