"""A function compiled for NumPy arrays, then called with GPU arrays that only `__cuda_array_interface__` or
DLPack describe (CuPy's, torch's CUDA tensors, JAX's): the call is a guard miss and must compile a variant for
them. The guard check of the NumPy variant used to ask `numba.typeof` of the GPU array for its miss reason
(runtime/guards.py `_type_failure`), which raised Numba's "ValueError: Cannot determine Numba type of
<class …>" to the user; the reason now says it is a GPU array."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.cuda.backing import DLPackOnly, Interface
from tests.cuda.test_kernels import saxpy


@pytest.mark.parametrize("kind", [Interface, DLPackOnly])
def test_numpy_first_then_gpu_arrays_compiles_a_variant_for_them(kind):
    g = cuvil.jit(saxpy, target="cuda")
    x, y = np.arange(6.0), np.ones(6)
    assert np.array_equal(g(2.0, x, y, np.zeros(6)), saxpy(2.0, x, y, np.zeros(6)))  # first call: NumPy
    out = kind(np.zeros(6))
    assert g(2.0, kind(x), kind(y), out) is out  # guard miss: GPU arrays
    assert np.array_equal(out.read(), saxpy(2.0, x, y, np.zeros(6)))
    assert len(g.compile_events) == 2 and "GPU" in g.compile_events[1].reason
