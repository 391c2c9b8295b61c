"""Calling a CUDA launcher (codegen/launch.py): arguments to the device and results back in the caller's kind.

NumPy arrays (and torch CPU tensors, which adapters.py turns into NumPy views) are copied to the device once
per call — the same array passed twice is one device array, as it is one array in Python — and those the
function may write (its effect summary) are copied back in place after the launcher returns. Arrays that
already live on a GPU (torch CUDA tensors, CuPy arrays, numba device arrays) are passed without a copy through
`__cuda_array_interface__`, or DLPack for a producer that has only that (runtime/cuda_arrays.DeviceView); an
array result comes back in the caller's library (NumPy for NumPy callers, a torch tensor for torch callers,
CuPy for CuPy, a numba device array otherwise), and an argument returned is the caller's own object.

An exception the launcher raises (what a kernel recorded, or a host check) is re-raised at the user's line,
read off the generated module's line map; a Numba typing failure in a kernel becomes a CuvilTypeError there.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numba import cuda

from ..errors import CuvilError, CuvilTypeError
from . import cuda_arrays, cuda_runtime, cuda_slots
from .cuda_arrays import to_host
from .where import module_line, raise_at  # shared with the CPU target's errors
from .wrapping import wrapping


def is_device_array(value: object) -> bool:
    """A numba device array, or another library's GPU array (__cuda_array_interface__ or DLPack)."""
    return cuda_runtime.simulated(value) or (type(value).__module__.split(".")[0] == "numba"
                                             and hasattr(value, "__cuda_array_interface__")) \
        or cuda_arrays.interface(value) is not None


def entry(launcher: Callable[..., Any], names: Sequence[str], writes: Sequence[str] | None,
          line_map: Sequence[tuple[str, int] | None]) -> Callable[..., Any]:
    """`launcher` as the dispatcher calls it: with the caller's arrays, returning the caller's kind."""
    written = frozenset(range(len(names))) if writes is None else frozenset(names.index(w) for w in writes
                                                                             if w in names)
    path = launcher.__code__.co_filename

    def call(*args: Any) -> Any:
        cuda_runtime.require()
        moved = _Moved(names)
        device_args = tuple(moved.to_device(a, names[i] if i < len(names) else f"#{i}") for i, a in enumerate(args))
        try:
            with cuda_runtime.allocating(moved.allocator()), cuda_slots.recycling(), wrapping():
                result = launcher(*device_args)
        except CuvilError:
            raise
        except Exception as exc:  # noqa: BLE001 (every exception is re-raised, at the user's line)
            raise _at_user_line(exc, path, line_map) from None
        moved.copy_back(args, device_args, written)
        return moved.back(result)

    call.launcher = launcher  # type: ignore[attr-defined]
    call.kernel_sizes = lambda: cuda_runtime.kernel_sizes(launcher.__globals__)  # type: ignore[attr-defined]
    return call


class _Moved:
    def __init__(self, names: Sequence[str]):
        self.names = names
        self.host_of: dict[int, Any] = {}  # id(device array) → the caller's object it stands for
        self.device_of: dict[int, Any] = {}  # id(NumPy array) → its device copy
        self.kind = "numpy"
        self.torch_device: Any = None  # the device of the first torch tensor: results are made there

    def allocator(self) -> Callable[[tuple[int, ...], np.dtype], Any] | None:
        """For a call on torch or CuPy arrays: new arrays from that library's caching allocator, returned to
        the caller as that library's arrays (no copy, no cudaMalloc or cudaFree per call); None: numba's."""
        if self.kind not in ("torch", "cupy"):
            return None
        library = sys.modules[self.kind]

        def allocate(shape: tuple[int, ...], dtype: np.dtype) -> Any:
            if self.kind == "torch":
                kind = library.from_numpy(np.empty(0, dtype)).dtype
                made = library.empty(shape, dtype=kind, device=self.torch_device)
            else:
                made = library.empty(shape, dtype=dtype)
            device = cuda_arrays.from_interface(made, made.__cuda_array_interface__)
            self.host_of[id(device)] = made
            return device

        return allocate

    def to_device(self, value: Any, name: str) -> Any:
        if isinstance(value, tuple):
            return tuple(self.to_device(v, f"{name}[{i}]") for i, v in enumerate(value))
        if isinstance(value, np.ndarray):
            found = self.device_of.get(id(value))
            if found is not None:
                return found
            for other in self.device_of.values():
                host = self.host_of[id(other)]
                if np.may_share_memory(host, value):
                    raise CuvilTypeError(f"argument '{name}' shares memory with another argument; target='cuda' "
                                         "copies NumPy arguments to the device one by one: pass a copy",
                                         argument=name)
            device = cuda.to_device(value if value.flags.c_contiguous else value.copy(order="C"))  # 0-d stays 0-d
            self.device_of[id(value)] = device
            self.host_of[id(device)] = value
            return device
        desc = cuda_arrays.interface(value)
        if desc is not None:  # another library's GPU array: a numba view of its memory, no copy
            origin = value.origin if isinstance(value, cuda_arrays.DeviceView) else value
            module = type(origin).__module__.split(".")[0]
            self.kind = {"torch": "torch", "cupy": "cupy"}.get(module, "numba")
            if module == "torch" and self.torch_device is None:
                self.torch_device = origin.device
            device = cuda_arrays.from_interface(value.detach() if module == "torch" and value is origin else value,
                                                desc)
            self.host_of[id(device)] = origin
            return device
        if is_device_array(value):
            self.kind = "numba"
        return value

    def copy_back(self, args: Sequence[Any], device_args: Sequence[Any], written: frozenset[int]) -> None:
        for i, (host, device) in enumerate(zip(args, device_args)):
            if i in written:
                self._copy_back(host, device)

    def _copy_back(self, host: Any, device: Any) -> None:
        if isinstance(host, tuple):
            for h, d in zip(host, device):
                self._copy_back(h, d)
        elif isinstance(host, np.ndarray) and host.size and host.flags.writeable:
            host[...] = to_host(device).reshape(host.shape)

    def back(self, result: Any) -> Any:
        if isinstance(result, tuple):
            return tuple(self.back(r) for r in result)
        if not is_device_array(result):
            return result
        mine = self.host_of.get(id(result))
        if mine is not None:
            return mine
        if self.kind == "torch":
            return sys.modules["torch"].as_tensor(result, device="cuda")
        if self.kind == "cupy":
            return sys.modules["cupy"].asarray(result)
        if self.kind == "numba":
            return result
        return to_host(result)


def _at_user_line(exc: Exception, path: str, line_map: Sequence[tuple[str, int] | None]) -> Exception:
    """`exc` with a traceback that ends at the user's line its generated line came from."""
    if type(exc).__module__.startswith("numba"):  # a kernel numba.cuda could not type: the user's error
        from .diagnose import user_error

        return user_error(exc)
    line = module_line(exc, path)
    where = line_map[line - 1] if line is not None and 0 < line <= len(line_map) else None
    if where is None:
        return exc
    return raise_at(exc, *where)  # type: ignore[return-value]
