"""Guards, the dim policy, globals and recompile explanations (issue: shape and globals guards)."""

from __future__ import annotations

import logging
import warnings

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.runtime.policy import SMALL_DIM
from tests.helpers import define

BATCH = """
    def batch_norms(x):
        out = np.empty(x.shape[0])
        for b in range(x.shape[0]):
            s = 0.0
            for c in range(x.shape[1]):
                for k in range(x.shape[2]):
                    s += x[b, c, k] * x[b, c, k]
            out[b] = s
        return out
    """


def _batch(**options):
    return cuvil.jit(define(BATCH, env={"np": np}), **options)


def test_batch_sweep_compiles_at_most_two_variants_and_explains_the_second():
    fn = _batch()
    for b in range(1, 65):
        x = np.random.default_rng(b).random((b, 3, 64), dtype=np.float32)
        np.testing.assert_allclose(fn(x), fn.py_func(x), rtol=1e-5)
    compiles = cuvil.explain(fn).compiles
    assert len(compiles) == 2
    assert compiles[0].reason == "first call"
    assert compiles[1].reason == "x.shape[0]: 2 != 1 (guard of variant #1)"
    assert "x.shape[0]" in str(cuvil.explain(fn))


def test_static_dims_become_constants_in_the_generated_code():
    fn = _batch()
    fn(np.ones((2, 3, 64), dtype=np.float32))
    source = fn.source()
    assert "range(3)" in source and "range(2)" in source  # x.shape[1] == 3 and x.shape[0] == 2 are guarded
    assert "range(x.shape[2])" in source  # 64 > 16: dynamic from the start
    guard = cuvil.explain(fn).guards[0]
    assert "x.shape[1] == 3" in guard and "x: array(float32, 3d, C)" in guard


def test_dynamic_true_compiles_once_for_all_shapes():
    fn = _batch(dynamic=True)
    for b in (1, 2, 5):
        fn(np.ones((b, 4, 2)))
    assert len(cuvil.explain(fn).compiles) == 1
    assert "range(x.shape[1])" in fn.source()


def test_dynamic_false_stops_at_the_recompile_limit_with_one_warning(monkeypatch):
    monkeypatch.setattr(cuvil.config, "recompile_limit", 8)
    fn = _batch(dynamic=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for b in range(1, 30):
            x = np.full((b, 2, 3), 0.5)
            assert np.array_equal(fn(x), fn.py_func(x))
    assert len(cuvil.explain(fn).compiles) == 8
    assert len([w for w in caught if issubclass(w.category, cuvil.RecompileWarning)]) == 1
    newest = cuvil.explain(fn).guards[0]
    assert "x: array(float64, 3d, C)" in newest and not any(".shape[" in item for item in newest)


def _predicted_compiles(shapes: list[tuple[int, ...]]) -> int:
    """The default policy, restated independently: a dim is static on first sight if <= 16; a dim that
    shows a second value becomes dynamic; a call compiles when no variant's static dims all match."""
    variants: list[dict[int, int]] = []
    dynamic: set[int] = set()
    for shape in shapes:
        if any(all(shape[k] == v for k, v in var.items()) for var in variants):
            continue
        for var in variants:
            dynamic |= {k for k, v in var.items() if shape[k] != v}
        variants.append({k: d for k, d in enumerate(shape) if k not in dynamic and d <= SMALL_DIM})
    return len(variants)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 1, 2, 3, 17, 20]), st.sampled_from([1, 2, 3]),
                          st.sampled_from([1, 4, 18])), min_size=1, max_size=6))
def test_compile_count_follows_the_policy(shapes):
    fn = _batch()
    for shape in shapes:
        x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) / 7.0
        np.testing.assert_allclose(fn(x), fn.py_func(x), rtol=1e-12)
    assert len(cuvil.explain(fn).compiles) == _predicted_compiles(shapes)


def test_dtype_change_recompiles_and_names_the_dtype():
    fn = _batch()
    fn(np.ones((2, 2, 2)))
    fn(np.ones((2, 2, 2), dtype=np.float32))
    assert cuvil.explain(fn).compiles[1].reason == "x.dtype: float32 != float64 (guard of variant #1)"


def test_changed_module_constant_recompiles_where_numba_stays_stale():
    fn = define("""
        SCALE = 2.0
        def scaled(x):
            return x * SCALE
        """)
    jitted, plain_numba = cuvil.jit(fn), numba.njit(fn)
    assert jitted(3.0) == plain_numba(3.0) == fn(3.0) == 6.0
    fn.__globals__["SCALE"] = 5.0
    assert jitted(3.0) == fn(3.0) == 15.0
    assert plain_numba(3.0) == 6.0  # Numba froze SCALE at its first compile: a stale, wrong answer
    assert cuvil.explain(jitted).compiles[1].reason == "global SCALE: 5.0 != 2.0 (guard of variant #1)"


def test_changed_global_of_a_helper_recompiles():
    helper = define("""
        OFFSET = 1
        def shift(x):
            return x + OFFSET
        """, "shift")
    fn = cuvil.jit(define("""
        def f(x):
            return shift(x) * 2
        """, env={"shift": helper}))
    assert fn(1) == 4
    helper.__globals__["OFFSET"] = 10
    assert fn(1) == 22
    assert cuvil.explain(fn).compiles[1].reason.startswith("global shift.OFFSET: 10 != 1")


