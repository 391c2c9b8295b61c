"""A Numba refusal of Cuvil's own lowered code never reaches the user: the function is compiled again from the
NumPy code as written, with a warning asking for a bug report and the reason in `cuvil.explain`."""

from __future__ import annotations

import libcst as cst
import numpy as np
import pytest

import cuvil
import cuvil.lower.program as program
from tests.helpers import define


class _Broken(cst.CSTTransformer):
    """Stands in for a buggy lowering: every binary operation calls a name nothing defines."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def leave_BinaryOperation(self, original, updated):
        return cst.Call(cst.Name("no_such_helper"), [cst.Arg(updated)])


@pytest.fixture(autouse=True)
def _not_strict(monkeypatch):
    """The suite runs strict (tests/conftest.py); these tests are the fallback's own."""
    monkeypatch.setattr(cuvil.config, "strict", False)


def test_lowered_code_numba_refuses_falls_back_to_the_code_as_written(monkeypatch):
    monkeypatch.setattr(program, "Casts", _Broken)
    fn = define("""
        def f(x, k):
            return x * k + 1.0
        """)
    jitted = cuvil.jit(fn)
    x = np.arange(4.0)
    with pytest.warns(cuvil.PerformanceWarning, match="please report this bug"):
        got = jitted(x, 2.0)
    np.testing.assert_array_equal(got, fn(x, 2.0))
    assert "lowered code failed to compile" in cuvil.explain(jitted).compiles[0].reason
    assert "no_such_helper" not in jitted.source()


def test_strict_mode_makes_the_fallback_an_internal_error(monkeypatch):
    monkeypatch.setattr(program, "Casts", _Broken)
    monkeypatch.setattr(cuvil.config, "strict", True)
    fn = define("""
        def f(x, k):
            return x * k + 2.0
        """)
    with pytest.raises(cuvil.CuvilInternalError, match="Numba refused the lowered code"):
        cuvil.jit(fn)(np.arange(4.0), 2.0)


@pytest.mark.parametrize("strict", [False, True])
def test_an_error_in_the_users_code_is_still_the_users(monkeypatch, strict):
    monkeypatch.setattr(cuvil.config, "strict", strict)
    fn = define("""
        def f(x):
            return x.no_such_method()
        """)
    with pytest.raises(cuvil.CuvilTypeError) as raised:
        cuvil.jit(fn)(np.arange(3.0))
    assert raised.value.lineno == 2


@pytest.mark.parametrize("dtype", ["int8", "int64"])
def test_the_code_as_written_divides_integers_as_numpy(monkeypatch, dtype):
    """The fallback has no types, so `c %= b` was Numba's own array `%=`, which traps on INT_MIN % -1 (SIGFPE:
    the process died) and gives 0 for INT_MIN // -1. It goes through NumPy's loop now; floats and Python ints
    keep their meaning."""
    monkeypatch.setattr(program, "Casts", _Broken)
    fn = define("""
        def f(a, b, k):
            c = a.copy()
            c %= b
            d = a.copy()
            d //= b
            k //= 2
            return c, d, k * 3
        """)
    jitted = cuvil.jit(fn)
    low = np.iinfo(dtype).min
    with pytest.warns(cuvil.PerformanceWarning, match="please report this bug"):
        jitted(np.array([low], dtype), np.dtype(dtype).type(-1), 7)
    for a, b, k in ((np.array([low, 7, low], dtype), np.dtype(dtype).type(-1), -7),
                    (np.array([low, 5], dtype), np.array([-1, 0], dtype), 9),
                    (np.array([-2.5, 7.0]), 1.5, 3)):  # a hit, a miss (an array divisor), a float miss
        with np.errstate(all="ignore"):
            want = fn(a, b, k)
        got = jitted(a, b, k)
        for x, y in zip(got[:2], want[:2]):
            assert x.dtype == y.dtype
            np.testing.assert_array_equal(x, y)
        assert type(got[2]) is type(want[2]) and got[2] == want[2]
