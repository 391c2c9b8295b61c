"""A name that holds a Python int on one path and a float on another (lower/int_or_float.py): its text and the
entry's return are Python's, int where Python has an int. Numba types it as a float everywhere: after a loop
that ran no iteration `s = 0; for v in x: s += v` printed `0.0` and returned `0.0`, a nested function that
returns `1` on one path and `2.5` on another returned `1.0`, `str(y // 2)` was `'3.0'` for Python's `'3'`.

Each program is compiled serial and `parallel=True`, called with lengths on both sides of the static-dim
threshold (16) and with no element at all (first call, guard hit, guard miss), and its result compared with
plain Python's by repr, which tells an int from a float."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define
from tests.lower.compare import jitted

PROGRAMS = {
    "sum_text": """
def f(x):
    s = 0
    for i in range(x.shape[0]):
        s += x[i]
    return f"{s}", str(s), repr(s), format(s, '.2f'), f"{s * 2:>8}"
""",
    "sum_then_derived": """
def f(x):
    s = 0
    for v in x:
        s += v
    t = s * 2 - 1
    return t
""",
    "returned_and_read": """
def f(x):
    y = 1
    if x.shape[0] > 2:
        y = 2.5
    z = y // 2
    w = -z + abs(y)
    return y, z, w
""",
    "nested_def": """
def f(x):
    def g(v):
        if v > 0:
            return 1
        return 2.5
    y = g(x.shape[0] - 2)
    return y
""",
    "power": """
def f(x):
    k = 2
    if x.shape[0] > 3:
        k = 0.5
    e = x.shape[0] - 3
    return k ** e, k % 3, -k
""",
    "several_returns": """
def f(x):
    best = 0
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
    if x.shape[0] == 1:
        return best + 1
    return best
""",
    "count_or_mean": """
def f(x):
    total = 0
    n = 0
    for v in x:
        if v > 0:
            total += v
            n += 1
    mean = total / n if n else total
    return repr(mean) + "/" + str(total)
""",
}
LENGTHS = st.sampled_from([0, 1, 2, 3, 4, 17, 20])


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
@pytest.mark.parametrize("program", PROGRAMS)
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_int_or_float_as_python(program, parallel, data):
    fn = jitted(PROGRAMS[program], parallel=parallel)
    calls = []  # the first call, a guard hit or miss, another length
    for _ in range(3):
        n = data.draw(LENGTHS, label="length")
        # quarters: sums exact in any order (a parallel sum adds in another order than Python)
        values = st.lists(st.integers(-200, 200).map(lambda v: v / 4), min_size=n, max_size=n)
        calls.append(np.array(data.draw(values, label="x"), np.float64))
    for x in calls:
        assert _python(fn(x)) == _python(fn.py_func(x)), (program, x)


def _python(value):
    """repr, with NumPy's float64 as the Python float Numba boxes it as (a float subclass, equal): the question
    here is int or float."""
    if isinstance(value, tuple):
        return tuple(_python(v) for v in value)
    return repr(float(value) if type(value) is np.float64 else value)


def test_a_parallel_sum_stays_parallel():
    """The counter of a sum is a sum itself: `_nf_s += 1` beside `s += x[i]` keeps the loop parallel."""
    source = "def f(x):\n    s = 0\n    for i in range(x.shape[0]):\n        s += x[i]\n    return str(s)\n"
    fn = cuvil.jit(define(source), parallel=True)
    assert fn(np.ones(40)) == "40.0" and fn(np.ones(0)) == "0"
    assert "parallel" in fn.loops()[0][0], fn.loops()


def test_printed_as_python(capfd):
    source = "def f(x):\n    s = 0\n    for v in x:\n        s += v\n    print(s, s * 2)\n    return s\n"
    fn = cuvil.jit(define(source))
    for x in (np.zeros(0), np.ones(3)):
        fn(x)
        got = capfd.readouterr().out
        fn.py_func(x)
        assert got == capfd.readouterr().out


@pytest.mark.parametrize("body", [
    "a, b = 1, 2.5\n    if x.shape[0]:\n        a = b\n    return a * 1",  # unpacked: not followed
    "m = 0\n    for v in x:\n        m = max(m, v)\n    return m",  # max(): Numba's float, as before
])
def test_what_is_not_followed_keeps_numbas_float(body):
    """Values this pass does not follow keep what Numba gives (a float of the same value; docs/semantics.md):
    pinned, so that following them one day shows here."""
    fn = cuvil.jit(define(f"def f(x):\n    {body}\n"), dynamic=True)  # no branch decided by a static dim
    got, expected = fn(np.zeros(0)), fn.py_func(np.zeros(0))
    assert got == expected and type(got) is not type(expected), (got, expected)
