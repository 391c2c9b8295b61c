"""Device arrays on the host side of the CUDA target: other libraries' GPU arrays taken zero-copy, views the
launcher takes (`a[1:]`, `a[::-1]`) and copies back to the host, safe for empty and reversed arrays.

A GPU array of another library comes in through `__cuda_array_interface__` (torch, CuPy, JAX, anything
implementing it) or DLPack (a producer whose `__dlpack_device__` is a CUDA device), as a numba device array
over the same memory: nothing is copied, and the kernels' writes are the caller's. On the simulator the
"device" is host memory, so the same description becomes a NumPy view of that memory.

numba-cuda refuses two things the simulator (NumPy inside) does without a word: a view of an empty device
array whose extent it computes as non-empty ("non-empty slice into empty slice": an empty array has a NULL
pointer), and copying a view with a negative stride to the host ("D->H copy not implemented for negative
strides"). So an empty view is a fresh empty array (no memory to point at), and a view that is not
C-contiguous is copied into one on the device first.
"""

from __future__ import annotations

import ctypes
import functools
from typing import Any

import numpy as np
from numba import cuda

from .cuda_runtime import _contiguous, _is_sim, grid, simulated, simulator

# ruff: noqa: ANN001 (kernels are typed by Numba at each launch)


_CUDA_DEVICES = (2, 3)  # DLPack's kDLCUDA and kDLCUDAHost
LEGACY_STREAM = 1  # `stream` of __cuda_array_interface__ v3 for CUDA's legacy default stream


def interface(value: Any) -> dict[str, Any] | None:
    """The `__cuda_array_interface__` (version 3) of a GPU array of another library, read from its own or
    from DLPack; None for anything else (NumPy arrays, numba's own device arrays, numbers)."""
    if isinstance(value, np.ndarray) or type(value).__module__.split(".")[0] == "numba":
        return None
    if hasattr(value, "__cuda_array_interface__"):
        return dict(value.__cuda_array_interface__)
    if hasattr(value, "__dlpack__") and hasattr(value, "__dlpack_device__") \
            and int(value.__dlpack_device__()[0]) in _CUDA_DEVICES:
        return dlpack_interface(value)
    return None


def dlpack_interface(value: Any, stream: int = -1) -> dict[str, Any]:
    """A DLPack producer's array as a `__cuda_array_interface__` (strides in bytes; `stream` -1: the producer
    synchronizes nothing, the launch waits on the default stream)."""
    return _dlpack_view(value, stream)[0]


def _dlpack_view(value: Any, stream: int = -1) -> tuple[dict[str, Any], Any]:
    from cuda.core.utils import StridedMemoryView

    found = StridedMemoryView.from_dlpack(value, stream_ptr=stream)
    itemsize = found.dtype.itemsize
    strides = None if found.strides is None else tuple(s * itemsize for s in found.strides)
    return {"version": 3, "shape": tuple(found.shape), "typestr": found.dtype.str, "strides": strides,
            "data": (found.ptr, bool(found.readonly)), "stream": None}, found


class DeviceView:
    """A GPU array as target="cuda" takes it when it has no `__cuda_array_interface__` of its own (runtime/
    adapters.prepare): one that speaks only DLPack, or a device array of the simulator. It carries the
    interface, which the guards, the launcher and numba read, and the caller's own object (`origin`), which an
    argument returned is; `_keep` holds what the memory's description depends on (a DLPack view: the capsule's
    memory stays the producer's for as long as the call runs)."""

    __slots__ = ("__cuda_array_interface__", "_keep", "dtype", "origin", "shape")

    def __init__(self, origin: Any, desc: dict[str, Any], keep: Any = None):
        self.origin, self.__cuda_array_interface__, self._keep = origin, desc, keep
        self.shape = tuple(desc["shape"])
        self.dtype = np.dtype(desc["typestr"])


def device_array(value: Any) -> Any:
    """`value` as target="cuda" passes it without a copy: itself when it has `__cuda_array_interface__`
    (torch CUDA tensors, CuPy, numba device arrays), a DeviceView when it speaks only DLPack from a CUDA
    device or is the simulator's device array; None for anything else (NumPy arrays, host tensors, numbers:
    adapters.py converts those)."""
    if isinstance(value, np.ndarray):
        return None
    if hasattr(value, "__cuda_array_interface__"):
        return value
    if simulated(value):  # its memory is a NumPy array's: described as a GPU's would be
        return DeviceView(value, _describe(value._ary), value)
    if hasattr(value, "__dlpack__") and hasattr(value, "__dlpack_device__"):
        try:
            where = int(value.__dlpack_device__()[0])
        except Exception:  # noqa: BLE001 (a producer that cannot say where it lives is not a GPU array)
            return None
        if where in _CUDA_DEVICES:
            desc, view = _dlpack_view(value)
            return DeviceView(value, desc, view)
    return None


