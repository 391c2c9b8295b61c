"""What a generated CUDA launcher calls on the host (codegen/launch.py): launch configurations, device cells
for reductions and serial scalars, error slots (reused from call to call: runtime/cuda_slots.py) and their
decoding, allocations, overlap tests.

Kernels cannot raise (Numba checks `raise` in kernels only under debug), so a kernel that may fail records
`iteration * CODES + code` with an atomic min in a one-element int64 array: the lowest failing iteration wins,
as Python stops at the first. The launcher reads it after the launch (`first_error`) and raises the exception
that code stands for, at the user's line.

Importing this module imports numba.cuda; the simulator (`NUMBA_ENABLE_CUDASIM=1`) must be set before that.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

import numpy as np
from numba import cuda

from ..errors import CuvilError
from .cuda_slots import CODES, NO_ERROR, error_slots, first_error, launched  # noqa: F401 (the launcher's names)

if not hasattr(np, "row_stack"):  # NumPy 2.5 removed the alias; numba-cuda 0.30.4 still types it on first compile
    np.row_stack = np.vstack

BLOCK = 256  # threads per block for large extents; the shared arrays of block reductions have this size


def simulator() -> bool:
    return bool(getattr(cuda, "simulator_enabled", False)) or cuda.__name__.endswith("simulator")


def require() -> None:
    """A CuvilError (not a Numba traceback) when there is neither a CUDA device nor the simulator. Asked on
    every call; the driver is asked until it has once said yes (a device does not go away in a process)."""
    if _AVAILABLE or simulator() or _is_sim():
        return
    try:
        ok = cuda.is_available() and len(cuda.gpus) > 0
    except Exception as exc:  # noqa: BLE001 (a missing driver is reported in many ways)
        raise CuvilError(f"target='cuda' needs a CUDA device, and none can be used here ({exc}); use "
                         "target='cpu', or set NUMBA_ENABLE_CUDASIM=1 before importing numba to simulate one"
                         ) from None
    if not ok:
        raise CuvilError("target='cuda' needs a CUDA device, and this machine has no usable CUDA driver or "
                         "device; use target='cpu', or set NUMBA_ENABLE_CUDASIM=1 before importing numba to "
                         "simulate one")
    _AVAILABLE.append(True)


_AVAILABLE: list[bool] = []  # [True] once a device was found


def kernel_sizes(names: dict[str, Any]) -> list[str]:
    """Per kernel of a generated module and per signature it was compiled for: its PTX size and, from the
    driver, the registers each thread uses (what limits occupancy). Empty before the first launch and on the
    simulator (which compiles nothing). The kernels are those the module lists (`CUVIL_KERNELS`), not the
    device functions it imports."""
    out = []
    for name in sorted(names.get("CUVIL_KERNELS", ())):
        overloads = getattr(names.get(name), "overloads", None)
        if not isinstance(overloads, dict):
            continue
        for sig, kernel in overloads.items():
            cc = cuda.get_current_device().compute_capability
            size = len(kernel.inspect_asm(cc).encode())
            try:
                registers = f"{kernel.regs_per_thread} registers per thread"
            except Exception:  # noqa: BLE001 (no driver attribute: the size alone)
                registers = "registers unknown"
            out.append(f"kernel {name}{tuple(sig)}: PTX {size} bytes for cc {cc[0]}.{cc[1]}, {registers}")
    return out


def _is_sim() -> bool:
    from numba import config

    return bool(getattr(config, "ENABLE_CUDASIM", 0))


def disk_cache(path: str) -> bool:
    """Whether the generated module's kernels keep their machine code beside it (numba-cuda's `cache=True`):
    when the module is a file in a folder this process may write (a cache entry; not a module Cuvil holds in
    memory only because the disk could not take it), on a real GPU."""
    folder = os.path.dirname(path)
    return not (simulator() or _is_sim()) and os.path.isfile(path) and os.access(folder, os.W_OK)


@functools.cache
def max_blocks() -> int:
    """32 blocks per multiprocessor (a grid-stride loop covers the rest), 1024 in the simulator."""
    if _is_sim():
        return 1024
    return 32 * cuda.get_current_device().MULTIPROCESSOR_COUNT


def grid(n: int, serial: bool = False) -> tuple[int, int]:
    """(blocks, threads) for `n` iterations: 256 threads a block (fewer, a power of two ≥ 32, for small
    extents: the simulator runs each thread as Python), blocks to cover `n`, capped; (1, 1) runs the
    iterations in order on one thread (the serial twin)."""
    if serial:
        return 1, 1
    n = max(int(n), 1)
    threads = BLOCK if n >= BLOCK else max(32, 1 << (n - 1).bit_length())
    return min(math.ceil(n / threads), max_blocks()), threads


def rows(n: int, width: int | None = None, serial: bool = False) -> tuple[int, int]:
    """(blocks, threads) of a block-per-row kernel (codegen/cuda_rows.py) over `n` rows of `width` elements
    (None: not known on the host): a block per row, capped (the blocks stride over the rest); 256 threads, or
    for shorter rows the power of two ≥ 32 that covers one (whole warps: the block reductions shuffle);
    (1, 1) for the serial twin."""
    if serial:
        return 1, 1
    threads = BLOCK if width is None or width >= BLOCK else max(32, 1 << (max(int(width), 1) - 1).bit_length())
    return min(max(int(n), 1), max_blocks()), threads


def shuffles() -> bool:
    """Whether kernels may use warp shuffles: on a GPU, not on the simulator (which has none)."""
    return not (simulator() or _is_sim())


# While cuvil.profile times a call: how that call launches a kernel (inspect/cuda_profile.py). A context
# variable, so the hook is the profiling call's own: a call of the same function on another thread (or a
# profile there) launches plainly, or through its own hook.
_LAUNCH_HOOK: ContextVar[Callable[[Any, Any], Callable[..., None]] | None] = ContextVar("cuvil_cuda_launch_hook",
                                                                                      default=None)


def launch(kernel: Any, config: Any) -> Callable[..., None]:
    """`kernel[config]`, what every launch of a generated launcher goes through (`_rt.launch(k, grid)(args)`)."""
    hook = _LAUNCH_HOOK.get()
    run = kernel[config] if hook is None else hook(kernel, config)

    def go(*args: Any) -> None:
        launched(args)  # an error slot among them is no longer known clean (runtime/cuda_slots.py)
        run(*args)

    return go


@contextlib.contextmanager
def launch_hook(hook: Callable[[Any, Any], Callable[..., None]]) -> Iterator[None]:
    """Launches of this thread (this context) go through `hook(kernel, config)` inside the block."""
    token = _LAUNCH_HOOK.set(hook)
    try:
        yield
    finally:
        _LAUNCH_HOOK.reset(token)


def cell(value: Any, dtype: Any = None) -> Any:
    """A one-element device array holding `value`: a reduction's accumulator, a scalar a kernel sets."""
    return cuda.to_device(np.array([value], dtype=dtype if dtype is not None else np.asarray(value).dtype))


