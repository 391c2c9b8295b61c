"""Shapes end to end (issue 8 §3): augmented assignment changes what is known, a contradiction on a path the
program may not take runs as Python runs it, `np.newaxis` is a new axis. Compiled == Python, exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define
from tests.runtime.inplace_helpers import check, check_args


def _jit(source: str, **options) -> cuvil.Dispatcher:
    return cuvil.jit(define(source, env={"np": np}), **options)


def test_augmented_assignment_updates_known_dims():
    fn = _jit("""
        def f(a):
            n = 3
            n -= 2
            t = np.zeros((4, n))
            t += a
            return t
        """)
    with pytest.raises(ValueError):
        fn.py_func(np.ones((4, 3)))
    with pytest.raises(cuvil.CuvilTypeError) as info:
        fn(np.ones((4, 3)))
    assert info.value.lineno == 5 and info.value.message == \
        "non-broadcastable output operand with shape (4,1) doesn't match the broadcast shape (4,3)"


def test_augmented_assignment_growing_a_dim_is_no_false_error():
    fn = _jit("""
        def f(x):
            n = 2
            n += 1
            return np.zeros(n) + x
        """)
    check_args(fn, np.ones(3))
    check_args(fn, np.arange(3.0))  # guard hit
    check_args(fn, np.ones(1))  # guard miss: broadcasts
    check(fn, lambda: (np.ones(4),), message=False)  # guard miss: ValueError at run time, as NumPy


@pytest.mark.parametrize("source", [
    """
    def f(a, b):
        if len(a) != len(b):
            return a * 0.0
        return a + b
    """,
    """
    def f(a, b):
        if a.shape[0] != b.shape[0]:
            return a * 0.0
        t = a.copy()
        t += b
        return t
    """,
    """
    def f(a, b):
        assert len(a) == len(b), "lengths differ"
        return a + b
    """,
])
def test_shape_guarded_paths_run(source):
    fn = _jit(source)
    check_args(fn, np.ones(3), np.ones(4))
    check_args(fn, np.arange(3.0), np.arange(4.0))  # guard hit
    check_args(fn, np.arange(3.0), np.arange(3.0))  # guard miss: the other path
    check_args(fn, np.arange(30.0), np.arange(31.0))  # dims dynamic now


def test_shape_guarded_matmul_runs():
    fn = _jit("""
        def f(a, b):
            if a.shape[1] != b.shape[0]:
                return np.zeros((1, 1))
            return a @ b
        """)
    check_args(fn, np.ones((2, 3)), np.ones((4, 2)))
    check_args(fn, np.ones((2, 3)), np.ones((4, 2)) * 2.0)
    check_args(fn, np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(3, 2))


@pytest.mark.parametrize("index", ["x[:, np.newaxis]", "x[np.newaxis, :]", "x[None]", "x[None, :, None]",
                                   "x[np.newaxis, 1:]"])
def test_newaxis_indexing(index):
    fn = _jit(f"""
        def f(x):
            return {index}
        """)
    check_args(fn, np.arange(3.0))
    check_args(fn, np.arange(3.0) + 1.0)
    check_args(fn, np.arange(5.0))


def test_the_rank_check_counts_indices_not_new_axes():
    fn = _jit("""
        def f(x):
            return x[None, 0, 0]
        """)
    for _ in range(2):  # refused again, not cached
        with pytest.raises(cuvil.CuvilIndexError) as info:  # an IndexError, as NumPy's (and a CuvilTypeError)
            fn(np.ones(3))
        assert isinstance(info.value, IndexError) and isinstance(info.value, cuvil.CuvilTypeError)
        assert not isinstance(info.value, ValueError)
        assert info.value.lineno == 2 and info.value.argument == "x"
        assert ("too many indices for array: array is 1-dimensional, but 2 were indexed (argument 'x')"
                in info.value.message)
    assert fn(np.ones((2, 3))).shape == (1,)  # x[None, 0, 0] of a 2-d array


def test_inplace_update_growing_a_symbolic_dim_raises_numpys_error():
    fn = _jit("""
        def f(a):
            t = np.zeros((a.shape[0], 1))
            t += a * 1.0
            return t
        """, dynamic=True)
    check_args(fn, np.ones((3, 1)))
    check_args(fn, np.ones((20, 31)))  # ValueError: non-broadcastable output operand …


# hypothesis: random shapes through programs with shape-dependent branches

_PROGRAMS = [_jit(source) for source in (
    """
    def f(a, b, flag):
        if flag or len(a) != len(b):
            return a * 0.0
        return a + b
    """,
    """
    def f(a, b, flag):
        t = a.copy()
        if flag:
            t += b
        return t
    """,
    """
    def f(a, b, flag):
        n = len(a)
        if flag:
            n += 1
        t = np.zeros(n)
        t += b
        return t
    """,
    """
    def f(a, b, flag):
        n = 2
        n *= len(b)
        if flag:
            return np.zeros(n)
        return np.zeros(n) + np.concatenate((b, b)) + a[:1]
    """,
)]


@settings(max_examples=60)
@given(st.sampled_from(range(len(_PROGRAMS))), st.integers(1, 4), st.integers(1, 4), st.booleans())
def test_random_shapes_and_branches_match_python(program, n, m, flag):
    check(_PROGRAMS[program], lambda: (np.arange(float(n)), np.arange(float(m)) + 1.0, flag), message=False)
