"""runtime/pages.py: the huge-page advice changes no value, keeps the array (same memory, dtype, shape) and is
what the CPU target prints around the Plan's `np.empty` allocations."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from cuvil.runtime.pages import THRESHOLD, advise, empty


@pytest.mark.parametrize("nbytes", [0, 8, THRESHOLD - 8, THRESHOLD, THRESHOLD + 4096 + 24])
def test_advise_keeps_the_array(nbytes):
    a = np.arange(nbytes // 8, dtype=np.float64)
    expected = a.copy()
    b = advise(a)
    assert b.ctypes.data == a.ctypes.data and b.dtype == a.dtype and b.shape == a.shape
    np.testing.assert_array_equal(b, expected)


def test_lowered_allocations_are_advised():
    @cuvil.jit
    def double(x):
        return 2.0 * x

    x = np.arange(THRESHOLD // 4 + 3, dtype=np.float32)
    got = double(x)
    assert got.dtype == np.float32 and got.shape == x.shape
    np.testing.assert_array_equal(got, double.py_func(x))
    assert " = empty((" in double.source() and "np.empty(" not in double.source()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.uint64, np.bool_, np.complex128])
@pytest.mark.parametrize("shape", [(0,), (5,), (THRESHOLD // 8 + 1,), (3, 0), (2, 3, 4)])
def test_empty_is_numpys(dtype, shape):
    """The cached allocation the CPU target prints for `np.empty(dims, np.<dtype>)`: NumPy's dtype, shape and
    C order, writable, whatever the size."""
    got = empty(shape, dtype)
    assert (got.dtype, got.shape, got.flags.c_contiguous, got.flags.writeable) == (np.dtype(dtype), shape, True, True)
