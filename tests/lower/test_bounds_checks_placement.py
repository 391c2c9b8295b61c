"""Where BoundsChecks (lower/checks.py) puts each index check: proved and removed, hoisted before the loop, or
kept at the access. The placement is what makes checked loops as fast as unchecked ones (issue 10), and a
wrong one either costs a check per element or evaluates a loop's range again where that is not safe; each
case is counted by cuvil.explain and the result compared with Python's. Written against surviving mutants of
lower/checks.py (tests/MUTATION.md)."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.helpers import define


def _counts(fn) -> str:
    line = next(t for t in str(cuvil.explain(fn)).splitlines() if t.strip().startswith("checks "))
    return line.split(":", 1)[1].split(";")[0].strip()


def _run(source: str, *args, **options):
    py = define(source)
    fn = cuvil.jit(py, dynamic=True, **options)
    got, want = fn(*args), py(*args)
    assert got == want  # (the type of a float loop sum is a known difference: Python's np.float64, a float here)
    return fn


X = np.arange(6.0)


def test_a_descending_range_with_a_literal_step_hoists_its_checks():
    """`range(n - 1, -1, -1)`: the step's sign is read through the unary minus, so x[i] is checked at both
    ends before the loop, not at each element."""
    fn = _run("""
    def rev(x):
        s = 0.0
        for i in range(x.shape[0] - 1, -1, -1):
            s += x[i]
        return s
    """, X)
    assert _counts(fn) == "0 index checks, 1 hoisted out of loops, 0 proved in bounds and removed"


def test_a_negated_name_as_step_keeps_the_check_at_the_access():
    """An unknown step (`-k`) gives no last value to check before the loop; under overflow="wrap" the negation
    reaches the checks as it is written."""
    fn = _run("""
    def neg(x, k):
        s = 0.0
        for i in range(x.shape[0] - 1, -1, -k):
            s += x[i]
        return s
    """, X, 2, overflow="wrap")
    assert _counts(fn) == "1 index checks, 0 hoisted out of loops, 0 proved in bounds and removed"


def test_a_loop_over_len_of_the_array_is_proved():
    fn = _run("""
    def lenloop(x):
        s = 0.0
        for i in range(len(x)):
            s += x[i]
        return s
    """, X)
    assert _counts(fn) == "0 index checks, 0 hoisted out of loops, 1 proved in bounds and removed"


def test_an_index_fixed_in_the_inner_loop_is_checked_once_before_it():
    fn = _run("""
    def outer(x, m, n):
        s = 0.0
        for j in range(m):
            for i in range(n):
                s += x[j] * i
        return s
    """, X, 4, 3)
    assert _counts(fn) == "0 index checks, 1 hoisted out of loops, 0 proved in bounds and removed"


def test_an_index_read_twice_is_hoisted_once():
    fn = _run("""
    def twice(x, n):
        s = 0.0
        for i in range(n):
            s += x[i] * x[i]
        return s
    """, X, 4)
    assert _counts(fn) == "0 index checks, 2 hoisted out of loops, 0 proved in bounds and removed"
    tests = [line.split("#")[0].strip() for line in fn.source().splitlines() if "outside(" in line]
    assert tests == ["if 0 < n and outside(0, n - 1, x.shape[0]):"]  # the loop's indices, 0 … n - 1, once


@pytest.mark.parametrize("overflow", ["raise", "wrap"])
def test_a_range_over_arithmetic_hoists_its_checks(overflow):
    """The stop is arithmetic: plain (shapes and literals are bounded), or Python-int checked calls (`n * m`,
    nested), which are still pure and cheap to evaluate again before the loop."""
    fn = _run("""
    def shp(x, n, m):
        s = 0.0
        for i in range(x.shape[0] - 1):
            s += x[i + 1]
        for i in range(n * m - 1):
            s += x[i]
        return s
    """, X, 2, 3, overflow=overflow)
    assert _counts(fn) == "0 index checks, 2 hoisted out of loops, 0 proved in bounds and removed"


def test_a_stop_read_from_an_array_is_not_evaluated_again_before_the_loop():
    """`range(a[k])`: hoisting would read `a[k]` before the loop, ahead of its own bounds check; so x[i] keeps
    its check, and an `a[k]` out of bounds raises Python's IndexError."""
    source = """
    def viaidx(a, k, x):
        s = 0.0
        for i in range(a[k]):
            s += x[i]
        return s
    """
    fn = _run(source, np.array([1, 2, 3]), 1, X)
    assert _counts(fn) == "2 index checks, 0 hoisted out of loops, 0 proved in bounds and removed"
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        fn(np.array([1, 2, 3]), 3, X)


def bump(c):
    c[0] += 1
    return c[0]


def sum_up_to_a_bump(x, c):
    s = 0.0
    for i in range(bump(c)):
        s += x[i]
    return s


def test_a_stop_that_calls_a_function_is_evaluated_once():
    """`range(bump(c))`: only arithmetic counts as cheap to evaluate again; a call may have effects (here it
    counts its calls in `c`), so x[i] keeps its check and `bump` runs once per loop, as in Python."""
    fn = cuvil.jit(sum_up_to_a_bump, dynamic=True)
    for start in (2, 3):  # a first call, a guard hit
        c, c_py = np.array([start]), np.array([start])
        assert fn(X, c) == sum_up_to_a_bump(X, c_py)
        assert c.tolist() == c_py.tolist() == [start + 1]
    assert _counts(fn) == "1 index checks, 0 hoisted out of loops, 0 proved in bounds and removed"


@pytest.mark.parametrize("dynamic", [False, None])
def test_a_loop_over_a_static_dim_is_proved_in_bounds(dynamic):
    """A variant specialized on x.shape == (6,) (or p.shape[1] == 3) has `range(6)` where the user wrote
    `range(x.shape[0])` (codegen/specialize.py); its indices are still proved, not checked at each element:
    the static dim is guarded. A call with another size is a new variant, which raises as Python does."""
    source = """
    def rows(p, w):
        s = 0.0
        for i in range(p.shape[0]):
            for j in range(p.shape[1]):
                s += p[i, j] * w[j]
        return s
    """
    py = define(source)
    fn = cuvil.jit(py, dynamic=dynamic)
    p, w = np.arange(12.0).reshape(4, 3), np.ones(3)
    for args in ((p, w), (p, w), (p[:, :2], w[:2])):  # first call, guard hit, guard miss
        assert fn(*args) == py(*args)
    # the last variant: every dim static (dynamic=False), or the dims the miss changed dynamic (w[j] hoisted)
    proved = 3 if dynamic is False else 2
    assert _counts(fn) == f"0 index checks, {3 - proved} hoisted out of loops, {proved} proved in bounds and removed"
    with pytest.raises(IndexError, match="^index 2 is out of bounds for axis 0 with size 2$"):
        fn(p, w[:2])
