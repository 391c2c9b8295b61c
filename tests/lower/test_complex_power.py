"""A complex power of zero is NumPy's for NumPy values (1 for a zero exponent, 0 when the exponent's real part is
positive whatever its imaginary part, nan+nanj otherwise) and CPython's for Python numbers (the same, but
ZeroDivisionError '0.0 to a negative or complex power' where NumPy gives nan); Numba's exp(b log 0) made every
one but 0 ** 0 nan+nanj (runtime/elementwise.power, runtime/intrinsics.py_pow). First call, hit, miss."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import assert_like_numpy, jitted

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
POWER = "def f(a, b):\n    return a ** b\n"
PARTS = st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.5, -0.5])
BASES = st.sampled_from([0j, 0.0, 0, 1 + 1j, 2.0, -1j])


@settings(max_examples=30, deadline=None)
@given(dtype=st.sampled_from(["complex64", "complex128"]), re=PARTS, im=PARTS, base=BASES, array=st.booleans())
def test_numpy_complex_powers_of_zero_are_numpys(dtype, re, im, base, array):
    fn = jitted(POWER)
    exponent = np.dtype(dtype).type(complex(re, im))
    x = np.full(3, base, dtype) if array else np.dtype(dtype).type(base)
    for a, b in ((x, exponent), (x, exponent), (np.zeros((2, 2), "complex128"), exponent)):
        assert_like_numpy(fn, a, b)


@settings(max_examples=30, deadline=None)
@given(re=PARTS, im=PARTS, base=BASES)
def test_python_complex_powers_of_zero_are_cpythons(re, im, base):
    fn = jitted(POWER)
    for a, b in ((base, complex(re, im)), (base, complex(re, im)), (0j, re)):
        assert_like_numpy(fn, a, b)
