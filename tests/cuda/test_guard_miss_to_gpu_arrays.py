"""A function compiled for NumPy arrays, then called with GPU arrays that only `__cuda_array_interface__` or
DLPack describe (CuPy's, torch's CUDA tensors, JAX's): the call is a guard miss and must compile a variant for
them. Today the guard check of the NumPy variant asks `numba.typeof` of the GPU array for its miss reason
(runtime/guards.py `_type_failure`), which raises Numba's "ValueError: Cannot determine Numba type of
<class …>" to the user. Called with the GPU arrays first, the same function works (test_interface_inputs.py).
Strict xfail: runtime/guards.py is the "runtime" engineer's; it reports the fix."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.cuda.backing import DLPackOnly, Interface
from tests.cuda.test_kernels import saxpy


@pytest.mark.xfail(strict=True, raises=ValueError, reason="runtime/guards.py _type_failure: numba.typeof")
@pytest.mark.parametrize("kind", [Interface, DLPackOnly])
def test_numpy_first_then_gpu_arrays_compiles_a_variant_for_them(kind):
    g = cuvil.jit(saxpy, target="cuda")
    x, y = np.arange(6.0), np.ones(6)
    assert np.array_equal(g(2.0, x, y, np.zeros(6)), saxpy(2.0, x, y, np.zeros(6)))  # first call: NumPy
    out = kind(np.zeros(6))
    assert g(2.0, kind(x), kind(y), out) is out  # guard miss: GPU arrays
    assert np.array_equal(out.read(), saxpy(2.0, x, y, np.zeros(6)))
    assert len(g.compile_events) == 2 and "GPU" in g.compile_events[1].reason
