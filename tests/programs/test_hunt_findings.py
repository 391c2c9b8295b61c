"""Differences from CPython a differential hunt found (loop programs: early returns, bounds, dynamic dims) in
modules other engineers were editing: each pinned as a strict xfail that names its cause, so that the fix turns
it into a passing case (and a strict xfail that starts passing fails the run).
"""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.helpers import define


def outcome(fn, *args):
    """What a call gives: ('ok', result, its type) or ('raise', the builtin exception class, the message)."""
    try:
        result = fn(*args)
    except Exception as exc:  # noqa: BLE001 (compared with the other side's)
        builtin = next(c for c in type(exc).__mro__ if c.__module__ == "builtins")
        message = str(exc).splitlines()[0]
        if isinstance(exc, cuvil.CuvilError):  # "file:line: message": the line is pinned by other tests
            message = message.split(": ", 1)[-1]
        return "raise", builtin.__name__, message
    if isinstance(result, np.float64 | np.int64 | np.bool_ | np.complex128):  # Numba returns these as Python's
        result = result.item()
    return "ok", result, type(result)


def test_a_hoisted_bounds_check_names_the_first_index_out_of_bounds():
    """lower/checks.py hoisted the check of a[i] for i in range(n) before the loop and reported its last index
    (n - 1); Python names the first index out of bounds (len(a)): runtime/checks.span."""
    fn = define("""
        def f(a, n):
            s = 0.0
            for i in range(n):
                s += a[i]
            return s
        """)
    jitted = cuvil.jit(fn)
    for n, size in ((9, 5), (9, 5), (12, 7)):  # first call, guard hit, guard miss
        expected = outcome(fn, np.zeros(size), n)
        assert expected == ("raise", "IndexError", f"index {size} is out of bounds for axis 0 with size {size}")
        assert outcome(jitted, np.zeros(size), n) == expected


def test_an_early_return_keeps_the_type_of_what_it_returns():
    """normalize/single_exit.py joins every return into one variable: an int32 element returned early and a
    Python float at the end both came back as float (lower/returns.py gives each type a slot)."""
    fn = define("""
        def f(a, stop):
            s = 0.0
            for i in range(a.shape[0]):
                if i == stop:
                    return a[i]
                s += 1.0
            return s
        """)
    jitted = cuvil.jit(fn)
    for stop in (2, 2, 9):  # the early return, again, the end
        a = np.arange(6, dtype=np.int32)
        assert outcome(jitted, a, stop) == outcome(fn, a, stop)


@pytest.mark.parametrize("parallel", [False, True])
def test_operands_that_do_not_broadcast_raise_numpys_valueerror_with_dynamic_dims(parallel):
    fn = define("""
        def f(a, b):
            a[1:] = a[:-1] + b[::-1]
            s = 0
            for i in range(a.shape[0]):
                s += a[i]
            return s
        """)
    jitted = cuvil.jit(fn, dynamic=True, parallel=parallel)
    for n in (5, 5, 7):  # first call, guard hit, another length
        expected = outcome(fn, np.arange(n), np.arange(n))
        assert expected[:2] == ("raise", "ValueError")
        assert outcome(jitted, np.arange(n), np.arange(n)) == expected


def test_a_sum_in_an_inner_loop_of_a_parallel_loop_is_kept():
    """Numba's parfor lost a reduction updated in an inner loop under an `if` (here the checks' `if _ok0:`): 0.0
    for 20.0. codegen/parallel.py accumulates such updates into a partial per iteration
    (tests/programs/test_parallel_nested_reductions.py)."""
    fn = define("""
        def f(a):
            s = 0.0
            for i in range(a.shape[0]):
                for j in range(1, a.shape[1]):
                    s += a[i, j] - a[i, j - 1]
            return s
        """)
    jitted = cuvil.jit(fn, parallel=True)
    for shape in ((2, 3), (2, 3), (4, 5)):  # first call, guard hit, guard miss
        a = np.arange(float(np.prod(shape))).reshape(shape) ** 2
        assert outcome(jitted, a) == outcome(fn, a)
