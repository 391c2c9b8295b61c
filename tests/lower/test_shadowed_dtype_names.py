"""A module that binds `float` or `int` to a NumPy type of its own makes `np.zeros(n, dtype=float)` that type, as
in Python (analysis/numpy_rules.py `_dtype_name` reads the builtin's meaning only when no global shadows it): a
mutant that always took the builtin's meaning made float64 and int64 arrays here (tests/MUTATION.md)."""

from __future__ import annotations

import numpy as np

import cuvil
from cuvil.testing import assert_matches
from tests.helpers import define


def test_a_global_that_shadows_a_builtin_type_is_the_dtype():
    fn = define("""
        def f(n):
            a, b = np.zeros(n, dtype=float), np.ones(n, int)
            return a, b, a + 1e-8, b + 127, np.full(n, 2, dtype=complex) * 1.5
        """, env={"np": np, "float": np.float32, "int": np.int8, "complex": np.complex64})
    expected = fn(3)
    assert [a.dtype for a in expected] == [np.float32, np.int8, np.float32, np.int8, np.complex64]
    jitted = cuvil.jit(fn)
    for n in (3, 3, 40):  # first call, guard hit, a length past the static dims (a miss or a hit: either way)
        assert_matches(fn, {"cuvil": jitted}, n)
