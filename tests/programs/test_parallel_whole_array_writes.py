"""`parallel=True` leaves a whole-array write that overlaps what it reads with NumPy's answer.

A function with one parallel loop is compiled by Numba with `parallel=...`, and Numba then also rewrites the
whole-array writes it finds (`a[:] = a[::-1] + 1`, `a[1:] = a[:-1]`, `a[1:] += a[:-1] * 2`) into loops that write
the target element by element while they read the value: where the two overlap, later elements read what earlier
ones wrote (found by a differential hunt: `a[:] = a[::-1] + 1; for i in range(n): a[i] = a[i] * 2` gave
[4, 6, 8, 10, 12, 10, 8, ...] for NumPy's [20, 18, 16, ...]). Each case runs first call, guard hit and guard miss
(another length), with int64 elements so that the parallel sum is exact.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

# Each statement overlaps its own target; the loop after it is the parallel one.
STATEMENTS = {
    "reversed_plus_one": "a[:] = a[::-1] + 1",
    "shift_right_copy": "a[1:] = a[:-1]",
    "inplace_shift_scaled": "a[1:] += a[:-1] * 2",
    "reversed_argument": "a[:] = b[::-1] * 2",
}

# The arguments of each call, built afresh from one buffer: the same array twice, views that overlap partly.
ARGUMENTS = {
    "same_array": lambda buf: (buf, buf),
    "shifted_views": lambda buf: (buf[1:], buf[:-1]),
    "separate": lambda buf: (buf, buf.copy()),
}


def program(statement: str):
    return define(f"""
        import numpy as np

        def f(a, b):
            {statement}
            s = 0
            for i in range(a.shape[0]):
                a[i] = a[i] * 2 + b[0]
                s += a[i]
            return s
        """, env={"np": np})


def assert_as_python(fn, jitted, make_args, n):
    expected_args, got_args = make_args(np.arange(n, dtype=np.int64)), make_args(np.arange(n, dtype=np.int64))
    expected = fn(*expected_args)
    got = jitted(*got_args)
    assert type(got) is int and got == expected  # an int64 sum comes back as a Python int
    for want, have in zip(expected_args, got_args):
        assert have.dtype == want.dtype and have.shape == want.shape
        np.testing.assert_array_equal(have, want)


@pytest.mark.parametrize("statement", STATEMENTS.values(), ids=STATEMENTS.keys())
def test_an_overlapping_whole_array_write_before_a_parallel_loop(statement):
    fn = program(statement)
    jitted = cuvil.jit(fn, parallel=True)
    # first call, guard hit, guard miss (another length), each argument kind: one compile per length
    for n, arguments in ((9, "separate"), (9, "same_array"), (14, "shifted_views"), (14, "separate")):
        assert_as_python(fn, jitted, ARGUMENTS[arguments], n)
    assert "parallel" in cuvil.explain(jitted).loops[0][0]  # the loop after the write still runs in parallel


REVERSED = program(STATEMENTS["reversed_argument"])
REVERSED_JIT = cuvil.jit(REVERSED, parallel=True)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 40), offset=st.integers(0, 3), arguments=st.sampled_from(sorted(ARGUMENTS)))
def test_a_write_reading_a_reversed_view_is_numpys(n, offset, arguments):
    make = ARGUMENTS[arguments]
    assert_as_python(REVERSED, REVERSED_JIT, lambda buf: make(buf[offset:]), n + offset)


@pytest.mark.parametrize("n", [6, 5])  # shapes that fit, shapes that do not (NumPy's ValueError)
def test_an_expression_assigned_into_a_slice_is_checked_against_the_slice(n):
    """The fits-the-target check before `a[1:] = a[::-1][1:] + b` reads the value's shape, in parentheses: printed
    bare (`a[::-1][1:] + b.shape`) the generated module did not compile. First call, hit, miss."""
    fn = define("""
        def f(a, b):
            a[1:] = a[::-1][1:] + b
            return a
        """)
    jitted = cuvil.jit(fn)
    for size in (6, 6, 9):
        expected_a, got_a = np.arange(size, dtype=np.int64), np.arange(size, dtype=np.int64)
        b = np.ones(n - 1 + size - 6, dtype=np.int64)
        try:
            expected = fn(expected_a, b)
        except ValueError as exc:
            with pytest.raises(ValueError) as got:
                jitted(got_a, b)
            assert str(got.value).splitlines()[0].endswith(str(exc))
            continue
        np.testing.assert_array_equal(jitted(got_a, b), expected)
        np.testing.assert_array_equal(got_a, expected_a)
