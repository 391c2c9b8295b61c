"""A checked arm of a conditional expression is computed wrapped and its range tested with the condition
(lower/overflow_arms.py, so the choice stays a select): it must raise exactly where the arm taken would not fit —
never for the arm not taken, never a wrapped number."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from bench.kernels.collatz import collatz as collatz_longest

_MIN, _MAX = -(2**63), 2**63 - 1
_K = (_MAX - 1) // 3  # the largest n whose 3 * n + 1 fits
# where each arm below stops fitting: 3n + 1, 5n - 3, 2 - 7n, -(4n) + 9, -3n - 5
_LIMITS = [_K, -_K, _MAX // 5, -1317624576693539400, -(2**61), 2**61, (2**63 - 5) // 3, _MAX, _MIN, 0]
EDGES = st.sampled_from(sorted({v + d for v in _LIMITS for d in range(-3, 4) if _MIN <= v + d <= _MAX}))
INT64 = st.integers(_MIN, _MAX) | EDGES


def walk(n, k):
    steps = 0
    while n != 1 and steps < k:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return n


def both_arms(n):
    return 5 * n - 3 if n > 0 else 2 - 7 * n


def taken_when_true(n):
    return -(4 * n) + 9 if n % 2 == 1 else n


def negative_slope(n):
    return -3 * n - 5 if n > 0 else n


def _checked(fn, *args):
    """CPython's answer where every intermediate value of the arm taken fits in int64, else OverflowError."""
    try:
        return fn(*args, fits=_fits)
    except OverflowError:
        return OverflowError


def _fits(v: int) -> int:
    if not _MIN <= v <= _MAX:
        raise OverflowError
    return v


def _walk(n, k, fits):
    steps = 0
    while n != 1 and steps < k:
        n = n // 2 if n % 2 == 0 else fits(fits(3 * n) + 1)
        steps += 1
    return n


def _both_arms(n, fits):
    return fits(fits(5 * n) - 3) if n > 0 else fits(2 - fits(7 * n))


def _taken_when_true(n, fits):
    return fits(fits(-fits(4 * n)) + 9) if n % 2 == 1 else n


def _negative_slope(n, fits):
    return fits(fits(-3 * n) - 5) if n > 0 else n


def _same_three_times(jitted, expected, *args):
    for _ in range(3):  # first call, then the compiled variant again
        if expected is OverflowError:
            with pytest.raises(OverflowError, match="int64 overflow"):
                jitted(*args)
        else:
            got = jitted(*args)
            assert got == expected and type(got) is int


WALK, BOTH, TRUE_ARM, SLOPE = (cuvil.jit(f) for f in (walk, both_arms, taken_when_true, negative_slope))


@settings(max_examples=150)
@given(n=INT64, k=st.integers(0, 4))
def test_walk_raises_only_where_the_odd_arm_does_not_fit(n, k):
    _same_three_times(WALK, _checked(_walk, n, k), n, k)


@settings(max_examples=300)
@given(n=INT64)
def test_both_arms_checked(n):
    _same_three_times(BOTH, _checked(_both_arms, n), n)
    _same_three_times(TRUE_ARM, _checked(_taken_when_true, n), n)
    _same_three_times(SLOPE, _checked(_negative_slope, n), n)


def test_arms_are_tested_before_the_choice():
    WALK(7, 3)
    assert "arm_checked(n // 2 if n % 2 == 0 else 3 * n + 1" in WALK.source(stage="kernel")


def test_a_name_never_negative_is_tested_on_one_side():
    jitted = cuvil.jit(collatz_longest)
    assert jitted(1000) == collatz_longest(1000) == 871
    assert "(n > 3074457345618258602)" in jitted.source(stage="kernel")
    assert "(n < -" not in jitted.source(stage="kernel")


@pytest.mark.parametrize(("body", "expected"), [
    ("n = 3\nwhile n > 1:\n    n = n // 2 if n % 2 == 0 else 3 * n + 1", {"n"}),
    ("n = 3\nn = n - 1", set()),  # a subtraction can go below zero
    ("for i in range(-2, 5):\n    j = i", set()),
    ("for i in range(2, 5, -1):\n    j = i % 3", {"j"}),  # % takes the divisor's sign
    ("a, b = 1, p\nc = len(p) * a", {"a", "c"}),  # a parameter may be negative
    ("m = 0\nm += 1\nm -= 1", set()),
])
def test_nonnegative_names(body, expected):
    import libcst as cst

    from cuvil.lower.overflow_arms import nonnegative

    fn = cst.parse_module("def f(p):\n" + "".join(f"    {line}\n" for line in body.splitlines())).body[0]
    assert nonnegative(fn) == expected
