"""An array where Python takes a truth value: one element is its truth, any other size NumPy's ValueError at the
user's line (an empty array's words of its own). Numba took an empty array as False and raised the rest from its
own source, with no line of the user's."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

SPELLINGS = {
    "if": "def f(a):\n    if a > 0.5:\n        return 1\n    return 0\n",
    "while": "def f(a):\n    n = 0\n    b = a\n    while b:\n        b = b - 1.0\n        n += 1\n    return n\n",
    "not": "def f(a):\n    return not a\n",
    "conditional": "def f(a):\n    return 2.0 if a.sum(axis=0) else 3.0\n",
}
FUNCTIONS = {name: define(source) for name, source in SPELLINGS.items()}
JITTED = {name: cuvil.jit(fn) for name, fn in FUNCTIONS.items()}


def _outcome(fn, a):
    filename = getattr(fn, "py_func", fn).__code__.co_filename
    try:
        return "value", fn(a), None
    except ValueError as exc:
        lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
        return "error", str(exc), lines[-1:]


@pytest.mark.parametrize("name", sorted(SPELLINGS))
@settings(max_examples=12, deadline=None)
@given(shape=st.sampled_from([(0,), (1,), (2,), (1, 1), (3, 1), (0, 2), (1, 1, 1)]), value=st.sampled_from([0.0, 2.0]))
def test_an_arrays_truth_is_numpys(name, shape, value):
    a = np.full(shape, value)
    fn = FUNCTIONS[name]
    assert _outcome(JITTED[name], a) == _outcome(fn, a)


@pytest.mark.parametrize("dynamic", [None, True, False])
def test_every_call_gives_numpys_answer(dynamic):
    """First call, guard hits and misses, sizes on both sides of the static-dim threshold (16)."""
    fn = define(SPELLINGS["if"])
    jitted = cuvil.jit(fn, dynamic=dynamic)
    for a in (np.full(1, 2.0), np.full(1, 0.0), np.full(4, 2.0), np.zeros(0), np.full(40, 1.0), np.full((1, 1), 1.0)):
        assert _outcome(jitted, a) == _outcome(fn, a)
