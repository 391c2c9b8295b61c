"""Cache keys and disk entries.

The key is computed from raw source text, options and captured values, never from the CST, so a warm start
imports neither libcst nor the normalizer (measured: `import libcst` alone costs ~0.4 s).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import inspect
import json
import os
import sys
import tempfile
import types
import warnings
from pathlib import Path
from typing import Any

import numba
import numpy as np

from .. import __version__
from ..codegen.bindings import Callee, Import, Injected, Literal, bind, callee_function
from ..codegen.emit import write_atomic
from ..errors import CacheWarning
from ..frontend.captures import walk
from ..options import Options

FORMAT = 1  # bump when the entry layout or the meaning of a key part changes

_fallback_root: Path | None = None


def cache_root() -> Path:
    """`$CUVIL_CACHE_DIR`, else `$XDG_CACHE_HOME/cuvil`, else `~/.cache/cuvil`; a private temporary directory
    (with a `CacheWarning`, once) when that one cannot be written."""
    global _fallback_root
    configured = os.environ.get("CUVIL_CACHE_DIR")
    if configured:
        root = Path(configured)
    else:
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cuvil"
    try:
        root.mkdir(parents=True, exist_ok=True)
        probe = root / f".probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
        return root
    except OSError as exc:
        if _fallback_root is None:
            _fallback_root = Path(tempfile.mkdtemp(prefix="cuvil-cache-"))
            warnings.warn(
                f"cannot write the Cuvil cache at {root} ({exc.strerror}); compiled code is cached in "
                f"{_fallback_root} for this process only. Set CUVIL_CACHE_DIR to a writable directory.",
                CacheWarning,
                stacklevel=4,
            )
        return _fallback_root


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
    binding = bind(value)
    if isinstance(binding, Literal):
        return ["literal", type(value).__name__, binding.text]
    if isinstance(binding, Import):
        return ["import", binding.module, binding.attr]
    if isinstance(binding, Callee):  # its own record is among the key's functions
        return ["function", binding.function.__code__.co_filename, binding.function.__qualname__]
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
        "file": fn.__code__.co_filename,
        "first_line": first,
        "source": "".join(lines),
        "defaults": [_value_part(d) for d in fn.__defaults__ or ()],
    }


def key(fn: types.FunctionType, options: Options, shapes: Any = ()) -> str:
    """The cache key of a compiled module, a hash of these named parts:

    - `format`, `cuvil` (version and a fingerprint of its files), `python`, `numba`, `numpy`: what changes
      generated code or its meaning;
    - `options`: every field of `Options`;
    - `shapes`: the variant's specialization: per parameter its rank and static dims (compiler.Specialization);
    - `functions`: the entry function's and every callee's qualified name, file, first line (origins and error
      lines depend on it), raw source text and defaults;
    - `captured`: every value they capture, by path (`helper.K`), found as the guards find them
      (frontend/captures.walk): literals by value, modules and library functions by import path, arrays by
      dtype, shape and a hash of their bytes, callees by name (their records are in `functions`).

    Deliberately left out: the CST (derived from the source); the CPU model (Numba's own cache keys its
    machine code by it); values of names the function never reads.
    """
    parts = {
        "format": FORMAT,
        "cuvil": [__version__, _compiler_fingerprint()],
        "python": list(sys.version_info[:2]),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "options": options.key(),
        "shapes": shapes,
        "functions": [_function_record(f) for f in _functions(fn)],
        "captured": [[".".join(path), _value_part(value)] for path, _, _, value in walk(fn, callee_function)],
    }
    return _digest(parts)


def _functions(fn: types.FunctionType) -> list[types.FunctionType]:
    """`fn` and every function compiled with it."""
    found = [fn]
    for _, _, _, value in walk(fn, callee_function):
        callee = callee_function(value)
        if callee is not None and callee not in found:
            found.append(callee)
    return found


def source_key(fn: types.FunctionType) -> str:
    """Identifies a function's text alone: source that passed the subset check once need not be parsed again."""
    try:
        text = inspect.getsource(fn)
    except (OSError, TypeError):
        text = ""
    return _digest([FORMAT, __version__, _compiler_fingerprint(), fn.__code__.co_filename, text])[:32]


def was_validated(fn: types.FunctionType) -> bool:
    return (cache_root() / "validated" / source_key(fn)).exists()


def mark_validated(fn: types.FunctionType) -> None:
    folder = cache_root() / "validated"
    try:
        folder.mkdir(exist_ok=True)
        (folder / source_key(fn)).touch()
    except OSError:
        pass  # only an optimisation of the next start


@dataclasses.dataclass(frozen=True)
class Meta:
    """What a warm start needs besides the module file, so that it never runs the front end."""

    entry: str
    line_map: list[tuple[str, int] | None]
    injected: dict[str, tuple[str, ...]]
    normalized: str
    cfg: str
    sha256: str  # of the module file


@dataclasses.dataclass(frozen=True)
class Entry:
    folder: Path

    @classmethod
    def for_key(cls, fn: types.FunctionType, key: str) -> Entry:
        return cls(cache_root() / f"{fn.__name__}-{key[:20]}")  # a function's entries sort together

    @property
    def module_path(self) -> Path:
        return self.folder / f"_cuvil_{self.folder.name.replace('-', '_')}.py"

    @property
    def meta_path(self) -> Path:
        return self.folder / "meta.json"

    def read(self) -> tuple[Meta, str] | None:
        """The stored meta and module text, or None (missing; or corrupt, with a warning)."""
        if not self.meta_path.exists():
            return None
        try:
            raw = json.loads(self.meta_path.read_text(encoding="utf-8"))
            meta = Meta(
                entry=raw["entry"],
                line_map=[tuple(x) if x else None for x in raw["line_map"]],
                injected={k: tuple(v) for k, v in raw["injected"].items()},
                normalized=raw["normalized"],
                cfg=raw["cfg"],
                sha256=raw["sha256"],
            )
            source = self.module_path.read_text(encoding="utf-8")
            if hashlib.sha256(source.encode()).hexdigest() != meta.sha256:
                raise ValueError("the module file does not match its recorded hash")
            return meta, source
        except (OSError, ValueError, KeyError, TypeError) as exc:
            warnings.warn(
                f"ignoring a corrupt Cuvil cache entry {self.folder} ({exc}); recompiling", CacheWarning, stacklevel=4
            )
            return None

    def write(self, meta: Meta, source: str) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if not (self.module_path.exists() and self.module_path.read_text(encoding="utf-8") == source):
            write_atomic(self.module_path, source)  # rewriting an equal file would void Numba's cache
        write_atomic(self.meta_path, json.dumps(dataclasses.asdict(meta), indent=1))
