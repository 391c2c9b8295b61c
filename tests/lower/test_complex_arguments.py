"""A Python complex argument is a weak scalar (analysis/types.py `Scalar`, NEP 50): `float32_array * 1j` is
complex64, `int8_array * 1j` complex128, and an `np.complex128` argument is a variant of its own whose guard
says so. A mutant that lost the word for a weak complex failed every compile with a complex argument (the cache
key spells each argument's type), and one that made `abs(z)` a strong float64 gave `abs(z) * float32_array` in
float64 (tests/MUTATION.md)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def scale(a, z):
    return a * z, z * 2, z.real + z.imag, abs(z) * a  # abs of a Python complex is a Python float: weak too


SCALE = cuvil.jit(scale)
parts = st.integers(-4, 4).map(float)


def _same(got, expected):
    assert type(got) is type(expected) and len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        if type(e) in (np.float64, np.complex128):
            e = e.item()  # 64-bit scalar results come back as Python's (docs/semantics.md, "Results")
        assert type(g) is type(e), (g, e)
        if isinstance(e, np.ndarray):
            assert (g.dtype, g.shape) == (e.dtype, e.shape)
            np.testing.assert_array_equal(g, e)
        else:
            assert g == e


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64", "float64"])
@settings(max_examples=6, deadline=None)
@given(re=parts, im=parts)
def test_a_python_complex_follows_nep_50(dtype, re, im):
    a = np.arange(3, dtype=dtype)
    _same(SCALE(a, complex(re, im)), scale(a, complex(re, im)))


def test_first_call_guard_hit_and_a_numpy_complex_miss():
    jitted = cuvil.jit(scale)
    a = np.arange(3, dtype=np.float32)
    for z in (1 + 2j, -3j, np.complex128(1 + 2j)):
        _same(jitted(a, z), scale(a, z))
    reasons = [e.reason for e in cuvil.explain(jitted).compiles]
    assert reasons[0] == "first call" and len(reasons) == 2
    assert reasons[1].startswith("z: a NumPy complex128, not a Python complex")
