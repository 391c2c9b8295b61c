"""target="auto" picks the CUDA target when an argument lives on a GPU (runtime/guards.on_device): arrays with
`__cuda_array_interface__`, DLPack producers on a CUDA device (JAX's kind), and the CUDA simulator's own device
arrays (which have no interface, and answer DLPack for the host memory inside them). Anything else runs on
the CPU. Run on the simulator (tests/conftest.py), with tests/cuda/backing.py's stand-ins."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from cuvil.runtime import guards
from tests.cuda.backing import GPU, DLPackOnly, Interface
from tests.cuda.test_kernels import saxpy
from tests.programs.test_programs import assert_same


def _targets(g) -> list[str]:
    return ["cuda" if "target: cuda" in items else "cpu" for items in cuvil.explain(g).guards]


def test_dlpack_only_gpu_arrays_run_on_cuda_first_call_hit_and_miss():
    g = cuvil.jit(saxpy, target="auto")
    for dtype, compiles in ((np.float64, 1), (np.float64, 1), (np.float32, 2)):
        x, y, out = np.arange(6, dtype=dtype), np.ones(6, dtype), np.zeros(6, dtype)
        expected = saxpy(dtype(2), x, y, out.copy())
        wrapped = DLPackOnly(out)
        assert g(dtype(2), DLPackOnly(x), DLPackOnly(y), wrapped) is wrapped  # written in place on the "GPU"
        assert_same(expected, wrapped.read())
        assert len(g.compile_events) == compiles
    assert _targets(g) == ["cuda", "cuda"]
    assert g.compile_events[1].reason == "a: float32 != float64 (guard of variant #1)"


@pytest.mark.skipif(GPU, reason="the simulator's device arrays exist only on the simulator")
def test_simulator_device_arrays_run_on_cuda_first_call_hit_and_miss():
    from numba import cuda

    g = cuvil.jit(saxpy, target="auto")
    for dtype, compiles in ((np.float64, 1), (np.float64, 1), (np.float32, 2)):
        x, y = np.arange(5, dtype=dtype), np.full(5, 3, dtype)
        out = cuda.to_device(np.zeros(5, dtype))
        expected = saxpy(dtype(2), x, y, np.zeros(5, dtype))
        g(dtype(2), cuda.to_device(x), cuda.to_device(y), out)
        assert_same(expected, out.copy_to_host())
        assert len(g.compile_events) == compiles
    assert _targets(g) == ["cuda", "cuda"]
    assert g.compile_events[1].reason == "a: float32 != float64 (guard of variant #1)"


def test_host_arrays_and_host_dlpack_producers_run_on_the_cpu():
    class HostDLPack(DLPackOnly):  # a producer that says it lives on the host (kDLCPU)
        def __dlpack_device__(self):
            return (1, 0)

    g = cuvil.jit(saxpy, target="auto")
    x, y = np.arange(4.0), np.ones(4)
    out = np.zeros(4)
    assert g(2.0, x, y, out) is out
    assert_same(saxpy(2.0, x, y, np.zeros(4)), out)
    assert _targets(g) == ["cpu"]
    assert not guards.on_device(HostDLPack(np.ones(3)))
    assert not guards.on_device(np.ones(3)) and not guards.on_device(2.0) and not guards.on_device(None)


@pytest.mark.parametrize("value, expected", [
    (Interface(np.ones(3)), True),
    (DLPackOnly(np.ones(3)), True),
    ((np.ones(3), DLPackOnly(np.ones(3))), True),  # inside a tuple
    ((np.ones(3), 1.0), False),
])
def test_on_device_recognizes_each_kind_of_gpu_array(value, expected):
    assert guards.on_device(value) is expected


def test_a_producer_that_cannot_say_where_it_lives_is_not_a_gpu_array():
    class Broken(DLPackOnly):
        def __dlpack_device__(self):
            raise RuntimeError("no device")

    class NoCapsule:  # a device but no __dlpack__: not a DLPack producer
        def __dlpack_device__(self):
            return (2, 0)

    assert not guards.on_device(Broken(np.ones(3)))
    assert not guards.on_device(NoCapsule())


def test_numpy_then_gpu_arrays_under_auto_is_a_miss_naming_the_gpu_array_then_each_variant_hits():
    """The host variant's guard check names a GPU array in its reason (it asked numba.typeof before, whose
    ValueError reached the user); each kind then finds its own variant again."""
    g = cuvil.jit(saxpy, target="auto")
    x, y = np.arange(6.0), np.ones(6)
    expected = saxpy(2.0, x, y, np.zeros(6))
    assert_same(expected, g(2.0, x, y, np.zeros(6)))  # first call: the CPU
    for _ in range(2):  # guard miss, then hit
        out = DLPackOnly(np.zeros(6))
        assert g(2.0, DLPackOnly(x), DLPackOnly(y), out) is out
        assert_same(expected, out.read())
    assert_same(expected, g(2.0, x, y, np.zeros(6)))  # the CPU variant again
    assert [e.reason for e in g.compile_events] == [
        "first call", "x: a GPU array, not array(float64, 1d, C) (guard of variant #1)"]
    assert _targets(g) == ["cuda", "cpu"]


def test_a_value_numba_cannot_type_gets_a_reason_not_numbas_error():
    guard = guards.Guard(guards.arg_guards(["x"], [np.ones(3)]), {}, ())
    assert guard.failure([object()]) == "x: object != array(float64, 1d, C)"
