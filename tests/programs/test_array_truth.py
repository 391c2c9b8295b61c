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


PARALLEL = {name: cuvil.jit(fn, parallel=True) for name, fn in FUNCTIONS.items()}


@pytest.mark.parametrize("name", sorted(SPELLINGS))
@settings(max_examples=6, deadline=None)
@given(shape=st.sampled_from([(0,), (1,), (3,), (1, 1), (0, 2)]), value=st.sampled_from([0.0, 2.0]))
def test_an_arrays_truth_is_numpys_under_parallel(name, shape, value):
    a = np.full(shape, value)
    assert _outcome(PARALLEL[name], a) == _outcome(FUNCTIONS[name], a)


def test_a_row_loops_truth_is_numpys():
    """A loop over rows whose test is a row's truth, serial and parallel (the spelling row loops take)."""
    fn = define("def f(m):\n    out = np.zeros(m.shape[0])\n    for i in range(m.shape[0]):\n"
                "        if m[i] > 0.5:\n            out[i] = 1.0\n    return out\n", env={"np": np})
    for jitted in (cuvil.jit(fn), cuvil.jit(fn, parallel=True)):
        for m in (np.full((3, 1), 2.0), np.zeros((3, 1)), np.full((20, 1), 2.0), np.ones((3, 2)), np.ones((2, 0))):
            (kind, got, line), expected = _outcome(jitted, m), _outcome(fn, m)
            assert (kind, line) == (expected[0], expected[2])
            assert np.array_equal(got, expected[1]) if kind == "value" else got == expected[1]
