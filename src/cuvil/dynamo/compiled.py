"""A partition compiled for its argument types, and the call that runs it on torch tensors (issue 14).

`compile_partition` finds a partition's kernel by its key (partition_key.py): in this process, then on disk
(modules.py: a later process loads the module and Numba's `cache=True` machine code without building a Plan),
and builds it (kernel.py, then codegen/cpu.py prints it) only when neither has it.

The nest runs on threads of our own, not Numba's `parallel=True`: the module is compiled without it (a `prange`
is then a `range`) and each call splits the rows (the elements, when flat) into `torch.get_num_threads()`
chunks, run at once on a pool (the kernel releases the GIL), the row-indexed arrays sliced to each chunk. Reason,
measured here: Numba compiles a softmax nest in 0.15 s without `parallel=True` and in 0.66 s with it (its parfor
passes and gufunc wrapper), and compile time is what a torch.compile user waits for; the steady state is the
same loop code. Small tensors (under 32K elements) run on the calling thread; larger ones split only where
their first calls, timed both ways, found the split faster on this machine (split.py).

There are no Cuvil guards: Dynamo guards the graph, and the kernel takes its extents as arguments, so a new
batch size reuses the machine code.
"""

from __future__ import annotations

import dataclasses
import math
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import torch
import torch.fx

from . import forking, modules, partition_key, prelude
from . import layout as L
from .pipeline import compile_kernel
from .spec import STORAGE, Spec
from .split import SplitChoice

_lock = threading.Lock()
COUNTS = {"kernels": 0, "numba_compiles": 0, "plans_built": 0}


