"""A Guard's generated `enter` (the slow path's check, runtime/guards.py) and its `failure` sentence, one kind
of argument at a time: a guard that wrongly misses sends every call down the slow path (correct results, lost
speed: no end-to-end test sees it), one that wrongly passes runs a variant on arguments it was not compiled
for. Each kind is checked on the arguments it was made for (a hit), and on others (a miss, and its reason).
Written against surviving mutants of runtime/guards.py (tests/MUTATION.md)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from cuvil.analysis.types import Array, of_argument
from cuvil.errors import CuvilTypeError
from cuvil.runtime.adapters import Half
from cuvil.runtime.guards import MISS, Guard, arg_guards, device_fingerprint, global_guards, on_device, scalar_class
from tests.helpers import define


def _guard(names, values, static=None, checks=(), **extra) -> Guard:
    return Guard(arg_guards(names, values), static or {}, checks, **extra)


def test_a_static_dim_past_the_first_is_read_from_its_own_axis():
    guard = _guard(["x"], [np.zeros((3, 4))], {(0, 1): 4})
    enter = guard.entry(lambda x: x.shape)
    assert enter((np.zeros((3, 4)),)) == (3, 4)
    assert enter((np.zeros((3, 5)),)) is MISS
    assert guard.failure([np.zeros((3, 5))]) == "x.shape[1]: 5 != 4"
    assert guard.failure([np.zeros((3, 4, 1))]) == "x.ndim: 3 != 2"


def test_a_declared_range_passes_every_size_inside_it():
    guard = _guard(["x"], [np.zeros(5)], ranges={(0, 0): (1, 8)})
    enter = guard.entry(lambda x: len(x))
    assert [enter((np.zeros(n),)) for n in (1, 5, 8)] == [1, 5, 8]
    assert enter((np.zeros(9),)) is MISS and enter((np.zeros(0),)) is MISS
    assert guard.failure([np.zeros(9)]) == "x.shape[0]: 9 outside the declared range 1..8"


def test_a_half_array_passes_its_own_guard_and_enters_as_its_bits():
    half = Half(np.arange(3, dtype=np.uint16), "float16", None)
    guard = _guard(["h"], [half])
    assert guard.failure([half]) is None
    assert guard.entry(lambda bits: bits)((half,)) is half.bits
    assert guard.items() == ["h: float16[1d] as uint16 bits"]
    other = Half(np.arange(3, dtype=np.uint16), "bfloat16", None)
    assert guard.entry(lambda bits: bits)((other,)) is MISS
    assert guard.failure([other]) == "h: bfloat16[1d] != float16[1d]"
    assert guard.failure([np.zeros(3, np.float32)]) == "h: array(float32, 1d, C) != float16[1d]"


class _DeviceArray:
    """An object that only states `__cuda_array_interface__` (no DLPack, no device): a GPU array as the guard
    sees one, without a GPU."""

    def __init__(self, n: int = 4, typestr: str = "<f4"):
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": typestr, "data": (0, False), "version": 3,
                                         "strides": None}


def test_a_gpu_array_passes_its_own_guard():
    array = _DeviceArray()
    guard = _guard(["d"], [array])
    assert guard.failure([array]) is None
    enter = guard.entry(lambda d: "ran")
    assert enter((_DeviceArray(),)) == "ran"
    assert enter((_DeviceArray(typestr="<f8"),)) is MISS
    assert guard.failure([np.zeros(4, np.float32)]) == "d: ndarray is not a GPU array"


def test_a_half_array_of_another_rank_misses():
    guard = _guard(["h"], [Half(np.zeros(6, np.uint16), "float16", None)])
    other = Half(np.zeros((2, 3), np.uint16), "float16", None)
    assert guard.entry(lambda bits: bits)((other,)) is MISS
    assert guard.failure([other]) == "h: float16[2d] != float16[1d]"


class _Node:
    """An attribute holder: a numba device array's `gpu_data.context.device.id`."""


class _NumbaDeviceArray(_DeviceArray):
    """A numba device array as the guard reads one: its own interface, and its device through its context."""

    def __init__(self, device: int):
        super().__init__()
        self.gpu_data = _Node()
        self.gpu_data.context = _Node()
        self.gpu_data.context.device = _Node()
        self.gpu_data.context.device.id = device


_NumbaDeviceArray.__module__ = "numba.cuda.cudadrv.devicearray"  # what runtime/cuda_arrays.py looks at


