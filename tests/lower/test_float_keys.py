"""A dict's float keys -0.0 and 0.0 are one key, as in Python (lower/float_keys.py). Numba's typed dict compared
the keys' bits: counting values with `d[v] = d.get(v, 0) + 1` over [0.0, -0.0] made two entries, and
`{0.0: 1}[-0.0]` raised KeyError. Every keyed form (store, load, `in`, get, pop, setdefault, literal and
comprehension keys), float64 and float32 keys, first call and guard hit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import jitted

PROGRAMS = {
    "count": """
def f(x):
    d = {}
    for v in x:
        d[v] = d.get(v, 0) + 1
    return len(d), d.get(0.0, -1), d.get(-0.0, -1), 0.0 in d, -0.0 not in d
""",
    "first_index": """
def f(x):
    d = {v: i for i, v in enumerate(x)}
    total = 0
    for v in x:
        total += d[v]
    return len(d), total
""",
    "literal": """
def f(x):
    d = {0.0: 10, 1.5: 20, -2.0: 30}
    s = 0
    for v in x:
        if v in d:
            s += d[v]
    return s, d.setdefault(x[0], 5) if x.shape[0] else -1, len(d)
""",
    "pop": """
def f(x):
    d = {}
    for i in range(x.shape[0]):
        d[x[i]] = i
    n = len(d)
    got = d.pop(0.0, -1)
    return n, got, len(d)
""",
}
VALUES = st.sampled_from([0.0, -0.0, 1.5, -1.5, -2.0, np.inf, -np.inf])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("program", PROGRAMS)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_zero_keys_are_one_key(program, dtype, data):
    fn = jitted(PROGRAMS[program])
    # lengths on both sides of the static-dim threshold (16)
    calls = [np.array(data.draw(st.lists(VALUES, min_size=1, max_size=24), label="x"), dtype) for _ in range(3)]
    for x in calls:  # the first call, guard hits and misses
        assert fn(x) == fn.py_func(x), (program, x)
