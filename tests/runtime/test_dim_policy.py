"""DimPolicy (runtime/policy.py) call by call, as the dispatcher drives it on each guard miss: which dims a new
variant makes static, when a dim becomes dynamic for good, where `dynamic=False` stops at the recompile limit,
and how declared sizes, names and ranges come first. Pure Python (no compile), so every mutant of the policy
meets a test that fails in milliseconds: its end-to-end tests compile, and a mutant that makes every dim static
ran them past mutmut's time limit (tests/MUTATION.md)."""

from __future__ import annotations

import types

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuvil.runtime.guards import arg_guards
from cuvil.runtime.policy import DimPolicy


def _args(*shapes):
    """Arguments x0, x1, … with these shapes (None: a Python int, which has none)."""
    values = [3 if s is None else np.empty(s) for s in shapes]
    return arg_guards([f"x{i}" for i in range(len(values))], values)


def _variants(*statics):
    return [types.SimpleNamespace(static=s) for s in statics]


def test_a_dim_seen_with_a_second_value_is_dynamic_for_good():
    policy = DimPolicy(None, 8)
    first = policy.static_dims(_args((4, 3)), [])
    assert first == {(0, 0): 4, (0, 1): 3}
    second = policy.static_dims(_args((5, 3)), _variants(first))  # axis 0 changed: dynamic; axis 1 stays
    assert second == {(0, 1): 3}
    assert policy.dynamic_dims == {(0, 0)}
    assert policy.static_dims(_args((4, 3)), _variants(first, second)) == {(0, 1): 3}  # even back at 4


def test_only_the_argument_and_axis_that_changed_become_dynamic():
    policy = DimPolicy(None, 8)
    first = policy.static_dims(_args((2,), (6, 7)), [])
    assert first == {(0, 0): 2, (1, 0): 6, (1, 1): 7}
    assert policy.static_dims(_args((2,), (6, 9)), _variants(first)) == {(0, 0): 2, (1, 0): 6}
    assert policy.dynamic_dims == {(1, 1)}


def test_a_static_dim_the_new_call_has_no_axis_for_stays_as_it_was():
    """The new call's argument has fewer axes, or is a number: the old static dim says nothing about it."""
    policy = DimPolicy(None, 8)
    assert policy.static_dims(_args((4,), None), _variants({(0, 1): 3, (1, 0): 2})) == {(0, 0): 4}
    assert policy.dynamic_dims == set()


def test_sizes_past_small_dim_are_dynamic_and_numbers_have_no_dims():
    assert DimPolicy(None, 8).static_dims(_args((17, 16), None, (0, 1)), []) == \
        {(0, 1): 16, (2, 0): 0, (2, 1): 1}


def test_dynamic_true_makes_nothing_static():
    policy = DimPolicy(True, 8)
    assert policy.static_dims(_args((2, 3)), []) == {}
    assert policy.static_dims(_args((2, 4)), _variants({})) == {}


def test_dynamic_false_specializes_every_dim_until_the_limit():
    """With a limit of 3: two variants static in every dim, whatever its size; the third fully dynamic, and
    every one after it (`exhausted`), declared ranges included."""
    policy = DimPolicy(False, 3, declared={(0, 0): (1, 100)})
    made: list[dict] = []
    for n in (40, 41):
        static = policy.static_dims(_args((n, 1000)), _variants(*made))
        assert static == {(0, 1): 1000} and not policy.exhausted  # axis 0: the declared range, dynamic
        assert policy.ranges(_args((n, 1000))) == {(0, 0): (1, 100)}
        made.append(static)
    assert policy.static_dims(_args((42, 1000)), _variants(*made)) == {}
    assert policy.exhausted and policy.ranges(_args((42, 1000))) == {}
    assert policy.static_dims(_args((2, 2)), []) == {}  # for good


@pytest.mark.parametrize("dynamic", [None, True, False])
def test_declared_dims_come_first(dynamic):
    """A declared size is static, a name or a range dynamic, whatever `dynamic` says; a size outside its
    declaration is left to the policy (`dynamic=None`: static at 5, dynamic at 50)."""
    declared = {(0, 0): 5, (0, 1): None, (1, 0): (10, 20), (1, 1): 7}
    policy = DimPolicy(dynamic, 8, declared=declared)
    assert policy.static_dims(_args((5, 3), (15, 7)), []) == {(0, 0): 5, (1, 1): 7}
    assert policy.ranges(_args((5, 3), (15, 7))) == {(1, 0): (10, 20)}
    outside = DimPolicy(dynamic, 8, declared=declared).static_dims(_args((50, 3), (5, 8)), [])
    by_policy = {None: {(1, 0): 5, (1, 1): 8}, True: {}, False: {(0, 0): 50, (1, 0): 5, (1, 1): 8}}[dynamic]
    assert outside == by_policy


@given(low=st.integers(0, 30), width=st.integers(0, 30), size=st.integers(0, 70))
def test_a_range_serves_exactly_the_sizes_inside_it(low, width, size):
    policy = DimPolicy(None, 8, declared={(0, 0): (low, low + width)})
    inside = low <= size <= low + width
    assert policy.ranges(_args((size,))) == ({(0, 0): (low, low + width)} if inside else {})
    assert policy.static_dims(_args((size,)), []) == ({} if inside or size > 16 else {(0, 0): size})
