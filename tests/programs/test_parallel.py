"""`parallel=True` never changes an answer: each reproducer of a class of wrong parallelization, run several
times compiled and compared with CPython (results, what was written into the arguments, exception types).

Arguments are built afresh for every run by a factory, so views of one buffer stay views of one buffer.
"""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

RUNS = 4  # a race shows up in most runs at these sizes; one clean run proves little
N = 20_000


def same(expected, actual, path="result"):
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected), path
        for k, (e, a) in enumerate(zip(expected, actual)):
            same(e, a, f"{path}[{k}]")
    elif isinstance(expected, np.ndarray):
        assert isinstance(actual, np.ndarray), path
        assert (actual.dtype, actual.shape) == (expected.dtype, expected.shape), path
        assert np.array_equal(actual, expected, equal_nan=True), f"{path}: {actual} != {expected}"
    else:
        assert float(actual) == float(expected) or (math.isnan(expected) and math.isnan(actual)), \
            f"{path}: {actual!r} != {expected!r}"


def check(fn, make_args, runs=RUNS, **options):
    """`fn` compiled with parallel=True equals `fn` in CPython, `runs` times over, writes included."""
    jitted = cuvil.jit(fn, parallel=True, **options)
    py_args = make_args()
    try:
        expected, raised = fn(*py_args), None
    except Exception as exc:  # noqa: BLE001 (the compiled function must raise the same)
        expected, raised = None, exc
    for _ in range(runs):
        args = make_args()
        if raised is not None:
            with pytest.raises(type(raised)) as got:
                jitted(*args)
            assert type(got.value) is type(raised)
            continue
        same(expected, jitted(*args))
        same(tuple(a for a in py_args if isinstance(a, np.ndarray)),
             tuple(a for a in args if isinstance(a, np.ndarray)), "arguments")
    return jitted


def loops(jitted) -> list[str]:
    return cuvil.explain(jitted).loops[0]


# -------------------------------------------------------------------------- views alias their base

VIEWS = {
    "slice": "b = a[1:]",
    "same": "b = a",
    "reversed": "b = a[::-1]",
    "full_slice": "b = a[:]",
    "reshape": "b = a.reshape(a.shape)",
    "ravel": "b = np.ravel(a)",
    "tuple_unpack": "b, c = a, 0",
    "ternary": "b = a if c > 0 else a",
}


@pytest.mark.parametrize("view", VIEWS.values(), ids=VIEWS.keys())
def test_view_aliases_its_base(view):
    fn = define(f"""
        def f(a, c):
            {view}
            for i in range(len(b) - 1):
                b[i] = a[i + 1] + 1.0
            return a
        """, env={"np": np})
    jitted = check(fn, lambda: (np.arange(N, dtype=np.float64), 1))
    assert loops(jitted)[0].startswith("f L3: serial")


def test_view_returned_by_a_helper_aliases_its_base():
    env = {"np": np}
    helper = define("""
        def tail(x):
            return x[1:]
        """, env=env)
    env["tail"] = helper
    fn = define("""
        def f(a):
            b = tail(a)
            for i in range(len(b)):
                b[i] = a[i] + 1.0
            return a
        """, env=env)
    check(fn, lambda: (np.arange(N, dtype=np.float64),))


def test_renamed_output_aliases_the_output():
    fn = define("""
        def f(x, out):
            o2 = out
            for i in range(1, len(x)):
                o2[i] = out[i - 1] + x[i]
            return out
        """)
    check(fn, lambda: (np.ones(N), np.zeros(N)))


# ---------------------------------------------------------------- arguments may alias each other

def shift_add(a, b):
    for i in range(len(a)):
        a[i] = b[i] + 1.0
    return a


@pytest.mark.parametrize("make", [
    lambda: (lambda buf: (buf, buf))(np.arange(N, dtype=np.float64)),
    lambda: (lambda buf: (buf[1:], buf[:-1]))(np.arange(N + 1, dtype=np.float64)),
    lambda: (lambda buf: (buf[:-1], buf[1:]))(np.arange(N + 1, dtype=np.float64)),
    lambda: (lambda buf: (buf[::2], buf[1::2]))(np.arange(2 * N, dtype=np.float64)),
], ids=["same", "shifted_forward", "shifted_back", "interleaved"])
def test_arguments_that_overlap_run_serially(make):
    check(shift_add, make)


def test_distinct_arguments_stay_parallel():
    jitted = check(shift_add, lambda: (np.zeros(N), np.arange(N, dtype=np.float64)))
    assert "parallel" in loops(jitted)[0]


def test_an_argument_whose_rows_overlap_itself_runs_serially():
    def rows(m, v):
        for i in range(m.shape[0]):
            m[i, 0] = m[i, 1] + v[i]
        return m

    def make():
        buf = np.arange(N + 1, dtype=np.float64)
        return np.lib.stride_tricks.as_strided(buf, shape=(N, 2), strides=(8, 8)), np.ones(N)

    check(rows, make)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 40), st.integers(1, 3), st.integers(0, 40), st.integers(1, 3), st.booleans(),
       st.booleans())
