"""Static dims the generated code does not depend on are not guarded (Dispatcher._used_dims): no `len()` per
call and no recompile for a size that changes nothing; dims the code reads stay guarded."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

FIRST = define("""
    def first(x, y, out):
        out[0] = x[0] + y[0]
        return out
    """)

ROWS = define("""
    def rows(x, out):
        for i in range(x.shape[0]):
            s = 0.0
            for k in range(x.shape[1]):
                s += x[i, k]
            out[i] = s
        return out
    """)


def _compiles(fn):
    return [c.reason for c in cuvil.explain(fn).compiles]


def _arrays(n):
    return np.arange(n, dtype=np.float64), np.ones(n), np.zeros(n)


def test_unread_static_dims_are_not_guarded_first_call_hit_and_other_size():
    fn = cuvil.jit(FIRST)
    for n in (4, 4, 7, 1):  # first call, guard hit, a size the policy would have made static, another
        got, want = fn(*_arrays(n)), FIRST(*_arrays(n))
        assert got.dtype == want.dtype and got.shape == want.shape and got.tolist() == want.tolist()
    assert _compiles(fn) == ["first call"]
    assert not any("shape" in item for item in cuvil.explain(fn).guards[0])
    assert "len(" not in "".join(fn.func.__code__.co_names) and "len" not in fn.func.__code__.co_names


def test_read_static_dims_stay_guarded_and_a_new_size_recompiles():
    fn = cuvil.jit(ROWS)
    x = np.arange(12.0).reshape(4, 3)
    assert fn(x, np.empty(4)).tolist() == ROWS(x, np.empty(4)).tolist()
    assert fn(x, np.empty(4)).tolist() == [3.0, 12.0, 21.0, 30.0] and len(_compiles(fn)) == 1  # a guard hit
    assert {"x.shape[0] == 4", "x.shape[1] == 3"} <= set(cuvil.explain(fn).guards[0])
    y = np.arange(10.0).reshape(2, 5)
    assert fn(y, np.empty(2)).tolist() == [10.0, 35.0]
    assert _compiles(fn)[1] == "x.shape[0]: 2 != 4 (guard of variant #1)"


def test_a_declared_size_stays_guarded_though_unread():
    fn = cuvil.jit(FIRST, dims={"x.shape[0]": 4})
    fn(*_arrays(4))
    assert "x.shape[0] == 4" in cuvil.explain(fn).guards[0]
    assert not any(item.startswith(("y.shape", "out.shape")) for item in cuvil.explain(fn).guards[0])


def test_a_shape_error_found_with_static_dims_is_still_raised():
    fn = cuvil.jit(define("""
        def add(x, y):
            return x + y
        """))
    with pytest.raises(cuvil.CuvilShapeError, match=r":2: shapes \(3,\) and \(4,\) cannot broadcast"):
        fn(np.ones(3), np.ones(4))
    assert fn(np.ones(3), np.ones(3)).tolist() == [2.0, 2.0, 2.0]


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(1, 16), min_size=1, max_size=6))
def test_any_sizes_compile_an_unread_dim_once(sizes):
    fn = cuvil.jit(FIRST)
    for n in sizes:
        assert fn(*_arrays(n)).tolist() == FIRST(*_arrays(n)).tolist()
    assert len(_compiles(fn)) == 1
