"""A reduction updated inside an `if` or an inner loop of a parallel loop: Numba's parfor dropped such updates
when an inner loop sits under an `if` (a sum of 0.0 for 20.0), and Cuvil's own checks put every statement after
a checked one under `if _ok:`. codegen/parallel.py accumulates nested updates into a partial of the iteration
(`_s_part = 0` … `s += _s_part`). Each program runs serially in Python and with `parallel=True`: the same value
(floats within a reordering's rounding) and dtype, first call / guard hit / guard miss, and the loop is parallel."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

PROGRAMS = {
    "inner_under_if": """
        def f(a, t):
            s = 0.0
            for i in range(a.shape[0]):
                if a[i, 0] > t:
                    for j in range(1, a.shape[1]):
                        s += a[i, j] - a[i, j - 1]
            return s
        """,
    "inner_checked": """
        def f(a, t):
            s = 0.0
            for i in range(a.shape[0]):
                for j in range(1, a.shape[1]):
                    s += a[i, j] * t
            return s
        """,
    "minus_and_times": """
        def f(a, t):
            s = 100.0
            p = 1.0
            for i in range(a.shape[0]):
                if a[i, 0] < t:
                    s -= a[i, 0]
                    for j in range(a.shape[1]):
                        p *= 1.0 + a[i, j] * 1e-3
                else:
                    s -= 1.0
            return s, p
        """,
    "float_and_int": """
        def f(a, t):
            s = 0.0
            c = 0
            for i in range(a.shape[0]):
                for j in range(a.shape[1]):
                    if a[i, j] > t:
                        s += a[i, j]
                        c += 1
            return s, c
        """,
    "top_and_nested": """
        def f(a, t):
            s = 0.0
            for i in range(a.shape[0]):
                s += a[i, 0]
                if a[i, 0] > t:
                    for j in range(a.shape[1]):
                        s += 2.0 * a[i, j]
            return s
        """,
}


def _close(expected, got) -> bool:
    if isinstance(expected, tuple):
        return isinstance(got, tuple) and len(got) == len(expected) and all(map(_close, expected, got))
    if type(expected) is not type(got) and not (isinstance(expected, float) and isinstance(got, float)):
        return False
    if isinstance(expected, int):
        return expected == got
    rtol = 1e-9
    return math.isclose(float(expected), float(got), rel_tol=rtol, abs_tol=1e-6)


@pytest.mark.parametrize("name", list(PROGRAMS))
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_nested_reduction_of_a_parallel_loop(name, data):
    fn = define(PROGRAMS[name], env={"np": np})
    jitted = cuvil.jit(fn, parallel=True)
    rows, cols = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 6))
    for shape in ((rows, cols), (rows, cols), (rows + 3, cols + 1)):  # first call, guard hit, guard miss
        a = data.draw(st.lists(st.floats(-10, 10), min_size=shape[0] * shape[1], max_size=shape[0] * shape[1]))
        a = np.array(a).reshape(shape)
        t = data.draw(st.floats(-5, 5))
        expected, got = fn(a, t), jitted(a, t)
        assert _close(expected, got), (name, shape, expected, got)
    assert re.search(r"loop f L\d+: parallel \(reduction", str(cuvil.explain(jitted))), cuvil.explain(jitted)
