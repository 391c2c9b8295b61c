"""Mismatches the fuzzers found, minimized by hand to the construct at fault. Each runs the program through
the normalize pipeline in CPython and through cuvil.jit, against plain CPython. A test marked xfail is a
known compiler bug not fixed yet; strict, so the fix turns it into a failure that asks to drop the mark."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

import cuvil
from cuvil.normalize.pipeline import run_passes
from cuvil.testing import assert_equivalent, assert_matches

from ..helpers import define


def assert_normalized_same(source: str, *args: object) -> None:
    text = textwrap.dedent(source)
    normalized = define(run_passes(cst.parse_module(text)).code, "f")
    assert_matches(define(text, "f"), {"the normalized program": normalized}, *args, rtol=0.0, atol=0.0)


def assert_compiled_same(source: str, *args: object) -> None:
    assert_equivalent(cuvil.jit(define(source, "f")), *args)


CHECKS = [assert_normalized_same, assert_compiled_same]
IDS = ["normalize", "compile"]

RETURN_IN_LOOP_IN_IF_IN_LOOP = """
    def f(n, b):
        for i in range(n):
            if b > 0:
                for m in range(2):
                    return 7.0
            return 0.25
        return 0.0
    """


@pytest.mark.parametrize("check", CHECKS, ids=IDS)
def test_return_from_loop_inside_if_inside_loop(check):
    check(RETURN_IN_LOOP_IN_IF_IN_LOOP, 1, 1)


def test_int_to_a_literal_negative_power_is_a_float():
    assert_compiled_same("""
        def f(k):
            return (abs(k) + 1) ** -2
        """, 3)


def test_math_fmod():
    assert_compiled_same("""
        import math

        def f(x):
            return math.fmod(x, 2.5)
        """, -7.25)



@pytest.mark.parametrize("check", CHECKS, ids=IDS)
def test_return_in_a_loop_whose_condition_starts_false(check):
    check("""
        def f(n):
            w = 0
            while w != 0:
                w += 1
                return 1
            return 2
        """, 4)
