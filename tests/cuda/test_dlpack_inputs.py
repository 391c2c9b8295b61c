"""GPU arrays that speak only DLPack (JAX's kind; torch and CuPy speak it beside `__cuda_array_interface__`)
on target="cuda": taken zero-copy through runtime/cuda_arrays.DeviceView, written in place, an argument
returned as the caller's own object, a new result as a numba device array. No such library exists here: a
stand-in (tests/cuda/backing.py) says it lives on CUDA device 0 and hands NumPy's capsule over host memory,
which is the simulator's device memory, or on a GPU a torch CUDA tensor's."""

import numpy as np
import pytest

import cuvil
from cuvil.runtime import adapters, cuda_arrays
from tests.cuda.backing import DLPackOnly
from tests.cuda.test_kernels import expression, saxpy
from tests.programs.test_programs import assert_same


def test_a_dlpack_array_is_written_in_place_and_returned_as_itself():
    """First call compiles, the same kind hits the guard, another dtype misses it and compiles."""
    g = cuvil.jit(saxpy, target="cuda")
    for dtype, compiles in ((np.float64, 1), (np.float64, 1), (np.float32, 2)):
        x, y, out = np.arange(6, dtype=dtype), np.ones(6, dtype), np.zeros(6, dtype)
        expected = saxpy(dtype(2), x, y, out.copy())
        wrapped = DLPackOnly(out)
        assert g(dtype(2), DLPackOnly(x), DLPackOnly(y), wrapped) is wrapped
        assert_same(expected, wrapped.read())
        assert len(g.compile_events) == compiles


def test_one_dlpack_array_passed_twice_is_one_device_array():
    """out is x itself: the launcher sees the overlap and runs the serial twin, as Python's order gives."""
    base = np.arange(8.0)
    expected = saxpy(2.0, base.copy(), np.ones(8), base.copy())
    same = DLPackOnly(base)
    prepared, _ = adapters.prepare((2.0, same, np.ones(8), same), ["a", "x", "y", "out"], device=True)
    assert prepared[1] is prepared[3] and isinstance(prepared[1], cuda_arrays.DeviceView)
    assert same.capsules == 1
    assert cuvil.jit(saxpy, target="cuda")(2.0, same, np.ones(8), same) is same
    assert_same(expected, same.read())


def test_a_new_result_of_dlpack_inputs_is_a_numba_device_array():
    x, y = np.linspace(-1.0, 1.0, 10), np.arange(10.0)
    result = cuvil.jit(expression, target="cuda")(DLPackOnly(x), DLPackOnly(y))
    assert hasattr(result, "copy_to_host")
    assert_same(expression(x, y), result.copy_to_host())


@pytest.mark.parametrize("value", [np.ones(3), 2.0, (1, 2)])
def test_host_values_are_not_device_arrays(value):
    assert cuda_arrays.device_array(value) is None


def test_a_host_dlpack_producer_is_copied_not_viewed():
    class HostDLPack(DLPackOnly):  # NumPy's capsule, said to be on the host
        def __dlpack_device__(self):
            return (1, 0)  # kDLCPU

    assert cuda_arrays.device_array(HostDLPack(np.ones(3))) is None
