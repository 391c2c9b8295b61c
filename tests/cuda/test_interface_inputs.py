"""GPU arrays of other libraries on target="cuda" (issue 11): an object exposing `__cuda_array_interface__`
(torch CUDA tensors and CuPy cannot exist here: a small stand-in over host memory, which is the simulator's
device memory) and numba device arrays pass zero-copy — the kernels write the caller's memory, an argument
returned is the caller's own object — with three calls each (first, guard hit, guard miss) and aliasing
arguments; DLPack producers are read through the same interface (runtime/cuda_arrays.py)."""

import numpy as np
import pytest

import cuvil
from cuvil.runtime import cuda_arrays, cuda_runtime
from tests.cuda.backing import GPU, Interface
from tests.cuda.test_kernels import saxpy, total
from tests.programs.test_programs import assert_same


def _calls(dtype):
    x, y = np.arange(6, dtype=dtype), np.ones(6, dtype)
    return x, y, np.zeros(6, dtype)


def test_an_interface_array_is_written_in_place_and_returned_as_itself():
    """First call compiles, the same kind again hits the guard, another dtype misses it and compiles."""
    g = cuvil.jit(saxpy, target="cuda")
    for dtype, compiles in ((np.float64, 1), (np.float64, 1), (np.float32, 2)):
        x, y, out = _calls(dtype)
        expected = saxpy(dtype(2), x, y, out.copy())
        wrapped = Interface(out)
        assert g(dtype(2), Interface(x), Interface(y), wrapped) is wrapped
        assert_same(expected, wrapped.read())
        assert len(g.compile_events) == compiles


def test_a_reversed_interface_view_and_aliased_arguments():
    """out is x itself, and y a reversed view of it: the launcher's overlap test runs the serial twin."""
    base = np.arange(8.0)
    x = base.copy()
    expected = saxpy(2.0, x, x[::-1], x)
    same = Interface(base)
    view = same.view(slice(None, None, -1))
    assert view.__cuda_array_interface__["strides"] == (-8,)
    assert cuvil.jit(saxpy, target="cuda")(2.0, same, view, same) is same
    assert_same(expected, same.read())


@pytest.fixture
def numba_interface(monkeypatch):  # on a GPU numba's device arrays have it: the patch touches a class unused
    """The simulator's device arrays with the `__cuda_array_interface__` numba's real ones have (their memory
    is the host's), so that guards and adapters see them as a GPU's, as on a GPU."""
    from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray  # unused on a GPU: patched all the same

    monkeypatch.setattr(FakeCUDAArray, "__cuda_array_interface__", property(
        lambda self: Interface(self._ary).__cuda_array_interface__), raising=False)


def test_numba_device_arrays_stay_on_the_device(numba_interface):
    g = cuvil.jit(saxpy, target="cuda")
    for dtype, compiles in ((np.float64, 1), (np.float64, 1), (np.float32, 2)):
        x, y, out = _calls(dtype)
        expected = saxpy(dtype(2), x, y, out.copy())
        device_out = cuda_runtime.cuda.to_device(out)
        result = g(dtype(2), cuda_runtime.cuda.to_device(x), cuda_runtime.cuda.to_device(y), device_out)
        assert result is device_out
        assert_same(expected, device_out.copy_to_host())
        assert len(g.compile_events) == compiles
    assert_same(total(np.arange(6.0)), cuvil.jit(total, target="cuda")(Interface(np.arange(6.0))))


@pytest.mark.skipif(GPU, reason="a host capsule's pointer is host memory, which a GPU's numba view would not be")
def test_a_dlpack_array_is_described_as_its_cuda_array_interface():
    """cuda.core reads the DLPack capsule; here a CPU producer (NumPy), for the description's fields."""
    a = np.arange(12.0).reshape(3, 4)[::-1, 1:]
    desc = cuda_arrays.dlpack_interface(a)
    assert desc["shape"] == (3, 3) and desc["typestr"] == "<f8" and desc["strides"] == (-32, 8)
    assert desc["data"] == (a.ctypes.data, False)
    assert cuda_arrays.interface(a) is None  # a NumPy array is copied to the device, not viewed
    assert_same(a, cuda_arrays._host_view(desc))



def test_numba_device_arrays_pass_as_they_are():
    """With no interface patched in: the simulator's device arrays (their memory a NumPy array's) pass through
    runtime/cuda_arrays.DeviceView, a GPU's through their own interface; an argument returned is the caller's."""
    g = cuvil.jit(saxpy, target="cuda")
    for dtype, compiles in ((np.float64, 1), (np.float64, 1), (np.float32, 2)):
        x, y, out = _calls(dtype)
        expected = saxpy(dtype(2), x, y, out.copy())
        device_out = cuda_runtime.cuda.to_device(out)
        assert g(dtype(2), cuda_runtime.cuda.to_device(x), cuda_runtime.cuda.to_device(y), device_out) is device_out
        assert_same(expected, device_out.copy_to_host())
        assert len(g.compile_events) == compiles
    created = cuvil.jit(doubled, target="cuda")(cuda_runtime.cuda.to_device(np.arange(4.0)))
    assert hasattr(created, "copy_to_host")  # a new array: a numba device array, as the caller's were
    assert_same(np.arange(4.0) * 2, created.copy_to_host())


def doubled(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] * 2
    return out
