"""A dtype argument, however it is spelled — a NumPy attribute, a name imported from NumPy, a string, a builtin
type, a local name bound to one, by keyword or by position — gives the array NumPy gives (analysis/numpy_rules.py
`_dtype_name`: mutation testing found that ignoring every dtype argument, or crashing on a local name, failed
no test in the analysis's list). Each function is called for a first call, a guard hit and a guard miss.

A dtype named by another array (`dtype=a.dtype`, `np.zeros_like(a, b.dtype)`) is that array's dtype in the code
after it: Cuvil read it as no dtype at all, typed `np.arange(n, dtype=a.dtype)` as int64 and computed what
followed in int64 (`a + np.arange(n, dtype=a.dtype) * 100` of int8 did not wrap and came back int64). A dtype
argument Cuvil cannot read leaves the result's type unknown (Numba's typing), never the default's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy import float32, int16

import cuvil
from cuvil.testing import assert_matches
from tests.lower.compare import arrays, assert_like_numpy, jitted


def by_attribute(n):
    return np.zeros(n, dtype=np.float32) + np.ones(n, np.int8)


def by_imported_name(n):
    return np.ones(n, dtype=float32), np.full(n, 3, int16)


def by_string(n):
    return np.zeros(n, "float32"), np.ones(n, dtype="uint8")


def by_builtin(n):
    return np.ones(n, float), np.zeros(n, dtype=float)


def by_builtin_int_or_bool(n):
    return np.zeros(n, dtype=int), np.zeros(n, bool)


def by_local_name(n):
    dt = np.float32
    kind = np.int16
    return np.zeros(n, dt), np.ones(n, dtype=kind)


def by_astype(n):
    return np.arange(n).astype(np.float32), np.arange(n).astype("int8") * 2


@pytest.mark.parametrize("fn", [by_attribute, by_imported_name, by_string, by_builtin, by_local_name, by_astype,
                                by_builtin_int_or_bool], ids=lambda f: f.__name__)
def test_a_dtype_argument_gives_numpys_dtype(fn):
    compiled = cuvil.jit(fn)
    for n in (3, 3, 5):
        assert_matches(fn, {"cuvil": compiled}, n)


ARRAY_DTYPES = {
    "arange": "def f(a, b):\n    return a + np.arange(a.shape[0], dtype=a.dtype) * 100\n",
    "zeros": "def f(a, b):\n    x = np.zeros(a.shape, a.dtype)\n    return x + 200\n",
    "zeros_like, positional": "def f(a, b):\n    return np.zeros_like(a, b.dtype) + 0.1\n",
    "full_like, positional": "def f(a, b):\n    return np.full_like(a, 3, b.dtype) * 0.1\n",
    "ones_like": "def f(a, b):\n    return np.ones_like(a, dtype=b.dtype) / 3\n",
    "astype": "def f(a, b):\n    return a.astype(b.dtype) * 0.1\n",
    "sum": "def f(a, b):\n    return np.sum(a, dtype=b.dtype) * np.int8(3)\n",
    "scalar's dtype": "def f(a, b):\n    return np.full(2, b.sum(), a.dtype) * 0.5\n",
}
DTYPES = ("int8", "uint8", "int32", "float32", "float64")


@pytest.mark.parametrize("form", ARRAY_DTYPES)
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_a_dtype_named_by_an_array(form, data):
    fn = jitted(ARRAY_DTYPES[form])
    pairs = [(data.draw(st.sampled_from(DTYPES)), data.draw(st.sampled_from(DTYPES)))]
    pairs += [pairs[0], (data.draw(st.sampled_from(DTYPES)), data.draw(st.sampled_from(DTYPES)))]
    for da, db in pairs:  # first call, guard hit, guard miss (or hit)
        a = data.draw(arrays(da, (3,), special=False))
        b = data.draw(arrays(db, (2,), special=False))
        with np.errstate(all="ignore"):
            assert_like_numpy(fn, a, b)


@settings(max_examples=10, deadline=None)
@given(dtype=st.sampled_from(["int8", "uint8", "int32", "float32", "bool"]), v=st.integers(-300, 300),
       data=st.data())
def test_the_dtypes_own_constructor(dtype, v, data):
    """`a.dtype.type(v)` is NumPy's `np.int8(v)` for an int8 `a`: a Python int it cannot hold is an OverflowError,
    and arithmetic with it wraps in int8. Cuvil typed it as unknown; Numba wrapped the int and computed in int64
    (`a.dtype.type(100) + a[0]` of 100 was 200, NumPy's -56)."""
    fn = jitted("def f(a, v):\n    return a.dtype.type(v) + a[0], a.dtype.type(v)\n")
    for n in (2, 2, 3):  # first call, guard hit, guard miss
        with np.errstate(all="ignore"):
            assert_like_numpy(fn, data.draw(arrays(dtype, (n,), special=False)), v)
