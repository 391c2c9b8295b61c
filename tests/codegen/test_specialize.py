"""Static dims become constants only for parameters the body never rebinds (codegen/specialize.py): after
`a = a[1:]`, `len(a)` is no longer the argument's guarded length (a mutation audit survivor folded it)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.runtime.policy import SMALL_DIM
from tests.helpers import define

REBINDINGS = {
    "slice": "a = a[1:]\n    return len(a)",
    "strided shape": "a = a[::2]\n    return a.shape[0]",
    "tuple target": "a, b = a[:-1], a\n    return len(a) * 100 + b.shape[0]",
    "in a branch": "if n > 2:\n        a = a[2:]\n    return a.shape",
}
JITTED = {name: (define(f"def f(a, n):\n    {body}\n"), None) for name, body in REBINDINGS.items()}
# dynamic=False: every length seen stays static (dynamic=None would make the length dynamic at its second value)
JITTED = {name: (fn, cuvil.jit(fn, dynamic=False)) for name, (fn, _) in JITTED.items()}


@pytest.mark.parametrize("name", sorted(REBINDINGS))
@settings(max_examples=6, deadline=None)
@given(n=st.integers(0, SMALL_DIM))
def test_a_rebound_parameter_keeps_its_new_length(name, n):
    plain, jitted = JITTED[name]
    assert jitted(np.zeros(n), n) == plain(np.zeros(n), n)


def test_a_parameter_that_is_not_rebound_is_folded():
    fn = cuvil.jit(define("""
        def f(a):
            b = a[1:]
            return len(a) + len(b)
        """))
    assert fn(np.zeros(5)) == 9
    assert "return 5 + len(b)" in fn.source()
