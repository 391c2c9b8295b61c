"""Static dims the generated code does not depend on go unguarded (codegen/specialize.read_dims): the default
policy makes every dim <= 16 static, and a guard test per dim costs every call ~20 ns for nothing when no
statement reads it. Whether one is read is decided once, on a cache miss, by generating the module with
those dims dynamic and comparing; the answer is stored with the one cache entry (cache.Meta.reads)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define
from tests.programs.test_programs import assert_same
from tests.runtime.test_cache_context import _cell, _restart

READS_NONE = """
    def first_sum(x, y, out):
        out[0] = x[0] + y[0]
        return out
    """

READS_AXIS_1 = """
    def row_total(p):
        s = 0.0
        for k in range(p.shape[1]):
            s += p[0, k]
        return s
    """


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A cache of the test's own, and no module in memory (another test may have compiled the same text)."""
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(tmp_path / "cache"))
    _restart()
    return tmp_path / "cache"


def _call(fn, n, dtype=np.float64):
    x, y = np.arange(n, dtype=dtype), np.ones(n, dtype)
    expected = fn.py_func(x, y, np.zeros(n, dtype))
    assert_same(expected, fn(x, y, np.zeros(n, dtype)))


def _metas(cache, name):
    return [json.loads(p.read_text()) for p in sorted(cache.glob(f"{name}-*/meta.json"))]


def test_unread_dims_are_unguarded_one_variant_and_one_entry_first_call_hit_and_miss(own_cache):
    fn = cuvil.jit(define(READS_NONE))
    for n, dtype, compiles in ((4, np.float64, 1), (4, np.float64, 1), (9, np.float64, 1), (3, np.float32, 2)):
        _call(fn, n, dtype)
        assert len(fn.compile_events) == compiles
    assert fn.compile_events[1].reason == "x.dtype: float32 != float64 (guard of variant #1)"
    assert not any("shape" in line for variant in fn.guards() for line in variant)
    assert [m["reads"] for m in _metas(own_cache, "first_sum")] == [[], []]  # one entry per variant


def test_read_dims_stay_guarded_first_call_hit_and_miss(own_cache):
    fn = cuvil.jit(define(READS_AXIS_1))
    for shape, compiles in (((2, 3), 1), ((2, 3), 1), ((2, 4), 2)):
        p = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
        assert fn(p) == fn.py_func(p) and type(fn(p)) is float
        assert len(fn.compile_events) == compiles
    assert fn.compile_events[1].reason == "p.shape[1]: 4 != 3 (guard of variant #1)"
    assert "p.shape[1] == 3" in fn.guards()[1]
    assert sorted(map(str, (m["reads"] for m in _metas(own_cache, "row_total")))) == ["[[0, 0], [0, 1]]", "[]"]


def test_a_warm_start_keeps_the_record_and_an_old_entry_guards_every_static_dim(own_cache):
    def cell():  # a notebook cell's function, as a restarted kernel defines it again (test_cache_context.py)
        return _cell(READS_NONE, "/tmp/ipykernel_303/4001.py", "first_sum")

    _call(cuvil.jit(cell()), 4)
    _restart()
    warm = cuvil.jit(cell())
    _call(warm, 4)
    _call(warm, 11)  # no dim guarded: the same variant
    assert [e.cache for e in warm.compile_events] == ["disk"]

    (meta_path,) = own_cache.glob("first_sum-*/meta.json")
    meta = json.loads(meta_path.read_text())
    del meta["reads"]  # an entry written before the record existed
    meta_path.write_text(json.dumps(meta))
    _restart()
    old = cuvil.jit(cell())
    _call(old, 4)
    _call(old, 11)
    assert [e.cache for e in old.compile_events] == ["disk", "miss"]
    assert old.compile_events[1].reason == "x.shape[0]: 11 != 4 (guard of variant #1)"


NONE_JIT = cuvil.jit(define(READS_NONE))
AXIS_JIT = cuvil.jit(define(READS_AXIS_1))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=6))
def test_any_sequence_of_sizes_gives_pythons_results(shapes):
    """Whatever sizes come, in any order: Python's results; a function that reads no dim never compiles a
    second variant, one that reads dims at most one per dim more (a second size makes a dim dynamic for good)."""
    for rows, cols in shapes:
        _call(NONE_JIT, rows)
        p = np.arange(rows * cols, dtype=np.float64).reshape(rows, cols)
        assert AXIS_JIT(p) == AXIS_JIT.py_func(p)
    assert len(NONE_JIT.compile_events) == 1
    assert len(AXIS_JIT.compile_events) <= 3


@pytest.mark.parametrize("source, generations, reads", [
    (READS_AXIS_1, 1, [[0, 0], [0, 1]]),  # `p.shape[1]` became 3: read for certain, not generated again
    (READS_NONE, 2, []),  # nothing substituted: generated again with the dims dynamic, and compared
])
def test_a_substituted_dim_is_read_without_a_second_generation(own_cache, monkeypatch, source, generations, reads):
    import cuvil.compiler

    calls = []
    real = cuvil.compiler.generate
    monkeypatch.setattr(cuvil.compiler, "generate", lambda *a, **k: calls.append(a) or real(*a, **k))
    fn = cuvil.jit(define(source))
    args = (np.ones((2, 3)),) if source is READS_AXIS_1 else (np.ones(4), np.ones(4), np.zeros(4))
    assert_same(fn.py_func(*args), fn(*args))
    assert len(calls) == generations
    assert [m["reads"] for m in _metas(own_cache, fn.py_func.__name__)] == [reads]
