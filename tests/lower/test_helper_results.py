"""A helper's value used where no name keeps it (`return h(a, x)`, `out[0] = h(a, x)`, an argument, a condition)
is NumPy's, in NumPy's dtype: such a helper was typed only when a name needed its type, so it went to Numba
unlowered and `a.max() + x` of int8 came back as the int 129 (NumPy: np.int8(-127)). Every position, narrow
dtypes at their edges; first call, guard hit, guard miss (another dtype)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches
from tests.helpers import define

HELPERS = """
def h(a, x):
    return a.max() + x * a[0]
def twice(v):
    return v * 2
"""
POSITIONS = {
    "return": "return h(a, x)",
    "store": "out = np.zeros(2, a.dtype)\n    out[0] = h(a, x)\n    return out",
    "argument": "return twice(h(a, x))",
    "numpy": "return np.abs(h(a, x))",
    "tuple": "return (h(a, x), 1)",
    "condition": "if h(a, x) > 0:\n        return 1\n    return 0",
    "arithmetic": "return h(a, x) - a[1]",
}
FUNCTIONS = {k: define(HELPERS + f"def f(a, x):\n    {body}\n", "f", env={"np": np}) for k, body in POSITIONS.items()}
JITTED = {k: cuvil.jit(fn) for k, fn in FUNCTIONS.items()}
DTYPES = ["int8", "uint8", "int16", "float32"]


def _array(data, dtype):
    if np.dtype(dtype).kind == "f":
        return np.array(data.draw(st.lists(st.floats(-1e3, 1e3, width=32), min_size=2, max_size=4)), dtype=dtype)
    info = np.iinfo(dtype)
    values = st.sampled_from([int(info.min), int(info.max), 0, 1]) | st.integers(int(info.min), int(info.max))
    return np.array(data.draw(st.lists(values, min_size=2, max_size=4)), dtype=dtype)


@settings(max_examples=25)
@given(data=st.data(), position=st.sampled_from(sorted(POSITIONS)), dtypes=st.permutations(DTYPES))
def test_a_helpers_value_nobody_names_is_numpys(data, position, dtypes):
    first, then = dtypes[0], dtypes[1]
    a, b = _array(data, first), _array(data, then)
    with np.errstate(all="ignore"):
        for array in (a, a, b):
            x = array.dtype.type(data.draw(st.integers(0, 3)))
            assert_matches(FUNCTIONS[position], {"cuvil": JITTED[position]}, array, x)


TWO_TYPES = {
    "returned": "return h(a, a[0]), h(b, b[0])",
    "named": "u = h(a, a[0])\n    v = h(b, b[0])\n    return u, v",
    "nested": "return twice(h(a, a[0])), twice(h(b, b[0]))",
    "stored": "out = np.zeros(1, b.dtype)\n    out[0] = h(b, b[0])\n    return h(a, a[0]), out",
}
TWO = {k: define(HELPERS + f"def f(a, b):\n    {body}\n", "f", env={"np": np}) for k, body in TWO_TYPES.items()}
TWO_JITTED = {k: cuvil.jit(fn) for k, fn in TWO.items()}


@settings(max_examples=20)
@given(data=st.data(), position=st.sampled_from(sorted(TWO_TYPES)), dtypes=st.permutations(DTYPES))
def test_a_helper_called_with_two_dtypes_is_numpys_under_each(data, position, dtypes):
    """One function calling a helper (and the helper its callee) with two dtypes: one copy per signature
    (lower/signatures.py), each NumPy's; Numba typed the single helper alone and computed int8 in int64."""
    a, b, c = (_array(data, d) for d in dtypes[:3])
    with np.errstate(all="ignore"):
        for args in ((a, b), (a, b), (c, a)):
            assert_matches(TWO[position], {"cuvil": TWO_JITTED[position]}, *args)


KEYWORD_HELPER = """
def g(a, x=1, k=2):
    return a.max() + x * a[0] * k
"""
CALL_FORMS = {
    "keyword": "return g(a, x=x)",
    "reordered": "return g(k=x, a=a)",
    "defaults": "return g(a)",
    "a default skipped": "return g(a, k=x)",
    "mixed": "return g(a, x, k=x)",
    "two bindings": "return g(a, k=x), g(a, x=x), g(a, x, x)",
}
KEYWORDS = {k: define(KEYWORD_HELPER + f"def f(a, x):\n    {body}\n", "f") for k, body in CALL_FORMS.items()}
KEYWORDS_JITTED = {k: cuvil.jit(fn) for k, fn in KEYWORDS.items()}


@settings(max_examples=25)
@given(data=st.data(), form=st.sampled_from(sorted(CALL_FORMS)), dtypes=st.permutations(DTYPES))
def test_a_helper_called_with_keywords_or_defaults_is_numpys(data, form, dtypes):
    """Arguments by keyword and parameters left to their defaults bind as Python binds them
    (lower/program_types.bind): such a helper was typed from its positional arguments only, so it went to
    Numba unlowered, and `g(k=x, a=a)` of int8 gave 200 where NumPy wraps to np.int8(-56)."""
    a, b = _array(data, dtypes[0]), _array(data, dtypes[1])
    with np.errstate(all="ignore"):
        for array in (a, a, b):
            x = array.dtype.type(data.draw(st.integers(-2, 3) if array.dtype.kind != "u" else st.integers(0, 3)))
            assert_matches(KEYWORDS[form], {"cuvil": KEYWORDS_JITTED[form]}, array, x)
