"""The disk-cache key: what a generated module and its machine code depend on, hashed.

Computed from raw source text, options and the values read (bytecode, frontend/captures.walk), never from
the CST, so a warm start imports neither libcst nor the normalizer (measured: `import libcst` alone costs
~0.4 s).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import inspect
import json
import linecache
import sys
import types
from pathlib import Path
from typing import Any

import numba
import numpy as np

from .. import __version__
from ..codegen.bindings import Callee, Import, Injected, Literal, bind, callee_function, compiled_in
from ..frontend.captures import walk
from ..options import Options

FORMAT = 3  # bump when the entry layout or the meaning of a key part changes


def key(fn: types.FunctionType, options: Options, shapes: Any = ()) -> str:
    """The cache key of a compiled module: the one function that builds it, a hash of these named parts:

    - `format`, `cuvil` (version and a fingerprint of its files), `python`, `numba`, `llvmlite`, `numpy`,
      `libcst`, `numba_cuda` (None when not installed): what changes generated code, its machine code or its
      meaning (libcst prints the generated source; llvmlite turns it into machine code; numba-cuda compiles
      target="cuda"). Versions are read from the installed distributions, without importing libcst;
    - `cuda_toolkit`, `nvvm`, `nvvm_ir` (target="cuda" only; None where they cannot be loaded, as on the
      simulator without a toolkit): the CUDA runtime's version and libNVVM's and its IR's, which compile the
      kernels to PTX. The compute capability is not a part: the generated module does not depend on it, and
      numba-cuda keeps each kernel's machine code beside the module in the entry, its index keyed by
      signature and compute capability, so one entry holds the code of every GPU it ran on;
    - `options`: every field of `Options`;
    - `shapes`: the variant's specialization, the fields of compiler.Specialization (per parameter its rank
      and static dims, and what else the generated code is specialized on);
    - `functions`: the entry function's and every callee's qualified name, origin (`origin()`: its file's
      path, or for a notebook cell or exec'd text the hash of that text — ipykernel names a cell's file after
      the kernel's process, so a path would change at every restart), first line (origins and error lines
      depend on it), raw source text and defaults (their values: Python computed them when the `def` ran,
      and the generated code holds those values);
    - `captured`: every value read from outside, by path, found by the traversal the guards use
      (frontend/captures.walk) in the entry function, its callees and the user's `numba.njit` helpers they
      call (Numba freezes those helpers' globals too): globals and closure variables; attributes of the
      user's modules read through them, as far as the chain goes (`cfg.SCALE`, `pkg.sub.K`); each function's
      `__defaults__`. Literals by type and value, modules and library functions by import path, arrays by
      dtype, shape and a hash of their bytes, callees by name (their records are in `functions`), Numba
      helpers by their source.

    Deliberately left out: the CST (derived from the source); the CPU model (Numba's own cache keys its
    machine code by it); values of names the function never reads; attributes of library modules (numpy,
    math: fixed by their versions, and `numpy` is a part); builtins the code calls (Python's own; a global
    that shadows one is a captured value, and the guards see one that comes to shadow it later);
    `__kwdefaults__` (the subset has no keyword-only parameters); the path of a notebook cell's file and the
    directory of the cache (the entry stores its origins relative to the functions, runtime/cache_origins.py,
    so one entry serves every kernel and every clone of the cache); the process or kernel session (the
    memory cache is keyed by it, runtime/memory.py, the disk cache is shared).
    """
    reads = list(walk(fn, compiled_in))
    parts = {
        **environment(),
        **(_cuda_versions() if options.target == "cuda" else {}),
        "options": options.key(),
        "shapes": shapes,
        "functions": [_function_record(f) for f in _functions(fn, reads)],
        "captured": [[r.label, _value_part(r.value)] for r in reads if r.kind != "builtin"],
    }
    return _digest(parts)


def functions(fn: types.FunctionType) -> list[types.FunctionType]:
    """`fn` and every function compiled with it, in the key's order (cache_origins.py numbers them so)."""
    return _functions(fn, list(walk(fn, compiled_in)))


def origin(fn: types.FunctionType) -> str:
    """Where `fn` comes from, as the key sees it: the path of its file; for text that exists only in memory
    (a notebook cell, exec'd code registered in linecache with no modification time) the hash of that text,
    which a restarted kernel gives again while the file name it invents does not."""
    filename = fn.__code__.co_filename
    cached = linecache.cache.get(filename)
    if cached is not None and len(cached) == 4 and cached[1] is None:
        return "text:" + hashlib.sha256("".join(cached[2]).encode()).hexdigest()
    return filename


def environment() -> dict[str, Any]:
    """The parts of every key that do not depend on the function: the entry format, Cuvil's version and a
    fingerprint of its files (a changed code generator never reuses old output), Python's version (major,
    minor) and those of numba, llvmlite, numpy, libcst and numba-cuda (None where not installed). Other keys of
    generated code (cuvil/dynamo's partitions) start from it. Left out: the CUDA toolkit (CUDA variants only,
    `key` adds it), the CPU model (Numba keys its machine code by it)."""
    return {"format": FORMAT, "cuvil": [__version__, _compiler_fingerprint()],
            "python": list(sys.version_info[:2]), **_versions()}


@functools.cache
def _versions() -> dict[str, str | None]:
    import llvmlite

    found: dict[str, str | None] = {"numba": numba.__version__, "llvmlite": llvmlite.__version__,
                                    "numpy": np.__version__}
    for part, distribution in (("libcst", "libcst"), ("numba_cuda", "numba-cuda")):
        try:
            found[part] = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            found[part] = None
    return found


@functools.cache
def _cuda_versions() -> dict[str, Any]:
    """The CUDA toolkit's parts that turn a kernel into machine code (loaded on the first CUDA variant)."""
    found: dict[str, Any] = {"cuda_toolkit": None, "nvvm": None, "nvvm_ir": None}
    try:
        from numba.cuda.cudadrv import nvvm, runtime

        found["cuda_toolkit"] = list(runtime.runtime.get_version())
        library = nvvm.NVVM()
        found["nvvm"], found["nvvm_ir"] = list(library.get_version()), list(library.get_ir_version())
    except Exception:  # noqa: BLE001 (no toolkit: the simulator, or target="cuda" failing later with a reason)
        pass
    return found


def source_key(fn: types.FunctionType) -> str:
    """Identifies a function's text alone: source that passed the subset check once need not be parsed again."""
    try:
        text = inspect.getsource(fn)
    except (OSError, TypeError):
        text = ""
    return _digest([FORMAT, __version__, _compiler_fingerprint(), origin(fn), text])[:32]


@functools.cache
def _compiler_fingerprint() -> str:
    """Cuvil's own code, by file sizes and modification times: a changed compiler never reuses old output."""
    package = Path(__file__).resolve().parent.parent
    stats = sorted((str(p.relative_to(package)), p.stat().st_size, p.stat().st_mtime_ns)
                   for p in package.rglob("*.py"))
    return _digest(stats)


def _digest(parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def _value_part(value: object) -> Any:
    if type(value) is tuple:  # defaults: item by item (an array among literals is hashed by its bytes)
        return ["tuple", [_value_part(v) for v in value]]
    binding = bind(value)
    if isinstance(binding, Literal):
        return ["literal", type(value).__name__, binding.text]
    if isinstance(binding, Import):
        return ["import", binding.module, binding.attr]
    if isinstance(binding, Callee):  # its own record is among the key's functions
        return ["function", origin(binding.function), binding.function.__qualname__]
    if isinstance(binding, Injected):
        if isinstance(value, numba.core.dispatcher.Dispatcher):
            return ["numba", _function_record(value.py_func)]
        array = np.asarray(value)
        return ["value", array.dtype.str, list(array.shape), hashlib.sha256(array.tobytes()).hexdigest()]
    return ["unsupported", type(value).__qualname__]


def _function_record(fn: types.FunctionType) -> Any:
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        lines, first = [], 0
    return {
        "qualname": fn.__qualname__,
        "origin": origin(fn),
        "first_line": first,
        "source": "".join(lines),
        "defaults": [_value_part(d) for d in fn.__defaults__ or ()],
    }


def _functions(fn: types.FunctionType, reads: list) -> list[types.FunctionType]:
    """`fn` and every function compiled with it."""
    found = [fn]
    for read in reads:
        callee = callee_function(read.value) if read.kind != "builtin" else None
        if callee is not None and callee not in found:
            found.append(callee)
    return found
