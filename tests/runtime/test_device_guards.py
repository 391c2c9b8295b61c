"""Guards of GPU arrays (runtime/guards.py) record the CUDA device each lives on: a kernel launched for one
device cannot read another's memory, so an array on another device is a guard miss whose reason names the
device. Shape and strides are read as the CUDA target reads them (runtime/cuda_arrays.interface). Run on the
CUDA simulator (tests/conftest.py turns it on), with stand-ins for other libraries' arrays."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from cuvil.runtime import guards
from tests.cuda.backing import GPU, DLPackOnly, Interface
from tests.cuda.test_kernels import saxpy


class OnDevice(Interface):
    """A GPU array that says which device it is on, as torch and CuPy do through DLPack."""

    def __init__(self, array: np.ndarray, ordinal: int):
        super().__init__(array)
        self.ordinal = ordinal

    def __dlpack_device__(self) -> tuple[int, int]:
        return (2, self.ordinal)  # kDLCUDA


def _call(g, ordinal):
    x, y = np.arange(6.0), np.ones(6)
    out = OnDevice(np.zeros(6), ordinal)
    assert g(2.0, OnDevice(x, ordinal), OnDevice(y, ordinal), out) is out
    assert out.read().tolist() == saxpy(2.0, x, y, np.zeros(6)).tolist()


def test_an_array_on_another_device_misses_the_guard_naming_the_device():
    g = cuvil.jit(saxpy, target="cuda")
    _call(g, 0)  # first call
    _call(g, 0)  # guard hit
    assert [e.reason for e in g.compile_events] == ["first call"]
    assert "x: array(float64, 1d, C) on CUDA device 0" in cuvil.explain(g).guards[0]
    _call(g, 1)  # guard miss: the same types on device 1
    assert g.compile_events[1].reason == "x: on CUDA device 1, not device 0 (guard of variant #1)"
    _call(g, 1)
    _call(g, 0)  # each device's variant is found again
    assert len(g.compile_events) == 2


def test_the_device_is_part_of_the_fingerprint():
    a = np.arange(4.0)
    assert guards.device_fingerprint(OnDevice(a, 0)) != guards.device_fingerprint(OnDevice(a, 1))
    assert guards.device_ordinal(OnDevice(a, 3)) == 3
    assert guards.device_ordinal(Interface(a)) is None  # version 3 of the interface names no device


@pytest.mark.skipif(GPU, reason="the stand-in's capsule is host memory on the simulator only")
def test_shape_and_strides_are_read_as_the_cuda_target_reads_them():
    """A DLPack-only producer (JAX's kind) is described by DLPack, as runtime/cuda_arrays.interface does."""
    a = np.arange(12.0).reshape(3, 4)[::-1]
    spec = guards.arg_guards(["x"], [Interface(a)])[0]
    assert spec.shape == (3, 4) and str(spec.numba_type) == "array(float64, 2d, A)"
    # strides (-32, 8): not C-contiguous; DLPackOnly says CUDA device 0
    for array, contiguous in ((a, False), (a.copy(), True)):
        want = ("cuda", "<f8", 2, contiguous, "tests.cuda.backing", 0)
        assert guards.device_fingerprint(DLPackOnly(array)) == repr(want).encode()
