"""Complex division is NumPy's (Smith's algorithm, as its loops and scalars compute it): a zero divisor gives
infinities and NaNs (`(1+1j) / 0` is inf+infj, `2 / 0` inf+nanj) where Numba raised ZeroDivisionError, for
whole arrays, elements and NumPy scalars, complex64 and complex128 (runtime/elementwise.true_divide)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import assert_like_numpy, jitted

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's for inf and nan parts, as intended
PARTS = st.sampled_from([0.0, -0.0, 1.0, -2.5, 3e-300, 1e300, np.inf, -np.inf, np.nan]) | st.floats(-10, 10)
FORMS = {"arrays": "a / b", "by zero": "a / 0.0", "elements": "np.full(1, a[0] / b[-1])",
         "element by array": "a[0] / b"}


def _same(got, expected):
    assert (type(got), got.dtype, got.shape) == (type(expected), expected.dtype, expected.shape)
    assert np.array_equal(got.real, expected.real, equal_nan=True), (got, expected)
    assert np.array_equal(got.imag, expected.imag, equal_nan=True), (got, expected)


@pytest.mark.parametrize("form", FORMS.values(), ids=FORMS.keys())
@settings(max_examples=15, deadline=None)
@given(dtype=st.sampled_from(["complex64", "complex128"]), data=st.data())
def test_complex_division_is_numpys(form, dtype, data):
    fn = jitted(f"def f(a, b):\n    return {form}\n")
    for size in (2, 2, 3):  # first call, guard hit, guard miss
        parts = [data.draw(st.lists(PARTS, min_size=size, max_size=size)) for _ in range(4)]
        a = (np.array(parts[0]) + 1j * np.array(parts[1])).astype(dtype)
        b = (np.array(parts[2]) + 1j * np.array(parts[3])).astype(dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = fn.py_func(a, b)
            got = fn(a, b)
        _same(got, expected)


MIXED = "def f(a, b):\n    return a / b, b / a\n"


@pytest.mark.parametrize("other", ["float64", "int64", "int32", "float32", "int16", "uint8"])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_complex64_with_another_numpy_scalar_divides_in_numpys_type(other, data):
    """np.float64(1.1) / np.complex64(1+2j) is a complex128 in NumPy (float64, int32 and wider promote
    complex64 to complex128; float32 and narrow ints keep it); the division ran in complex64 precision
    whenever a complex64 was among the operands. First call, hit, and the operands as arrays."""
    fn = jitted(MIXED)
    c = np.complex64(complex(data.draw(PARTS), data.draw(PARTS)))
    x = np.dtype(other).type(data.draw(st.integers(-100, 100)) if other[0] in "iu" and other != "uint8"
                             else data.draw(st.integers(0, 100)) if other == "uint8" else data.draw(PARTS))
    for a, b in ((x, c), (x, c), (np.full(2, x), np.full(2, c))):
        assert_like_numpy(fn, a, b)  # complex128 within float64's tolerance: a complex64 division is not