def _describe(a: np.ndarray) -> dict[str, Any]:
    return {"version": 3, "shape": a.shape, "typestr": a.dtype.str, "data": (a.ctypes.data, not a.flags.writeable),
            "strides": None if a.flags.c_contiguous else a.strides, "stream": None}


def from_interface(value: Any, desc: dict[str, Any]) -> Any:
    """A numba device array over the memory `desc` describes, kept alive by `value`."""
    if simulator() or _is_sim():
        from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

        return FakeCUDAArray(_host_view(desc))
    if desc.get("stream") not in (None, LEGACY_STREAM) and hasattr(value, "__cuda_array_interface__"):
        return cuda.as_cuda_array(value)  # synchronizes with the producer's stream, as the interface asks
    # No stream, or CUDA's legacy default stream (CuPy's default): the kernels run on the default stream, which
    # orders them after that stream's work — waiting for it on the host per call would only cost.
    return cuda.from_cuda_array_interface(desc, owner=value, sync=False)


def _host_view(desc: dict[str, Any]) -> np.ndarray:
    """The simulator's "device" memory is the host's: a NumPy array over `desc`'s pointer, no copy."""
    dtype, shape = np.dtype(desc["typestr"]), tuple(desc["shape"])
    pointer, readonly = desc["data"]
    if 0 in shape or not pointer:
        return np.empty(shape, dtype)
    strides = tuple(desc["strides"]) if desc.get("strides") else _contiguous(shape, dtype.itemsize)
    low = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    high = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0) + dtype.itemsize
    memory = (ctypes.c_char * (high - low)).from_address(pointer + low)
    out = np.ndarray(shape, dtype, buffer=memory, offset=-low, strides=strides)
    out.flags.writeable = not readonly
    return out


def view(a: Any, key: Any) -> Any:
    """`a[key]` of a device array; an empty result is a new empty array of the view's shape."""
    if simulated(a) or not hasattr(a, "shape"):
        return a[key]
    shape = np.lib.stride_tricks.as_strided(np.zeros(1, np.bool_), a.shape, (0,) * len(a.shape))[key].shape
    if 0 in shape:
        return cuda.device_array(shape, dtype=a.dtype)
    return a[key]


def to_host(a: Any) -> np.ndarray:
    """A device array's values as a new NumPy array (C order)."""
    if a.size == 0:
        return np.empty(a.shape, dtype=a.dtype)
    return contiguous(a).copy_to_host()


def contiguous(a: Any) -> Any:
    """`a` when it is C-contiguous, else a C-contiguous device copy of it (copied by a kernel: numba-cuda copies
    only contiguous memory)."""
    if a.size == 0 or a.is_c_contiguous():
        return a
    out = cuda.device_array(a.shape, dtype=a.dtype)
    if a.ndim > 3:
        out.copy_to_device(np.ascontiguousarray(a.copy_to_host()))  # positive strides only; rare
        return out
    blocks, threads = grid(a.size)
    _copy_kernel(a.ndim)[blocks, threads](out, a)
    return out


@functools.cache
def _copy_kernel(ndim: int) -> Any:
    if ndim == 1:
        @cuda.jit
        def copy1(out, a):  # pragma: no cover (runs on the device)
            for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
                out[i] = a[i]

        return copy1
    if ndim == 2:
        @cuda.jit
        def copy2(out, a):  # pragma: no cover
            for f in range(cuda.grid(1), a.size, cuda.gridsize(1)):
                i, j = f // a.shape[1], f % a.shape[1]
                out[i, j] = a[i, j]

        return copy2

    @cuda.jit
    def copy3(out, a):  # pragma: no cover
        for f in range(cuda.grid(1), a.size, cuda.gridsize(1)):
            i, rest = f // (a.shape[1] * a.shape[2]), f % (a.shape[1] * a.shape[2])
            out[i, rest // a.shape[2], rest % a.shape[2]] = a[i, rest // a.shape[2], rest % a.shape[2]]

    return copy3