class Compiled:
    """The callable that replaces a partition in the graph: tensors in, tensors out."""

    def __init__(self, spec: Spec, text: str):
        self.spec, self.text = spec, text
        started = time.perf_counter()
        with _lock:
            self.fn: Any = getattr(modules.load(text), spec.name)
            signature = spec.signature()
            if signature not in self.fn.signatures:
                on_compile_thread(compile_kernel, self.fn, signature)
                COUNTS["numba_compiles"] += 1
        self.seconds = time.perf_counter() - started
        self.__name__ = spec.name
        self._flat = spec.mode == "flat"
        classes = [c for c, _ in spec.inputs] + [c for c, *_ in spec.outputs]
        self._classes = classes
        self._split = [c in (L.FULL, L.ROW) for c in classes]  # the arrays indexed by row (element, when flat)
        self._choice = SplitChoice()

    def __call__(self, *args: torch.Tensor) -> Any:
        s = self.spec
        dims = L.resolve(s.reference, args)
        cols = dims[-1] if dims else 1
        rows = math.prod(dims[:-1])
        shapes = {L.FULL: (rows * cols,) if self._flat else (rows, cols), L.ROW: (rows,), L.COL: (cols,),
                  L.SCALAR: (1,)}
        outs = [torch.empty(L.resolve(spec, args), dtype=dtype) for _, dtype, spec in s.outputs]
        arrays = [_numpy(t).reshape(shapes[c]) for t, c in zip((*args, *outs), self._classes)]
        extent = rows * cols if self._flat else rows
        chunks = min(torch.get_num_threads(), max(1, rows * cols // _CHUNK), extent)
        if chunks <= 1:
            self._whole(extent, cols, arrays)
        else:  # split.py: split only where it was timed faster than one thread, on this machine
            self._choice.run(((rows * cols).bit_length(), chunks), lambda: self._whole(extent, cols, arrays),
                             lambda: self._split_run(extent, chunks, cols, arrays))
        if isinstance(s.result, tuple):
            return tuple(outs[i] for i in s.result)
        return outs[s.result]

    def _whole(self, extent: int, cols: int, arrays: list[Any]) -> None:
        if self._flat:
            self.fn(extent, *arrays)
        else:
            self.fn(extent, cols, *arrays)

    def _split_run(self, extent: int, chunks: int, cols: int, arrays: list[Any]) -> None:
        """The nest in `chunks` parts at once: the caller runs the first, the pool the others."""
        bounds = [extent * i // chunks for i in range(chunks + 1)]
        pool = _pool()
        futures = [pool.submit(self._run, bounds[i], bounds[i + 1], cols, arrays) for i in range(1, chunks)]
        self._run(bounds[0], bounds[1], cols, arrays)
        for f in futures:
            f.result()

    def _run(self, start: int, stop: int, cols: int, arrays: list[Any]) -> None:
        """The nest over rows (elements, when flat) start..stop: the arrays indexed by row are sliced to them."""
        part = [a[start:stop] if s else a for a, s in zip(arrays, self._split)]
        if self._flat:
            self.fn(stop - start, *part)
        else:
            self.fn(stop - start, cols, *part)


_CHUNK = 1 << 15  # elements below which one thread does the whole nest (a pool hand-off costs ~20 µs)
_POOL: list[ThreadPoolExecutor] = []


def _pool() -> ThreadPoolExecutor:
    with _lock:
        if not _POOL:
            _POOL.append(ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="cuvil-dynamo"))
    return _POOL[0]


def _numpy(t: torch.Tensor) -> Any:
    if not t.is_contiguous():
        t = t.contiguous()
    if t.dtype in STORAGE:
        t = t.view(torch.uint16)
    return (t.detach() if t.requires_grad else t).numpy()


_COMPILE_THREAD: list[ThreadPoolExecutor] = []
_thread_lock = threading.Lock()  # not _lock: Compiled holds that while it waits for the compile


def on_compile_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)` on a thread of its own, for Numba's compile. Why: Dynamo calls the backend some hundreds of
    frames deep, and CPython 3.11 keeps frames in 16 KiB chunks that it maps when a call crosses into a new
    one and unmaps on return; Numba's typing and lowering go up and down across such a boundary, and each
    crossing faults fresh pages in (slow on this VM). Measured, a LayerNorm kernel compiled inside the backend:
    7,000–15,000 minor faults and 0.05–0.1 s of system time; on this thread, from a shallow stack, ~850 and none
    (0.2 s CPU against 0.27). The caller only waits: Numba compiles one function at a time anyway."""
    with _thread_lock:
        if not _COMPILE_THREAD:
            _COMPILE_THREAD.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuvil-dynamo-numba"))
    if threading.current_thread().name.startswith("cuvil-dynamo-numba"):
        return fn(*args)
    return _COMPILE_THREAD[0].submit(fn, *args).result()


forking.install()  # a forked child gets new threads and locks (forking.py)


_COMPILED: dict[str, Compiled] = {}
_REFUSED: dict[str, str] = {}


@dataclasses.dataclass
class Found:
    """How a partition's kernel was found, for explain: where, and what it cost."""

    kernel: Compiled
    where: str  # "process", "disk" or "built"
    plan_seconds: float  # building and printing the Plan
    seconds: float  # loading the module and Numba's compile (or cache load); 0 when found in the process


def compile_partition(gm: torch.fx.GraphModule) -> Found:
    """The compiled kernel of a partition, shared by every graph that has the same one (Dynamo recompiles a
    graph when its guards fail, with the same partitions: they cost nothing the second time); raises
    layout.NotFusable with the reason when the partition cannot be one kernel."""
    key = partition_key.key(gm)
    found = _COMPILED.get(key)
    if found is not None:
        return Found(found, "process", 0.0, 0.0)
    if key in _REFUSED:
        raise L.NotFusable(_REFUSED[key])
    with prelude.foreground():  # the vector math compiled ahead waits until this kernel is compiled
        entry = modules.read_entry(key)
        where, started = "disk", time.perf_counter()
        if entry is None:
            where, entry = "built", _build(gm, key)
            modules.write_entry(key, entry)
        plan_seconds = time.perf_counter() - started if where == "built" else 0.0
        if isinstance(entry, str):
            _REFUSED[key] = entry
            raise L.NotFusable(entry)
        found = _COMPILED[key] = Compiled(*entry)
    COUNTS["kernels"] += 1
    spec = found.spec  # the vector math a later graph's kernels may call, compiled while the model runs
    prelude.start(prelude.families([d for _, d in spec.inputs] + [d for _, d, _ in spec.outputs]))
    return Found(found, where, plan_seconds, found.seconds)


def _build(gm: torch.fx.GraphModule, key: str) -> tuple[Spec, str] | str:
    from .kernel import build

    COUNTS["plans_built"] += 1
    try:
        kernel = build(gm, "kernel")  # one name: partitions that print the same text (a graph recompiled for
        # another static batch size) share one module and its machine code
    except L.NotFusable as e:
        return str(e)
    return kernel.spec, modules.source(kernel)
