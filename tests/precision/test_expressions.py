"""Random elementwise expressions over float16 arrays and Python numbers (hypothesis), compiled without a
precision policy, equal NumPy's float16 results bit for bit: every operation rounded to half as NumPy rounds it,
whole-array and element by element in a loop. Operations whose float32 implementation NumPy and Cuvil share
exactly (+ - * / sqrt, comparisons, abs, negation, max/min, where); transcendentals are tested elsewhere."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cuvil
from tests.helpers import define

LEAVES = st.sampled_from(["A", "B", "A", "B", "1.5", "0.1", "3", "2.0"])  # A, B: the arrays (or elements)


def expressions(depth: int, where: bool = True) -> st.SearchStrategy[str]:
    if depth == 0:
        return LEAVES
    sub = expressions(depth - 1, where)
    return st.one_of(
        LEAVES,
        st.tuples(sub, st.sampled_from(["+", "-", "*", "/"]), sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        sub.map(lambda e: f"(-{e})"),
        sub.map(lambda e: f"np.abs({e})"),
        sub.map(lambda e: f"np.sqrt(np.abs({e}))"),
        st.tuples(sub, sub).map(lambda t: f"np.maximum({t[0]}, {t[1]})"),
        *([st.tuples(sub, sub, sub).map(lambda t: f"np.where({t[0]} < {t[1]}, {t[2]}, {t[1]})")] if where else []),
    )


HALVES = hnp.arrays(np.float16, 12, elements=st.floats(-60, 60, width=16))


def bits(x: np.ndarray) -> np.ndarray:
    return np.asarray(x).view(np.uint16)


def with_arrays(depth: int, where: bool = True) -> st.SearchStrategy[list[str]]:
    """Four expressions (one compile checks them all: compiling is the slow part)."""
    return st.lists(expressions(depth, where).filter(lambda e: "A" in e or "B" in e), min_size=4, max_size=4)


@settings(max_examples=10, deadline=None)
@given(with_arrays(3), HALVES, HALVES)
def test_whole_array_expression_equals_numpy(exprs, a, b):
    source = ", ".join(e.replace("A", "a").replace("B", "b") for e in exprs)
    fn = cuvil.jit(define(f"def f(a, b):\n    return {source}\n", env={"np": np}))
    with np.errstate(all="ignore"):
        wants = fn.py_func(a, b)
    for expr, got, want in zip(exprs, fn(a, b), wants):
        assert got.dtype == want.dtype and got.shape == want.shape
        if want.dtype == np.float16:
            same = (bits(got) == bits(want)) | (np.isnan(got) & np.isnan(want))
            assert same.all(), (expr, a[~same], b[~same], got[~same], want[~same])
        else:
            np.testing.assert_array_equal(got, want)


@settings(max_examples=10, deadline=None)
@given(with_arrays(3, where=False), HALVES, HALVES)
def test_element_loop_equals_numpy(exprs, a, b):
    """The same on elements (NumPy's float16 scalars): np.where is left out, it makes 0-d arrays of scalars."""
    bodies = [e.replace("A", "a[i]").replace("B", "b[i]") for e in exprs]
    lines = "".join(f"        out[{k}, i] = {body}\n" for k, body in enumerate(bodies))
    source = f"def f(a, b, out):\n    for i in range(len(a)):\n{lines}    return out\n"
    fn = cuvil.jit(define(source, env={"np": np}))
    with np.errstate(all="ignore"):
        want = fn.py_func(a, b, np.empty((4, len(a)), np.float16))
    got = fn(a, b, np.empty((4, len(a)), np.float16))
    same = (bits(got) == bits(want)) | (np.isnan(got) & np.isnan(want))
    assert same.all(), (source, got[~same], want[~same])