def empty_cell(dtype: Any) -> Any:
    return cuda.device_array(1, dtype=dtype)


def read(device_cell: Any) -> Any:
    """The cell's value as Numba's CPU target returns it: a Python number for 64-bit and bool types (Numba
    boxes those), a NumPy scalar for narrower ones."""
    value = device_cell.copy_to_host()[0]
    if value.dtype in (np.int64, np.float64, np.complex128, np.bool_):
        return value.item()
    return value


def identity(op: str, dtype: Any) -> Any:
    """The value a thread's partial starts from, for a reduction by `op`, in `dtype`."""
    dt = np.dtype(dtype)
    if op in ("+", "-"):
        return dt.type(0)
    if op == "*":
        return dt.type(1)
    if dt.kind == "f":
        return dt.type(-np.inf if op == "max" else np.inf)
    info = np.iinfo(dt) if dt.kind in "iu" else None
    if info is None:
        raise CuvilError(f"no identity for a {op} reduction of {dt}")
    return dt.type(info.min if op == "max" else info.max)


def combine(op: str, before: Any, partial: Any) -> Any:
    """The reduction variable after the loop: its value before, combined with the kernels' result."""
    if op in ("+", "-"):
        return before + partial
    if op == "*":
        return before * partial
    return max(before, partial) if op == "max" else min(before, partial)


def error_value(slots: Any, k: int) -> int:
    return int(slots.copy_to_host()[1 + k])


def int_out_of_bounds(value: int, _unused: int, dtype: Any) -> None:
    """NumPy's OverflowError for the int a kernel could not store into `dtype` (runtime/cuda_checks.py's fits
    record it): a failure's raiser takes the two recorded values first (codegen/launch.raise_recorded)."""
    from .elementwise import python_int_as

    python_int_as(value, dtype)