def test_any_two_views_of_one_buffer(start_a, step_a, start_b, step_b, rev_a, rev_b):
    """Whatever two strided views of one buffer are passed, the answer is Python's."""
    length = 30

    def make():
        buf = np.arange(200, dtype=np.float64)
        a = buf[start_a:start_a + step_a * length:step_a]
        b = buf[start_b:start_b + step_b * length:step_b]
        return (a[::-1] if rev_a else a), (b[::-1] if rev_b else b)

    check(shift_add, make, runs=2)


# ------------------------------------------------------------------------------ calls have effects

def test_ufunc_writing_the_next_slice_is_a_write():
    fn = define("""
        def f(a):
            for i in range(len(a) - 1):
                np.add(a[i:i + 1], 1.0, a[i + 1:i + 2])
            return a
        """, env={"np": np})
    check(fn, lambda: (np.zeros(2000),))


def test_ufunc_with_the_output_as_out_is_a_write():
    fn = define("""
        def f(out, x):
            for i in range(len(x)):
                np.add(out, x[i], out)
            return out
        """, env={"np": np})
    check(fn, lambda: (np.zeros(3), np.arange(2000, dtype=np.float64)))


def test_a_numba_helper_that_writes_is_a_write():
    @numba.njit
    def bump_next(a, i):
        a[i + 1] = a[i] + 1.0

    fn = define("""
        def f(a):
            for i in range(len(a) - 1):
                bump_next(a, i)
            return a
        """, env={"bump_next": bump_next})
    jitted = check(fn, lambda: (np.zeros(N),))
    assert "serial" in loops(jitted)[0]


def test_a_plain_helper_that_writes_its_argument_is_analysed():
    env = {}
    env["bump_next"] = define("""
        def bump_next(a, i):
            a[i + 1] = a[i] + 1.0
        """)
    fn = define("""
        def f(a):
            for i in range(len(a) - 1):
                bump_next(a, i)
            return a
        """, env=env)
    check(fn, lambda: (np.zeros(N),))



HELPER_CALLS = {
    "positional": "put(a, i, 1.0, out)",
    "keyword past a default": "put(a, i, out=out)",
    "keywords reordered": "put(out=out, i=i, a=a)",
    "defaults between": "put(a, i, out=out, k=1.0)",
}


def _calling_put(call: str):
    """A loop that writes through `put`, a helper with a defaulted parameter before its output, called as `call`."""
    env = {"put": define("""
        def put(a, i, k=1.0, out=None):
            out[i + 1] = a[i] * k
        """)}
    return define(f"""
        def f(a, out):
            for i in range(len(a) - 1):
                {call}
            return out
        """, env=env)


@pytest.mark.parametrize("call", HELPER_CALLS.values(), ids=HELPER_CALLS.keys())
def test_a_helpers_write_through_any_argument_form_is_a_write(call):
    """A write through an argument passed by keyword past a parameter left to its default was not seen (the
    binding stopped at the default): with the checks off (nothing may raise), the loop ran in parallel over a
    dependence carried through the aliased arguments."""
    fn = _calling_put(call)
    buffer = np.arange(float(N))
    for make in (lambda: (buffer.copy(),) * 2, lambda: (np.arange(float(N)), np.zeros(N))):  # aliased, distinct
        jitted = check(fn, make, boundscheck=False, overflow="wrap")
    assert "serial" in loops(jitted)[0]

def test_in_place_methods_are_writes():
    fn = define("""
        def f(a, x):
            for i in range(len(x)):
                a.fill(x[i])
            return a
        """)
    check(fn, lambda: (np.zeros(4), np.arange(2000, dtype=np.float64)))


# ------------------------------------------------------------------------------ indices and ranges

