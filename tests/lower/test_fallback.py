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


def test_an_error_in_the_users_code_is_still_the_users():
    fn = define("""
        def f(x):
            return x.no_such_method()
        """)
    with pytest.raises(cuvil.CuvilTypeError) as raised:
        cuvil.jit(fn)(np.arange(3.0))
    assert raised.value.lineno == 2