def test_recompiles_are_logged_when_asked(monkeypatch, caplog):
    monkeypatch.setenv("CUVIL_LOG", "recompiles")
    fn = _batch()
    with caplog.at_level(logging.INFO, logger="cuvil"):
        fn(np.ones((1, 2, 2)))
        fn(np.ones((3, 2, 2)))
    messages = [r.getMessage() for r in caplog.records if r.name == "cuvil"]
    assert len(messages) == 1 and "x.shape[0]: 3 != 1" in messages[0]


@pytest.mark.parametrize(("source", "args", "line", "words"), [
    ("""
        def f(a, b):
            c = a * 2.0
            return c + b
        """, (np.ones(3), np.ones(4)), 3, "operands could not be broadcast together with shapes (3,) (4,) "),
    ("""
        def f(a, b):
            return a @ b
        """, (np.ones((2, 3)), np.ones((4, 2))), 2,
     "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) "
     "(size 4 is different from 3)"),
    ("""
        def f(a):
            return a.reshape((5, -1))
        """, (np.ones((2, 3)),), 2, "cannot reshape array of size 6 into shape (5,newaxis)"),
    ("""
        def f(a):
            t = np.zeros((a.shape[0], 3))
            t += a
            return t
        """, (np.ones((2, 4)),), 3, "operands could not be broadcast together with shapes (2,3) (2,4) (2,3) "),
])
def test_certain_shape_contradictions_fail_at_compile_time(source, args, line, words):
    fn = cuvil.jit(define(source, env={"np": np}))
    with pytest.raises(cuvil.CuvilTypeError) as info:
        fn(*args)
    assert info.value.lineno == line and words in info.value.message


def test_uncertain_shapes_are_left_to_run_time():
    fn = cuvil.jit(define("""
        def f(a, b):
            return a + b
        """), dynamic=True)
    assert np.array_equal(fn(np.ones(30), np.ones(30)), np.full(30, 2.0))


@pytest.mark.parametrize(("arg", "words"), [
    (np.ones(3), "too many indices for array: array is 1-dimensional, but 2 were indexed (argument 'a')"),
    (np.ones((2, 2), dtype=object), "argument 'a' has dtype object"),
    ([[1.0]], "argument 'a' is a list"),
    ("text", "argument 'a' is a str"),
])
def test_wrong_inputs_name_the_argument(arg, words):
    fn = cuvil.jit(define("""
        def corner(a):
            return a[0, 0]
        """))
    with pytest.raises(cuvil.CuvilTypeError) as info:
        fn(arg)
    assert words in str(info.value)
    assert info.value.argument == "a"


def test_stats_aggregate_compiles():
    """Stats are keyed by qualified name: a name of this test's own, so no earlier test's compiles count."""
    fn = cuvil.jit(define(BATCH.replace("def batch_norms(", "def batch_norms_for_stats("), env={"np": np}))
    fn(np.ones((1, 2, 2)))
    fn(np.ones((2, 2, 2)))
    fn(np.ones((2, 2, 2)))
    totals = sorted(e.total for e in cuvil.explain(fn).compiles)
    assert len(totals) == 2 and totals[0] < totals[1]
    assert cuvil.stats()["batch_norms_for_stats"] == {
        "compiles": 2, "cache_hits": 0, "p50_seconds": (totals[0] + totals[1]) / 2, "p99_seconds": totals[1]}


def test_inplace_update_with_dynamic_mismatched_shapes_raises_like_numpy():
    fn = define("""
        def f(a, b):
            t = np.zeros((a.shape[0], b.shape[0]))
            t += a
            return t
        """, env={"np": np})
    jitted = cuvil.jit(fn)
    good = (np.ones((20, 30)), np.ones(30))
    assert np.array_equal(jitted(*good), fn(*good))
    bad = (np.ones((20, 31)), np.ones(30))  # dims > 16: dynamic, so only run time can tell
    with pytest.raises(ValueError):
        fn(*bad)
    with pytest.raises(ValueError):
        jitted(*bad)  # Numba alone writes a garbage result here


@pytest.mark.parametrize(("first", "then", "reason"), [
    (1.5, np.float64(1.5), "x: float64 is not float"),
    ((1.5, 2), (np.float64(1.5), 2), "x[0]: float64 is not float"),
    ((2, (1.5,)), (2, (np.float64(1.5),)), "x[1][0]: float64 is not float"),
    (np.float64(1.5), 1.5, "x: float is not float64"),
])
def test_a_python_float_and_an_np_float64_are_variants_of_their_own(first, then, reason):
    """Numba's fingerprint does not tell them apart, and NEP 50 does (a weak Python float): the guard's own
    check does, and the reason names the item (a mutmut survivor checked nothing, or named no item)."""
    fn = cuvil.jit(define("""
        def f(x):
            return x
        """))
    for value in (first, first, then):  # first call, guard hit, guard miss
        assert fn(value) == value
    assert [c.reason for c in cuvil.explain(fn).compiles] == ["first call", f"{reason} (guard of variant #1)"]


@pytest.mark.parametrize(("first", "second", "reason"), [
    (1j, np.complex128(1j), "x: a NumPy complex128, not a Python complex"),
    (np.complex128(1j), 1j, "x: a Python complex, not a NumPy complex128"),
])
def test_python_and_numpy_scalars_of_one_type_are_told_apart(first, second, reason):
    """The same Numba type on both sides: the reason names the kinds, not 'complex128 != complex128'."""
    def double(x):
        return x * 2

    jitted = cuvil.jit(double)
    for value in (first, first, second):
        assert jitted(value) == double(value)  # a complex128 result comes back as a Python complex (README)
    assert [e.reason for e in cuvil.explain(jitted).compiles] == ["first call", reason + " (guard of variant #1)"]