def test_a_gpu_array_is_guarded_by_its_device():
    guard = _guard(["d"], [_NumbaDeviceArray(1)])
    spec = guard.args[0]
    assert (spec.device, spec.kind, spec.shape) == (1, Array("float32", 1), (4,))
    assert guard.items() == ["d: array(float32, 1d, C) on CUDA device 1"]
    assert guard.failure([_NumbaDeviceArray(1)]) is None
    assert guard.failure([_NumbaDeviceArray(0)]) == "d: on CUDA device 0, not device 1"
    assert _guard(["d"], [_DeviceArray()]).items() == ["d: array(float32, 1d, C) on the GPU"]


def _strided(shape, strides) -> _DeviceArray:
    array = _DeviceArray()
    array.__cuda_array_interface__.update(shape=shape, strides=strides)
    return array


def test_a_gpu_array_that_states_c_contiguous_strides_is_contiguous():
    contiguous = device_fingerprint(_strided((3, 4), None))
    assert device_fingerprint(_strided((3, 4), (16, 4))) == contiguous
    assert device_fingerprint(_strided((1, 4), (999, 4))) == contiguous  # a dim of 1 has any stride
    assert device_fingerprint(_strided((3, 4), (4, 12))) != contiguous
    assert device_fingerprint(_strided((3, 4), (32, 4))) != contiguous


def test_a_changed_global_misses_the_entry():
    env = {"K": 2}
    fn = define("""
    def add_k(x):
        return x + K
    """, env=env)
    guard = _guard(["x"], [1.0], checks=global_guards(fn))
    enter = guard.entry(fn)
    assert enter((1.0,)) == 3.0
    fn.__globals__["K"] = 3
    assert enter((1.0,)) is MISS
    assert guard.failure([1.0]) == "global K: 3 != 2"


def test_only_numbers_get_a_class_test_in_place_of_the_fingerprint():
    """A bool (Python's or NumPy's) is not a number type to Numba: its guard keeps the fingerprint."""
    for value in (True, np.True_):
        numba_type = numba.typeof(value)
        assert scalar_class(numba_type, of_argument(value, numba_type)) is None
    for value, cls in ((1.5, float), (np.float64(1.5), np.float64), (3, int), (np.int32(3), np.int32)):
        numba_type = numba.typeof(value)
        assert scalar_class(numba_type, of_argument(value, numba_type)) is cls


def test_what_the_fingerprint_misses_is_named_inside_tuples():
    """A subclass, a NumPy float for a Python one, another byte order: Numba's fingerprint lets each through,
    the guard names the item that differs."""
    guard = _guard(["t"], [(np.zeros(3), 1.5)])
    assert guard.failure([(np.zeros(3), 1.5)]) is None
    assert guard.failure([(np.ma.zeros(3), 1.5)]) == "t[0]: MaskedArray is not ndarray"
    assert guard.failure([(np.zeros(3), np.float64(1.5))]) == "t[1]: float64 is not float"
    assert guard.failure([(np.zeros(3).astype(">f8"), 1.5)]) == "t[0].dtype: >f8 != <f8"
    assert _guard(["x"], [np.zeros(3)]).failure([np.ma.zeros(3)]) == "x: MaskedArray is not ndarray"


class _DLPack:
    """A DLPack producer (JAX and others) that lives on the device type `kind` (2: CUDA, 1: the host)."""

    def __init__(self, kind: int, export: bool = True):
        self.kind = kind
        if export:
            self.__dlpack__ = lambda stream=None: None

    def __dlpack_device__(self):
        return (self.kind, 0)


class FakeCUDAArray:
    """The CUDA simulator's device array, by the name and module the guard knows it by."""


FakeCUDAArray.__module__ = "numba.cuda.simulator.cudadrv.devicearray"


def test_which_arguments_live_on_a_gpu():
    assert on_device(_DeviceArray()) and on_device((1.0, _DeviceArray()))
    assert on_device(_DLPack(2))
    assert not on_device(_DLPack(1)) and not on_device(_DLPack(2, export=False))
    assert on_device(FakeCUDAArray())
    other = type("HostArray", (), {"__module__": FakeCUDAArray.__module__})
    assert not on_device(other()) and not on_device(np.zeros(3)) and not on_device(None)


def test_an_argument_numba_cannot_type_is_refused_by_name():
    with pytest.raises(CuvilTypeError) as caught:
        arg_guards(["d"], [object()])
    assert str(caught.value).startswith("argument 'd' is a object, which compiled code cannot take (")
    assert caught.value.argument == "d"
