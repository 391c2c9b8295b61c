"""Normalization preserves semantics: each pass alone, and the whole pipeline, run in plain CPython on
hypothesis-drawn inputs, give what the original gives."""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Callable

import libcst as cst
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuvil.normalize.canonical import CanonicalBlocks
from cuvil.normalize.pipeline import PASSES, run_passes

# Each program exercises the constructs one pass rewrites; all take two int arrays.
PROGRAMS = {
    "iteration": """
        def f(a, b):
            s = 0
            for i, (x, y) in enumerate(zip(a, b)):
                s += i * x - y
            for k, v in enumerate(a, 3):
                s += k * v
            for x in a[1:]:
                s -= x
            for j, r in zip(range(2, 40, 3), b):
                s += j * r
            for row in np.stack((a[:2], a[:2])) if len(a) >= 2 else np.zeros((0, 2)):
                s += row[0]
            return s
        """,
    "elif": """
        def f(a, b):
            s = 0
            for x in a:
                if x < -5: s += 1
                elif x < 0: s += 2
                elif x == 0:
                    s += 3
                else: s += 4
            return s
        """,
    "chained": """
        def f(a, b):
            c = 0
            for i in range(min(len(a), len(b))):
                x, y = a[i], b[i]
                if -3 <= x < y <= 7:
                    c += 1
                c += 1 if not x < 0 < y else 2
                while 0 < x < 20 != y:
                    x -= 4
                    c += 1
            return c
        """,
    "early_exit": """
        def f(a, b):
            if len(a) == 0:
                return -1
            for i in range(len(a)):
                for j in range(len(b)):
                    if a[i] + b[j] == 7:
                        return i * 10 + j
                    if a[i] == b[j]:
                        continue
                if a[i] > 15:
                    return -2
            n = 0
            while True:
                n += 1
                if n > 3:
                    if len(b) > 2:
                        return n
                    break
            if len(b) == 1:
                return None
            elif len(b) == 2:
                return
            return n * 100
        """,
    "guards": """
        def f(a, b):
            if len(a) < 2:
                return 0
            t = a[0]
            if t < 0:
                if b.sum() > 3:
                    return 1
                t = -t
            else:
                t = t + 1
            k = 0
            while k < len(b):
                if b[k] == t:
                    return 2 + k
                k += 1
            return 3 * t
        """,
}

ints = st.lists(st.integers(-20, 20), max_size=8).map(lambda v: np.array(v, dtype=np.int64))


def _canonical(source: str) -> cst.Module:
    return cst.parse_module(textwrap.dedent(source)).visit(CanonicalBlocks())


@functools.cache
def _variants(name: str) -> dict[str, Callable]:
    """The program after each pass alone (on canonical blocks, which every pass assumes), and after all."""
    source = textwrap.dedent(PROGRAMS[name])
    base = _canonical(source)
    codes = {p.__name__: base.visit(p()).code for p in PASSES}
    codes["pipeline"] = run_passes(cst.parse_module(source)).code
    codes["original"] = source
    return {variant: define_in(code) for variant, code in codes.items()}


def define_in(code: str) -> Callable:
    namespace: dict = {"np": np}
    exec(compile(code, "<normalized>", "exec"), namespace)
    return namespace["f"]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@settings(max_examples=60)
@given(a=ints, b=ints)
def test_every_pass_preserves_results(name, a, b):
    variants = _variants(name)
    expected = variants["original"](a.copy(), b.copy())
    for variant, fn in variants.items():
        assert fn(a.copy(), b.copy()) == expected, f"{variant} changed the result of {name}"


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_pipeline_is_idempotent(name):
    once = run_passes(cst.parse_module(textwrap.dedent(PROGRAMS[name])))
    assert run_passes(once).code == once.code