def test_negative_indices_wrap_onto_positive_ones():
    def f(a, n):
        for i in range(-n, n):
            a[i] = i
        return a

    jitted = check(f, lambda: (np.zeros(N // 2, np.int64), N // 2))
    check(f, lambda: (np.zeros(N, np.int64), 0))
    assert "serial if i < 0" in loops(jitted)[0]


@pytest.mark.parametrize("spec", ["n - 1, -1, -1", "1, n, 3", "n - 1, 0, -2", "0, n, 1", "3, n"])
def test_ranges_with_steps_run_in_parallel(spec):
    fn = define(f"""
        def f(a, out, n):
            for i in range({spec}):
                out[i] = a[i] * 2.0
            return out
        """)
    jitted = check(fn, lambda: (np.arange(N, dtype=np.float64), np.zeros(N), N))
    assert "parallel" in loops(jitted)[0]


def test_loop_variable_after_the_loop_is_pythons_last_value():
    def f(x, n):
        i = -1
        for i in range(n):
            x[i] = 2.0
        return i

    check(f, lambda: (np.zeros(100_000), 100_000))
    check(f, lambda: (np.zeros(4), 0))  # no iteration: the value before the loop

    def g(x, n):
        i = 7
        for i in range(n - 1, -1, -3):
            x[i] = 1.0
        return i

    check(g, lambda: (np.zeros(N), N))


def test_an_array_made_in_the_loop_and_read_after_it():
    fn = define("""
        def f(a):
            for i in range(len(a)):
                tmp = np.zeros(1)
                tmp[0] = a[i]
            return tmp[0]
        """, env={"np": np})
    check(fn, lambda: (np.arange(1000, dtype=np.float64),))


def test_numba_prange_written_by_the_user_is_a_range():
    def f(a, out):
        for i in numba.prange(len(a)):
            out[i] = a[i] + 1.0
        return out

    jitted = check(f, lambda: (np.arange(N, dtype=np.float64), np.zeros(N)))
    assert "parallel" in loops(jitted)[0]
    serial = cuvil.jit(f)
    same(f(np.arange(5.0), np.zeros(5)), serial(np.arange(5.0), np.zeros(5)))


# ------------------------------------------------------------------------- exceptions in the loop

def test_zero_division_in_a_parallel_loop_raises():
    def f(out, d):
        for i in range(len(out)):
            out[i] = i // d
        return out

    jitted = check(f, lambda: (np.zeros(N, np.int64), 0))
    check(f, lambda: (np.zeros(N, np.int64), 3))
    assert "raises after the loop" in loops(jitted)[0]


def test_the_first_failing_iteration_decides_the_exception():
    """Iteration 5 divides by zero, iterations from 9000 on fail the assertion: Python raises
    ZeroDivisionError, at the first."""
    def f(a, out):
        for i in range(len(a)):
            assert a[i] < 9000.0, "too big"
            out[i] = 1000 // (i - 5)
        return out

    jitted = check(f, lambda: (np.arange(N, dtype=np.float64), np.zeros(N, np.int64)))
    check(f, lambda: (np.arange(N, dtype=np.float64)[::-1].copy(), np.zeros(N, np.int64)))  # now the assertion
    assert "parallel" in loops(jitted)[0]


def test_a_raising_library_call_keeps_the_loop_serial():
    def f(x, out):
        for i in range(len(x)):
            out[i] = math.fmod(x[i], 0.0)
        return out

    jitted = check(f, lambda: (np.ones(100), np.zeros(100)))
    assert loops(jitted)[0].endswith(": math.fmod may raise)")


def test_a_reduction_of_an_empty_row_raises():
    def f(m, out):
        for i in range(m.shape[0]):
            out[i] = np.max(m[i])
        return out

    check(f, lambda: (np.zeros((100, 0)), np.zeros(100)))
    check(f, lambda: (np.arange(300.0).reshape(100, 3), np.zeros(100)))


def test_boundscheck_errors_are_not_lost():
    def f(a, idx, out):
        for i in range(len(idx)):
            out[i] = a[idx[i]]
        return out

    def make():
        idx = np.arange(N)
        idx[77] = N + 5
        return np.arange(N, dtype=np.float64), idx, np.zeros(N)

    check(f, make, boundscheck=True)


# ------------------------------------------------------------------------------- what stays fast

def test_a_scalar_read_besides_its_update_is_a_prefix_sum_not_a_reduction():
    def prefix(a, out):
        s = 0.0
        for i in range(len(a)):
            s += a[i]
            out[i] = s
        return out

    jitted = check(prefix, lambda: (np.ones(N), np.zeros(N)))
    assert "serial" in loops(jitted)[0]


def test_reductions_and_rows_stay_parallel():
    def f(m):
        total = 0.0
        out = np.empty((m.shape[0], 1))
        for i in range(m.shape[0]):
            row = out[i]
            row[0] = 0.0
            for j in range(m.shape[1]):
                row[0] += m[i, j]
            total += row[0]
        return total, out

    jitted = check(f, lambda: (np.ones((2000, 8)),))
    assert loops(jitted)[0].startswith("f L") and "parallel (reduction total" in loops(jitted)[0]


STARTS = (0, 1, 2, 3, 16_000)  # overlapping, interleaved or apart (views of up to 15,000 elements)
LENGTH = 5_000  # long enough that a parallel loop splits it between threads


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(sorted(HELPER_CALLS.values())), st.sampled_from(STARTS), st.integers(1, 3),
       st.sampled_from(STARTS), st.integers(1, 3), st.booleans(), st.booleans())
def test_a_helpers_write_into_any_view_of_its_input(call, start_a, step_a, start_b, step_b, rev_a, rev_b):
    """Whichever argument form passes the output, and whatever two strided views of one buffer the input and the
    output are (overlapping, interleaved, reversed or apart), the answer and the buffer are Python's."""
    fn = _calling_put(call)
    length = LENGTH

    def make():
        buf = np.arange(STARTS[-1] + 3 * length, dtype=np.float64)
        a = buf[start_a:start_a + step_a * length:step_a]
        out = buf[start_b:start_b + step_b * length:step_b]
        return (a[::-1] if rev_a else a), (out[::-1] if rev_b else out)

    jitted = check(fn, make, runs=2, boundscheck=False, overflow="wrap")
    assert "serial" in loops(jitted)[0]  # the views may overlap: nothing proves the iterations independent
