"""In-place updates mean what they mean in NumPy: as if the value were copied first when it overlaps the target,
shapes checked with NumPy's messages, the value evaluated once, `**=` in place. Compiled == Python, exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuvil
from tests.helpers import define
from tests.runtime.inplace_helpers import check, check_args


def _jit(source: str, **options) -> cuvil.Dispatcher:
    return cuvil.jit(define(source, env={"np": np}), **options)


# overlapping operands (issue 8 §2)


def test_overlapping_inplace_transpose_reads_the_old_values():
    fn = _jit("""
        def f(a):
            a += a.T
            return a
        """)
    outcome = check_args(fn, np.array([[0.0, 1.0], [2.0, 3.0]]))
    assert outcome[1].tolist() == [[0.0, 3.0], [3.0, 6.0]]
    check_args(fn, np.arange(9.0).reshape(3, 3))  # guard hit: the code reads no dim, so none is guarded
    check_args(fn, np.arange(16).reshape(4, 4))  # guard miss: another dtype
    assert len(cuvil.explain(fn).compiles) == 2


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "//=", "%=", "/="])
def test_overlapping_inplace_shifted_slices(op):
    fn = _jit(f"""
        def f(x):
            x[1:] {op} x[:-1]
            return x
        """)
    outcome = check_args(fn, np.arange(1.0, 6.0))
    if op == "+=":
        assert outcome[1].tolist() == [1.0, 3.0, 5.0, 7.0, 9.0]
    check_args(fn, np.arange(2.0, 7.0))
    check_args(fn, np.arange(1.0, 30.0))


def test_overlapping_inplace_reversed_view():
    fn = _jit("""
        def f(x):
            r = x[::-1]
            r += x
            return x
        """)
    assert check_args(fn, np.arange(5.0))[1].tolist() == [4.0] * 5
    check_args(fn, np.arange(5.0) * 3.0)
    check_args(fn, np.arange(6, dtype=np.int64))


def test_overlapping_inplace_arguments_at_run_time():
    fn = _jit("""
        def f(t, a):
            t += a
            return t
        """)

    def shifted(n, dtype=np.float64):
        return lambda: (lambda buf: (buf[1:], buf[:-1]))(np.arange(n, dtype=dtype))

    assert check(fn, shifted(6))[1].tolist() == [1.0, 3.0, 5.0, 7.0, 9.0]
    check(fn, lambda: (np.arange(5.0), np.arange(5.0) + 1.0))  # guard hit, no overlap
    check(fn, lambda: (lambda buf: (buf[:-1], buf[1:]))(np.arange(6.0)))  # guard hit, overlap the other way
    check(fn, shifted(40))  # guard hit: the code reads no dim, so none is guarded
    check(fn, lambda: (lambda buf: (buf, buf))(np.arange(4.0)))  # the same array: no copy needed, same result
    assert len(cuvil.explain(fn).compiles) == 1
    check(fn, shifted(7, np.float32))  # guard miss: another dtype
    assert len(cuvil.explain(fn).compiles) == 2


def test_overlapping_inplace_in_a_callee():
    helper = define("""
        def accumulate(t, a):
            t += a
        """)
    fn = cuvil.jit(define("""
        def f(x):
            accumulate(x[1:], x[:-1])
            return x
        """, env={"accumulate": helper}))
    assert check_args(fn, np.arange(5.0))[1].tolist() == [0.0, 1.0, 3.0, 5.0, 7.0]


def test_overlapping_inplace_broadcast_row():
    fn = _jit("""
        def f(a):
            a += a[0]
            return a
        """)
    assert check_args(fn, np.arange(6.0).reshape(3, 2))[1].tolist() == [[0.0, 2.0], [2.0, 4.0], [4.0, 6.0]]


def test_assignment_into_overlapping_view():
    fn = _jit("""
        def f(x, a):
            x[1:] = x[:-1]
            a[:] = a.T
            x[::-1] = x
            return x, a
        """)
    check_args(fn, np.arange(5.0), np.arange(9.0).reshape(3, 3))
    check_args(fn, np.arange(5.0) + 1.0, np.arange(9.0).reshape(3, 3))
    check_args(fn, np.arange(7.0), np.arange(16.0).reshape(4, 4))


def test_ufunc_output_overlapping_its_inputs():
    fn = _jit("""
        def f(x, a):
            np.add(x[1:], x[:-1], x[1:])
            np.add(a, a.T, a)
            np.multiply(a, a[0], a)
            np.negative(x[::-1], x)
            return x, a
        """)
    check_args(fn, np.arange(5.0), np.arange(4.0).reshape(2, 2))
    check_args(fn, np.arange(5.0) * 2.0, np.arange(4.0).reshape(2, 2))
    check_args(fn, np.arange(9.0), np.arange(9.0).reshape(3, 3))


# shapes


@pytest.mark.parametrize(("target", "value"), [((3,), (4,)), ((4, 1), (4, 3)), ((3,), (1, 3)), ((2, 3), (3, 2)),
                                               ((0,), (2,)), ((2, 1, 3), (4, 3))])
def test_inplace_shape_mismatch_raises_numpys_error(target, value):
    fn = _jit("""
        def f(t, a):
            t += a
            return t
        """, dynamic=True)
    outcome = check_args(fn, np.zeros(target), np.ones(value))
    assert outcome[0] == "raised" and outcome[1][0] is ValueError


# the value is evaluated once


def test_inplace_value_evaluated_once():
    bump = define("""
        def bump(c):
            c[0] += 1.0
            return c * 2.0
        """)
    fn = cuvil.jit(define("""
        def f(a, c):
            a += bump(c)
            return a
        """, env={"bump": bump}))
    check_args(fn, np.zeros(3), np.zeros(3))
    check_args(fn, np.ones(3), np.ones(3))
    check_args(fn, np.zeros((2, 3)), np.zeros(3))
    assert "    a += inplace_value(a, bump(c), at=2)  # L2\n" in fn.source()  # at: the line its error is raised at


def test_inplace_target_index_evaluated_once():
    pick = define("""
        def pick(c):
            c[0] += 1
            return c[0]
        """)
    fn = cuvil.jit(define("""
        def f(x, c):
            x[pick(c):] += x[:2]
            return x
        """, env={"pick": pick}))
    check_args(fn, np.arange(5.0), np.array([2]))
    check_args(fn, np.arange(5.0), np.array([0]))


# **= updates the caller's array


def test_power_assign_updates_the_callers_array():
    fn = _jit("""
        def f(a, n):
            a **= n
            return a
        """)
    check_args(fn, np.arange(5.0), 2.5)
    check_args(fn, np.arange(5.0), 0.5)
    check_args(fn, np.arange(5), 2)
    check_args(fn, np.arange(5), -1)  # NumPy: ValueError, integers to negative integer powers


def test_power_assign_on_a_scalar_rebinds():
    fn = _jit("""
        def f(x, n):
            s = x
            s **= n
            return s
        """)
    check_args(fn, 2.0, 0.5)
    check_args(fn, 3.0, 2.0)
    check_args(fn, 0.0, -1.0)  # ZeroDivisionError, as Python


# hypothesis: random views of one buffer, as both target and value, compared with NumPy

_OPS = {op: _jit(f"""
        def f(t, v):
            {op}
            return t
        """, dynamic=True) for op in ("t += v", "t -= v", "t *= v", "np.add(t, v, t)", "np.subtract(v, t, t)")}


@st.composite
def _view_1d(draw, n: int, length: int | None = None):
    """A slice of a buffer of `n` elements (of `length` elements, when given and possible)."""
    step = draw(st.sampled_from([1, 2, 3, -1, -2, -3]))
    if length is None:
        start, stop = draw(st.integers(0, n)), draw(st.integers(0, n))
        return slice(start, stop, step) if step > 0 else slice(n - 1 - start, n - 1 - stop, step)
    span = (length - 1) * abs(step)
    if length == 0 or span >= n:
        return slice(0, 0, 1) if length == 0 else None
    first = draw(st.integers(0, n - 1 - span))
    return slice(first, first + span + 1, step) if step > 0 else slice(first + span, (first - 1) if first else None,
                                                                        step)


@given(st.data(), st.integers(1, 12), st.sampled_from(list(_OPS)), st.sampled_from([np.float64, np.int64]))
def test_overlapping_views_1d_match_numpy(data, n, op, dtype):
    target = data.draw(_view_1d(n))
    size = len(range(n)[target])
    value = data.draw(st.one_of(_view_1d(n, size), _view_1d(n), st.just(slice(0, 1, 1))))
    if value is None:
        value = target

    def make():
        buf = np.arange(1, n + 1, dtype=dtype)
        return buf[target], buf[value]

    check(_OPS[op], make, message=op.startswith("t "))  # a ufunc's shape error lists its operands otherwise


@given(st.data(), st.integers(1, 5), st.sampled_from(list(_OPS)))
def test_overlapping_views_2d_match_numpy(data, n, op):
    h, w = data.draw(st.integers(1, n)), data.draw(st.integers(1, n))
    r0, c0 = data.draw(st.integers(0, n - h)), data.draw(st.integers(0, n - w))
    flip_t = data.draw(st.booleans())
    kind = data.draw(st.sampled_from(["same", "transposed", "row", "reversed"]))
    r1, c1 = data.draw(st.integers(0, n - h)), data.draw(st.integers(0, n - w))
    r2, c2 = data.draw(st.integers(0, n - w)), data.draw(st.integers(0, n - h))
    row = data.draw(st.integers(0, n - 1))

    def make():
        buf = np.arange(1.0, n * n + 1.0).reshape(n, n)
        t = buf[r0:r0 + h, c0:c0 + w]
        t = t[::-1] if flip_t else t
        if kind == "same":
            v = buf[r1:r1 + h, c1:c1 + w]
        elif kind == "transposed":
            v = buf[r2:r2 + w, c2:c2 + h].T
        elif kind == "row":
            v = buf[row, c1:c1 + w]
        else:
            v = buf[r1:r1 + h, c1:c1 + w][::-1, ::-1]
        return t, v

    check(_OPS[op], make, message=op.startswith("t "))


_SLICED = _jit("""
    def f(buf, a, b, s, c, d, u):
        buf[a:b:s] += buf[c:d:u]
        return buf
    """, dynamic=True)


@given(st.integers(1, 10), st.integers(-12, 12), st.integers(-12, 12), st.sampled_from([1, 2, -1, -2]),
       st.integers(-12, 12), st.integers(-12, 12), st.sampled_from([1, 2, -1, -2]))
def test_overlapping_slices_inside_the_function_match_numpy(n, a, b, s, c, d, u):
    check(_SLICED, lambda: (np.arange(float(n)), a, b, s, c, d, u))