def decode(value: int) -> tuple[int, int]:
    """(iteration, code) of an error slot's value."""
    return divmod(value, CODES)


def _extent(a: Any) -> tuple[int, int]:
    iface = a.__cuda_array_interface__
    lo = hi = iface["data"][0]
    itemsize = np.dtype(iface["typestr"]).itemsize
    shape = iface["shape"]
    strides = iface.get("strides") or _contiguous(shape, itemsize)
    for n, s in zip(shape, strides):
        span = (n - 1) * s
        lo, hi = (lo + span, hi) if span < 0 else (lo, hi + span)
    return lo, hi + itemsize


def _contiguous(shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    out, step = [], itemsize
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def _size(a: Any) -> int:
    return int(np.prod(a.shape)) if hasattr(a, "shape") else 0


def simulated(a: Any) -> bool:
    """A device array of the simulator (a NumPy array inside; no `__cuda_array_interface__`)."""
    return type(a).__name__ == "FakeCUDAArray"


def overlaps(a: Any, b: Any) -> bool:
    """Whether two device arrays may share memory (their byte ranges meet), as np.may_share_memory."""
    if isinstance(a, tuple):
        return any(overlaps(x, b) for x in a)
    if isinstance(b, tuple):
        return any(overlaps(a, y) for y in b)
    if simulated(a) or simulated(b):
        return bool(np.may_share_memory(getattr(a, "_ary", a), getattr(b, "_ary", b)))
    if not (hasattr(a, "__cuda_array_interface__") and hasattr(b, "__cuda_array_interface__")):
        return False
    if _size(a) == 0 or _size(b) == 0:
        return False
    alo, ahi = _extent(a)
    blo, bhi = _extent(b)
    return alo < bhi and blo < ahi


def self_overlaps(a: Any) -> bool:
    """A written array whose elements share memory (a zero stride): only the serial order is Python's."""
    if isinstance(a, tuple):
        return any(self_overlaps(x) for x in a)
    strides = getattr(a, "strides", None) or ()
    return any(s == 0 and n > 1 for s, n in zip(strides, getattr(a, "shape", ())))


# -- allocations: host-side device arrays, sized from the shapes the launcher computes ----------------------

# While a call runs on another library's GPU arrays: how it allocates (runtime/cuda_call.py), so that new
# arrays come from that library's caching allocator — numba's device_array is a cudaMalloc, and its release a
# cudaFree that waits for the device, per call.
_ALLOCATE: ContextVar[Callable[[tuple[int, ...], np.dtype], Any] | None] = ContextVar("cuvil_cuda_allocate",
                                                                                    default=None)


@contextlib.contextmanager
def allocating(allocate: Callable[[tuple[int, ...], np.dtype], Any] | None) -> Iterator[None]:
    """Inside the block, `empty` and `full` of this thread (context) allocate through `allocate`."""
    token = _ALLOCATE.set(allocate)
    try:
        yield
    finally:
        _ALLOCATE.reset(token)


def empty(shape: Any, dtype: Any) -> Any:
    dims, dt = _shape(shape), np.dtype(dtype)
    allocate = _ALLOCATE.get()
    if allocate is not None and 0 not in dims:
        return allocate(dims, dt)
    return cuda.device_array(dims, dtype=dt)


def full(shape: Any, value: Any, dtype: Any) -> Any:
    out = empty(shape, dtype)
    if out.size:
        _fill(out.reshape(out.size), np.dtype(dtype).type(value))
    return out


def matmul(a: Any, b: Any) -> Any:
    """`a @ b` of device arrays, on the device (runtime/cuda_matmul.py)."""
    from .cuda_matmul import matmul as product

    return product(a, b)


def copy(a: Any) -> Any:
    """`a.copy()` of a device array: a new C-contiguous device array."""
    out = cuda.device_array(a.shape, dtype=a.dtype)
    if out.size == 0:
        return out
    if a.is_c_contiguous():
        out.copy_to_device(a)
        return out
    from .cuda_arrays import contiguous  # a strided view: copied by a kernel

    return contiguous(a)


def _shape(shape: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in shape) if isinstance(shape, tuple | list) else (int(shape),)


@functools.cache
def _fill_kernel() -> Any:
    @cuda.jit
    def fill(out, value):  # pragma: no cover (runs on the device)
        for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
            out[i] = value

    return fill


def _fill(flat: Any, value: Any) -> None:
    blocks, threads = grid(flat.size)
    _fill_kernel()[blocks, threads](flat, value)
