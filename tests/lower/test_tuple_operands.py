"""A tuple of numbers where NumPy takes an array (a ufunc's argument; an operand beside an array) is the array NumPy
makes of it (lower/sequences.py): NumPy's values and dtypes (a Python int is int64 there, a Python float float64),
NumPy's errors (a length that does not broadcast). Tuples among themselves keep Python's meaning (`+` joins).
Numba refused every one of these. First call, guard hit, guard miss (a new length and dtype)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted

TUPLES = ("(1, 0, 1)", "(1.5, -2.0, 3.0)", "(True, False, True)", "(1, 2.5, 3)", "(np.float32(1), np.float32(2), 0)",
          "(np.int8(3), 1, 2)")
FORMS = ("x + T", "T - x", "x * T", "T == x", "x < T", "np.add(T, x)", "np.maximum(x, T)", "np.bitwise_and(T, x)",
         "(T == np.bitwise_and(T, x)).all()", "x & T")
DTYPES = ("float64", "float32", "int64", "int8", "bool")


@settings(max_examples=40, deadline=None)
@given(data=st.data(), form=st.sampled_from(FORMS), tup=st.sampled_from(TUPLES), dtype=st.sampled_from(DTYPES),
       bound=st.booleans())
def test_a_tuple_beside_an_array_is_numpys_array(data, form: str, tup: str, dtype: str, bound: bool) -> None:
    """Written in place, or bound to a name first (as a default's `mask=(1, 0, 1)` is)."""
    expression = form.replace("T", "t" if bound else tup)
    fn = jitted(f"def f(x):\n    t = {tup}\n    return {expression}\n" if bound else
                f"def f(x):\n    return {expression}\n")
    x = data.draw(arrays(dtype, (3,), special=False))
    for args in ((x,), (x.copy(),), (data.draw(arrays(dtype, (2, 3), special=False)),),
                 (data.draw(arrays("float64" if dtype != "float64" else "int64", (4,), special=False)),)):
        assert_like_numpy(fn, *args)


@pytest.mark.parametrize("source", [
    "def f(x):\n    return (1, 2) + (3,)\n",
    "def f(x):\n    return (1, 2) == (1, 2), (1, 2) < (1, 3)\n",
    "def f(x):\n    return np.add((1, 2), (3, 4))\n",
    "def f(x):\n    t = (x, x)\n    return t + t\n",
])
def test_tuples_among_themselves_keep_pythons_meaning(source: str) -> None:
    assert_like_numpy(jitted(source), 2)


def test_a_masked_check_as_the_corpus_writes_it() -> None:
    """numpy-benchmarks' check_mask: a default tuple compared with a ufunc of it and a row."""
    fn = jitted("def f(db, mask=(1, 0, 1)):\n    out = np.zeros(db.shape[0], dtype=bool)\n"
                "    for idx, line in enumerate(db):\n        target, vector = line[0], line[1:]\n"
                "        if (mask == np.bitwise_and(mask, vector)).all():\n            if target == 1:\n"
                "                out[idx] = 1\n    return out\n")
    rng = np.random.default_rng(0)
    for n in (50, 50, 80):
        assert_like_numpy(fn, rng.integers(0, 2, (n, 4)).astype(bool))


@pytest.mark.parametrize("tup", ["(1, 2, 3)", "(np.float32(1), np.float32(2), 0)", "(np.int8(1), 2.5, -1)"])
@pytest.mark.parametrize("op", ["==", "<", ">=", "!="])
def test_a_tuple_left_of_a_comparison_names_the_arrays_shape_first(tup: str, op: str) -> None:
    """Python asks the array (`x.__eq__(t)`), so NumPy's broadcast error names x's shape first, whether or not
    the tuple's items are plain literals (hypothesis found `(np.float32(1), ...) == x` naming them the other way)."""
    fn = jitted(f"def f(x):\n    return {tup} {op} x\n")
    for x in (np.arange(3.0), np.arange(3), np.zeros(4, np.int64), np.zeros((2, 4))):
        assert_like_numpy(fn, x)
