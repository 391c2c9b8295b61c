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


def last_axis(a):
    return np.cumprod(a, axis=-1) * 2


PRODUCTS, LAST = cuvil.jit(products_along), cuvil.jit(last_axis)
PRODUCT_DTYPES = ["bool", "int8", "uint8", "int32", "uint64", "float32", "float64"]


@settings(max_examples=25, deadline=None)
@given(dtype=st.sampled_from(PRODUCT_DTYPES), shape=st.lists(st.integers(0, 4), min_size=1, max_size=3),
       axis=st.integers(-4, 3), data=st.data())
def test_a_product_along_an_axis_is_numpys(dtype, shape, axis, data):
    """Numba's cumprod takes no axis (runtime/scans.py does it): NumPy's dtype, wrap-around (int8 values up to
    7 overflow int64 in a few dozen steps), empty axes, negative axes, and NumPy's AxisError, with its message,
    at the user's line, for an axis out of range. First call, guard hit, guard miss (one more row)."""
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
            continue
        with np.errstate(all="ignore"):
            _same(PRODUCTS(a, axis), products_along(a, axis))
            _same((LAST(a),), (last_axis(a),))
