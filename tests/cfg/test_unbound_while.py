"""Python's unbound-local check on the reads of a `while` test and an `if` test (cfg/unbound.py `leave_While`,
`leave_If`): a name bound on one path only and read first by the loop's condition raises UnboundLocalError at
that line, with Python's message, and runs as Python does when bound. Mutation testing found no test of a
`while` (`leave_While` 1: the check before the loop dropped, and the condition read a variable never set)."""

from __future__ import annotations

import traceback

import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

import cuvil


def countdown(flag, start):
    if flag:
        n = start
    s = 0
    while n > 0:
        s += n
        n -= 1
    return s


def first_read_by_an_if(flag, start):
    if flag:
        n = start
    if n > 2:
        return n * 2
    return n


@pytest.mark.parametrize("fn", [countdown, first_read_by_an_if])
@settings(max_examples=8, deadline=None, phases=(Phase.explicit, Phase.generate))  # no shrinking: tries compile
@given(flag=st.booleans(), start=st.integers(-3, 6))
@example(flag=False, start=3)
@example(flag=True, start=3)
def test_a_condition_that_reads_a_name_bound_on_one_path(fn, flag, start):
    jitted = cuvil.jit(fn)
    if flag:
        assert jitted(flag, start) == fn(flag, start)
        return
    with pytest.raises(UnboundLocalError) as expected:
        fn(flag, start)
    with pytest.raises(UnboundLocalError) as got:
        jitted(flag, start)
    assert str(got.value) == str(expected.value) == "cannot access local variable 'n' where it is not associated " \
        "with a value"
    line = fn.__code__.co_firstlineno + 4 if fn is countdown else fn.__code__.co_firstlineno + 3
    # the condition's line (CPython 3.11 itself names the line before the `while` from its sixth call on)
    assert traceback.extract_tb(got.tb)[-1].lineno == line


def first_at_least(n):
    i = 0
    while 1:
        if i >= n:
            r = i * 3
            break
        i += 1
    return r


def first_at_least_true(n):
    i = 0
    while True:
        if i >= n:
            r = i * 3
            break
        i += 1
    return r


@pytest.mark.parametrize("fn", [first_at_least, first_at_least_true])
def test_a_name_bound_before_every_break_of_an_endless_loop_needs_no_check(fn):
    """`while 1:` is `while True:` (cfg/build.py `_always_true`): the loop leaves only by its breaks, so a name
    bound before each is bound after the loop, and no flag or check is emitted for it. `_always_true` 17 (a
    literal test taken for endless only when it is not 1) made `while 1:` a loop that may end, and flagged `r`."""
    jitted = cuvil.jit(fn)
    for n in (0, 4, 9):  # first call, then guard hits
        assert jitted(n) == fn(n) == 3 * n
    assert "_bound_r" not in str(jitted.source("kernel"))
