"""`np.cumsum`/`np.cumprod` and their methods give NumPy's dtypes and shapes (analysis/numpy_rules.py
`NumpyRules.reduction`): small ints and bools accumulate in int64, unsigned in uint64, floats in their own width,
`dtype=` overrides it, `axis=` keeps the rank and no axis flattens. No test compiled a cumulative sum on the CPU
before: a mutant that built the result's type without its dtype (a TypeError in every such compile) survived."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def flat(a):
    return np.cumsum(a), np.cumprod(a), a.cumsum(), a.cumprod(), np.cumsum(a) * 2.5


def along(a):
    return np.cumsum(a, axis=0), np.cumsum(a, axis=1), a.cumsum(axis=0), np.cumsum(a, dtype=np.float32)


FLAT, ALONG = cuvil.jit(flat), cuvil.jit(along)
DTYPES = ["bool", "int8", "uint8", "int16", "int64", "float32", "float64"]


def _same(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert type(g) is np.ndarray and (g.dtype, g.shape) == (e.dtype, e.shape)
        np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=8, deadline=None)
@given(values=st.lists(st.integers(0, 3), min_size=1, max_size=12))
def test_cumulative_sums_and_products_match_numpy(dtype, values):
    a = np.array(values).astype(dtype)
    _same(FLAT(a), flat(a))


@pytest.mark.parametrize("dtype", ["bool", "uint8", "float32"])
def test_along_an_axis_and_with_a_dtype(dtype):
    a = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    _same(ALONG(a), along(a))


def test_first_call_guard_hit_and_miss():
    """Five int8 elements, forty others (the variant's guard holds: nothing here depends on the length), then
    int16 (a new variant)."""
    jitted = cuvil.jit(flat)
    for a in (np.arange(1, 6, dtype=np.int8), np.arange(40, dtype=np.int8) % 4, np.arange(7, dtype=np.int16)):
        _same(jitted(a), flat(a))
    assert [e.reason for e in cuvil.explain(jitted).compiles][0] == "first call"
    assert len(cuvil.explain(jitted).compiles) == 2


def products_along(a, k):
    return np.cumprod(a, axis=k), np.cumprod(a, k), a.cumprod(axis=k), a.cumprod(k), np.cumprod(a, axis=None)


def sums_along(a, k):
    return np.cumsum(a, axis=k), a.cumsum(k), np.cumsum(a[::-1], axis=k), np.cumsum(a, axis=None)


def last_axis(a):
    return np.cumprod(a, axis=-1) * 2


PRODUCTS, SUMS, LAST = cuvil.jit(products_along), cuvil.jit(sums_along), cuvil.jit(last_axis)
PRODUCT_DTYPES = ["bool", "int8", "uint8", "uint64", "float32"]  # each (dtype, rank) compiles its own variant


@settings(max_examples=20, deadline=None)
@given(dtype=st.sampled_from(PRODUCT_DTYPES), shape=st.lists(st.integers(0, 4), min_size=1, max_size=3),
       axis=st.integers(-4, 3), data=st.data())
def test_a_product_along_an_axis_is_numpys(dtype, shape, axis, data):
    """Numba's cumprod takes no axis (runtime/axes.py does it, and cumsum's, which Numba's compiles slowly):
    NumPy's dtype, wrap-around (int8 values up to 7 overflow int64 in a few dozen steps), empty axes, negative
    axes, a reversed view, and NumPy's AxisError, with its message, at the user's line, for an axis out of range.
    First call, guard hit, guard miss (one more row)."""
    for rows in (shape, shape, [shape[0] + 1, *shape[1:]]):
        size = int(np.prod(rows))
        values = data.draw(st.lists(st.integers(-7, 7), min_size=size, max_size=size))
        a = np.array(values).reshape(rows).astype(dtype)
        if not -a.ndim <= axis < a.ndim:
            with pytest.raises(np.exceptions.AxisError) as info:
                PRODUCTS(a, axis)
            assert str(info.value) == f"axis {axis} is out of bounds for array of dimension {a.ndim}"
            last = traceback.extract_tb(info.value.__traceback__)[-1]
            assert (last.filename, last.lineno) == (__file__, products_along.__code__.co_firstlineno + 1)
            with pytest.raises(np.exceptions.AxisError, match=f"^axis {axis} is out of bounds for array of dim"):
                SUMS(a, axis)
            continue
        with np.errstate(all="ignore"):
            _same(PRODUCTS(a, axis), products_along(a, axis))
            _same(SUMS(a, axis), sums_along(a, axis))
            _same((LAST(a),), (last_axis(a),))


def sorts_along(a, k):
    return np.sort(a, axis=k), np.argsort(a, axis=k), a.argsort(k), np.sort(a, axis=None), np.argsort(a, axis=None)


def argsort_default(a):
    return np.argsort(a), a.argsort()


SORTS, ARGSORT = cuvil.jit(sorts_along), cuvil.jit(argsort_default)


@settings(max_examples=15, deadline=None)
@given(dtype=st.sampled_from(["int8", "uint16", "float64"]),
       shape=st.lists(st.integers(0, 4), min_size=1, max_size=3), axis=st.integers(-4, 3), data=st.data())
def test_a_sort_along_an_axis_is_numpys(dtype, shape, axis, data):
    """Numba sorts the last axis only and argsorts 1-D arrays only (runtime/axes.py does the rest). Distinct
    values (equal ones may come in another order: NumPy's default sort promises none), a NaN among floats;
    AxisError for an axis out of range; first call, guard hit, guard miss (one more row)."""
    for rows in (shape, shape, [shape[0] + 1, *shape[1:]]):
        size = int(np.prod(rows))
        order = data.draw(st.permutations(range(size)))
        a = (np.array(order, dtype=np.int64) - size // 2).reshape(rows).astype(dtype)
        if a.dtype.kind == "f" and size:
            a.flat[data.draw(st.integers(0, size - 1))] = np.nan
        if not -a.ndim <= axis < a.ndim:
            with pytest.raises(np.exceptions.AxisError, match=f"^axis {axis} is out of bounds for array of dimension"):
                SORTS(a, axis)
            continue
        _same(SORTS(a, axis), sorts_along(a, axis))
        _same(ARGSORT(a), argsort_default(a))


def sort_by_keyword(a, k):
    a.sort(axis=k)


def sort_by_position(a, k):
    a.sort(k)


IN_PLACE = {f: cuvil.jit(f) for f in (sort_by_keyword, sort_by_position)}


@settings(max_examples=15, deadline=None)
@given(dtype=st.sampled_from(["int8", "uint16", "float64"]), shape=st.lists(st.integers(0, 4), min_size=1, max_size=3),
       axis=st.integers(-4, 3), reversed_view=st.booleans(), data=st.data())
def test_a_sort_in_place_along_an_axis_is_numpys(dtype, shape, axis, reversed_view, data):
    """`a.sort(axis=k)` and `a.sort(k)`: Numba's method takes no axis (it refused in its own words, or failed with
    a bare AssertionError). The sorted lanes are written back through the argument's strides (a reversed view
    writes its base backwards); None is returned; AxisError at the user's line; first call, hit, miss."""
    for rows in (shape, shape, [shape[0] + 1, *shape[1:]]):
        size = int(np.prod(rows))
        order = data.draw(st.permutations(range(size)))
        base = (np.array(order, dtype=np.int64) - size // 2).reshape(rows).astype(dtype)
        if base.dtype.kind == "f" and size:
            base.flat[data.draw(st.integers(0, size - 1))] = np.nan
        for fn, jitted in IN_PLACE.items():
            expected, got = base.copy(), base.copy()
            view = (lambda b: b[..., ::-1]) if reversed_view else (lambda b: b)
            if not -base.ndim <= axis < base.ndim:
                with pytest.raises(np.exceptions.AxisError) as info:
                    jitted(view(got), axis)
                assert str(info.value) == f"axis {axis} is out of bounds for array of dimension {base.ndim}"
                last = traceback.extract_tb(info.value.__traceback__)[-1]
                assert (last.filename, last.lineno) == (__file__, fn.__code__.co_firstlineno + 1)
                continue
            assert jitted(view(got), axis) is fn(view(expected), axis) is None
            assert (got.dtype, got.shape) == (expected.dtype, expected.shape)
            np.testing.assert_array_equal(got, expected)
