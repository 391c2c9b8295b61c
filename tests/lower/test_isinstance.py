"""`isinstance(x, C)` of a number or an array is CPython's answer (lower/isinstances.py): Numba's said
`isinstance(True, int)` is False and `isinstance(np.int64(1), int)` True, and failed inside its typing on an
abstract NumPy class (`np.floating`). Every kind of argument, each called three times (first call, guard hit, and
after a guard miss by another kind)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches
from tests.helpers import define

CLASSES = ["int", "float", "bool", "complex", "np.generic", "np.number", "np.integer", "np.signedinteger",
           "np.unsignedinteger", "np.floating", "np.complexfloating", "np.bool_", "np.float64", "np.int64",
           "np.float32", "np.int8", "np.uint64", "(int, np.floating)", "(float, np.integer)", "(bool, np.bool_)"]
KINDS = st.sampled_from([True, 3, 2.5, 1j, np.True_, np.int8(-1), np.int64(7), np.uint64(2), np.float32(1.5),
                         np.float64(0.5), np.complex64(1j), np.ones(2), np.arange(3, dtype=np.int32)])

every = define("def every(x):\n    return (" + ", ".join(f"isinstance(x, {c})" for c in CLASSES) + ",)\n",
               env={"np": np})
branch = define("""
    def branch(x):
        if isinstance(x, (float, np.floating)):
            return x * 2
        if isinstance(x, bool):
            return 10
        if isinstance(x, int):
            return x + 1
        return 0
    """, env={"np": np})
EVERY, BRANCH = cuvil.jit(every), cuvil.jit(branch)


@settings(max_examples=20)
@given(first=KINDS, then=KINDS)
def test_isinstance_is_cpythons(first, then):
    for x in (first, first, then):
        assert_matches(every, {"cuvil": EVERY}, x)
        assert_matches(branch, {"cuvil": BRANCH}, x)


def test_from_numpy_import_class():
    from numpy import floating, integer

    fn = cuvil.jit(define("def f(x):\n    return isinstance(x, floating), isinstance(x, (integer, bool))\n",
                          env={"floating": floating, "integer": integer}))
    for x in (np.float32(1), np.float32(2), True, np.int16(3), 4.0):
        assert_matches(fn.py_func, {"cuvil": fn}, x)


def test_isinstance_of_ndarray_is_refused_with_what_to_do():
    """An array argument may be a torch tensor, which Python says is no np.ndarray: not decided when compiling."""
    fn = cuvil.jit(define("def f(x):\n    return isinstance(x, np.ndarray)\n", env={"np": np}))
    with pytest.raises(cuvil.CuvilTypeError, match="test an argument's kind outside the compiled function") as info:
        fn(np.ones(2))
    assert info.value.lineno == 2
