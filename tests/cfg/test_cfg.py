"""The CFG's blocks and predecessors, definite assignment, and which loops are parallel."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from cuvil.frontend.parse import parse
from cuvil.frontend.source import get_source
from cuvil.normalize.pipeline import normalize
from tests.helpers import define


def _normalized(source: str):
    return normalize(parse(get_source(define(source)))).function


def test_cfg_stage_labels_blocks_and_predecessors():
    fn = cuvil.jit(define("""
        def f(a, n):
            s = 0
            for i in range(n):
                if a[i] > 0:
                    s += a[i]
                else:
                    continue
            return s
        """))
    assert fn.source("cfg") == (
        "def f(a, n):  # L1\n"
        "    s = 0  # L2  B0 <- -\n"
        "    for i in range(n):  # L3  B1 <- B0,B3,B4\n"
        "        if a[i] > 0:  # L4  B2 <- B1\n"
        "            s += a[i]  # L5  B3 <- B2\n"
        "        else:  # L6\n"
        "            continue  # L7  B4 <- B2\n"
        "    return s  # L8  B5 <- B1\n"
    )


def test_while_true_has_no_exit_but_its_breaks():
    fn = cuvil.jit(define("""
        def f(n):
            while True:
                n -= 1
                if n < 0:
                    break
            return n
        """))
    cfg = fn.source("cfg")
    assert "while True:  # L2  B1 <- B0,B2" in cfg
    assert "return n  # L6  B4 <- B3" in cfg  # only the break reaches it


def test_read_no_path_assigns_is_a_compile_error_at_the_read():
    fn = define("""
        def f(n):
            total = n + extra
            extra = 1
            return total
        """)
    with pytest.raises(cuvil.CuvilSyntaxError) as info:
        cuvil.jit(fn)(1)
    assert (info.value.lineno, info.value.offset) == (2, 17)
    assert info.value.reason == "'extra' is used before it is assigned"


MAYBE_UNASSIGNED = [
    ("""
        def f(x):
            if x > 0:
                y = 1
            return y
        """, (1,), (-1,)),
    ("""
        def f(n):
            for i in range(n):
                last = i
            return last + 1
        """, (3,), (0,)),
    ("""
        def f(a):
            for x in a:
                pass
            return x
        """, (np.arange(3),), (np.arange(0),)),
    ("""
        def f(a, v):
            for i in range(len(a)):
                if a[i] == v:
                    break
            while i > 0:
                i -= 1
            return i
        """, (np.arange(4), 2), (np.arange(0), 2)),
]


@pytest.mark.parametrize(("source", "good", "bad"), MAYBE_UNASSIGNED)
def test_read_some_paths_leave_unassigned_raises_like_python(source, good, bad):
    fn = define(source)
    jitted = cuvil.jit(fn)
    assert jitted(*good) == fn(*good)
    with pytest.raises(UnboundLocalError) as expected:
        fn(*bad)
    with pytest.raises(UnboundLocalError) as got:
        jitted(*bad)  # Numba alone would return garbage here
    assert str(got.value) == str(expected.value)


def test_assigned_on_every_path_is_fine():
    fn = cuvil.jit(define("""
        def f(x):
            if x > 0:
                y = 1
            elif x < 0:
                y = -1
            else:
                y = 0
            while True:
                z = y * 2
                break
            return z
        """))
    assert [fn(v) for v in (-3, 0, 3)] == [-2, 0, 2]
