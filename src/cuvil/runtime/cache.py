"""Cache entries: load a compiled module from the disk, or compile and store it, without ever crashing a call
or running code another user could have written.

An entry is a folder `<root>/<function>-<key[:20]>/` (root: cache_root.py, key: cache_key.py) holding

    _cuvil_<function>_<key[:20]>.py   the generated module, a real file: users read it, Numba caches beside it
    meta.json                          Meta: what a warm start needs besides the module, so it runs no front end
    __pycache__/*.nbi, *.nbc           Numba's own cache of the module's machine code (its index and data)

Whatever is wrong with an entry — a file that cannot be read or is not UTF-8, a hash that does not match, a
meta naming a function the module lacks, a file where the folder should be, Numba files truncated or garbage,
the directory removed during a compile — is one `CacheWarning`, then a recompile; when the disk cannot hold the
result, the module lives in memory only (Numba's `cache=False`) for this process.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import sys
import types
import warnings
from pathlib import Path
from typing import Any

from ..codegen.bindings import private_copy
from ..codegen.emit import import_module, write_atomic
from ..errors import CuvilInternalError
from ..frontend.captures import MISSING, follow
from ..options import Options
from . import cache_lock, cache_origins, cache_root, numba_cache
from .cache_root import warn as _warn


@dataclasses.dataclass(frozen=True)
class Meta:
    """What a warm start needs besides the module file, so that it never runs the front end."""

    entry: str
    line_map: list[tuple[str, int] | None]
    injected: dict[str, tuple[str, ...]]
    normalized: str
    cfg: str
    sha256: str  # of the module file
    loops: list[str] = dataclasses.field(default_factory=list)  # per range loop: parallel or serial, and why
    writes: list[str] | None = None  # parameters the entry may write into; None: not recorded (every one may)
    plan: str = ""  # `fn.source("plan")`
    # The static dims (argument, axis) the module depends on (codegen/specialize.read_dims): the guard tests
    # only these. None: not recorded (an entry written before the record existed): every static dim.
    reads: tuple[tuple[int, int], ...] | None = None


@dataclasses.dataclass(frozen=True)
class Entry:
    folder: Path
    writable: bool = True  # False in a trusted read-only cache: loaded, never written

    @classmethod
    def for_key(cls, fn: types.FunctionType, key: str) -> Entry:
        """The entry for `key` in the cache root (which may be the private directory)."""
        root = cache_root.root()
        return cls(root.path / f"{fn.__name__}-{key[:20]}", root.writable)  # a function's entries sort together

    @property
    def module_path(self) -> Path:
        return self.folder / f"_cuvil_{self.folder.name.replace('-', '_')}.py"

    @property
    def meta_path(self) -> Path:
        return self.folder / "meta.json"

    def untrusted(self) -> str | None:
        """Why this entry must not be loaded (another user owns or can write part of it), or None."""
        try:
            if not os.path.lexists(self.folder):
                return None
            problem = cache_root.untrusted(self.folder, file=False)
            if problem or not self.folder.is_dir():
                return problem
            private = cache_root.is_private(self.folder.parent)
            numba_dir = self.folder / "__pycache__"
            for path in (self.module_path, self.meta_path, numba_dir,
                         *(sorted(numba_dir.iterdir()) if numba_dir.is_dir() else ())):
                if os.path.lexists(path):
                    problem = cache_root.untrusted(path, file=path.is_file(), private_root=private)
                    if problem:
                        return problem
        except OSError as exc:
            return f"it cannot be inspected ({exc})"
        return None

    def read(self, fn: types.FunctionType) -> tuple[Meta, str] | None:
        """The stored meta and module text, origins resolved for `fn` (cache_origins.py), or None (missing;
        or corrupt, with a warning)."""
        try:
            if not self.meta_path.is_file():
                return None
            raw = json.loads(self.meta_path.read_text(encoding="utf-8"))
            meta = Meta(
                entry=raw["entry"],
                line_map=cache_origins.resolve(fn, raw["line_map"]),
                injected={k: tuple(v) for k, v in raw["injected"].items()},
                normalized=raw["normalized"],
                cfg=raw["cfg"],
                sha256=raw["sha256"],
                loops=list(raw.get("loops", [])),
                writes=raw.get("writes"),
                plan=raw.get("plan", ""),
                reads=None if raw.get("reads") is None else tuple((int(i), int(k)) for i, k in raw["reads"]),
            )
            source = self.module_path.read_text(encoding="utf-8")
            if hashlib.sha256(source.encode()).hexdigest() != meta.sha256:
                raise ValueError("the module file does not match its recorded hash")
            if not re.search(rf"^def {re.escape(meta.entry)}\(", source, re.M):
                raise ValueError(f"the module defines no function {meta.entry!r}")
            missing = [n for n in meta.injected if f"\n# {n}: " not in source]
            if missing:
                raise ValueError(f"the module declares no injected name {missing[0]!r}")
            return meta, source
        except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
            _warn(f"ignoring a corrupt Cuvil cache entry {self.folder} ({exc}); recompiling")
            return None

    def write(self, meta: Meta, source: str, fn: types.FunctionType) -> None:
        if not self.folder.parent.is_dir():
            _warn(f"the Cuvil cache directory {self.folder.parent} was removed while in use; recreating it")
            self.folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.folder.mkdir(mode=0o700, exist_ok=True)
        try:
            same = self.module_path.read_text(encoding="utf-8") == source
        except (OSError, ValueError):
            same = False
        if not same:  # rewriting an equal file would void Numba's cache
            write_atomic(self.module_path, source)
        stored = dataclasses.replace(meta, line_map=cache_origins.relative(fn, meta.line_map))
        write_atomic(self.meta_path, json.dumps(dataclasses.asdict(stored), indent=1))


def find(fn: types.FunctionType, key: str) -> Entry:
    """The entry to read for `key`: in the cache root if it can be trusted, else in the private directory."""
    entry = Entry.for_key(fn, key)
    problem = entry.untrusted()
    if problem is None:
        return entry
    private = cache_root.private() / entry.folder.name
    _warn(f"not loading the Cuvil cache entry {entry.folder}: {problem}. Cached code is executed, so only files "
          f"of yours that no one else can write are loaded (remove it: rm -rf {entry.folder}); using {private}")
    return Entry(private)


def store(entry: Entry, meta: Meta, source: str, fn: types.FunctionType) -> Entry | None:
    """Write the module; the entry it went to (a private one if `entry` is read-only), or None with a warning
    when the disk cannot hold it (the module then lives in memory only)."""
    if not entry.writable:
        entry = Entry(cache_root.write_root() / entry.folder.name)
    try:
        entry.write(meta, source, fn)
        return entry
    except OSError as exc:
        error = exc
    try:  # whatever stands in the way is ours (the entry was trusted) and only a cache: clear it, once
        was_file = os.path.lexists(entry.folder) and not entry.folder.is_dir()
        if was_file:
            entry.folder.unlink()
        else:
            shutil.rmtree(entry.folder)
        entry.write(meta, source, fn)
        if was_file:  # read() could not see this damage: it is reported here
            _warn(f"replaced a file that stood where the Cuvil cache entry {entry.folder} belongs")
        return entry
    except OSError as exc:
        error = exc
    _warn(f"cannot write the Cuvil cache entry {entry.folder} ({error}); the compiled code stays in memory "
          "for this process")
    return None


@dataclasses.dataclass(frozen=True)
class Loaded:
    function: Any  # the Numba dispatcher of the entry function
    meta: Meta
    source: str
    path: Path  # the module's file name (diagnose.py maps its lines back to the user's)
    where: str  # "disk" or "miss"
    seconds: dict[str, float]


def load(fn: types.FunctionType, options: Options, key: str, specialization: tuple[Any, ...]) -> Loaded:
    """The compiled module for `key`: from the disk if a trusted, intact entry holds it, else compiled
    (`specialization`: the arguments of compiler.Specialization). Compiling holds the entry's lock
    (cache_lock.py), so a process that finds the entry missing while another compiles it waits, then reads it."""
    entry = find(fn, key)
    existed = entry.meta_path.is_file()
    loaded = _from_disk(fn, entry)
    if loaded is not None:
        return loaded
    with cache_lock.held(entry.folder):
        if not existed and entry.meta_path.is_file():  # another process wrote it while we waited
            loaded = _from_disk(fn, entry)
            if loaded is not None:
                return loaded
        return _generate(fn, options, entry, specialization)


def _from_disk(fn: types.FunctionType, entry: Entry) -> Loaded | None:
    stored = entry.read(fn)
    if stored is not None and not _resolvable(fn, stored[0]):
        _warn(f"ignoring a corrupt Cuvil cache entry {entry.folder} (a value it names is not found); recompiling")
        stored = None
    if stored is None:
        return None
    function = _activate(fn, *stored, entry)
    if function is not None:
        return Loaded(function, *stored, entry.module_path, "disk", {})
    _warn(f"ignoring the Cuvil cache entry {entry.folder}, which cannot be imported; recompiling")
    return None


def _generate(fn: types.FunctionType, options: Options, entry: Entry, specialization: tuple[Any, ...]) -> Loaded:
    from ..codegen.specialize import read_dims
    from ..compiler import Specialization, generate  # imports libcst: only on a cache miss

    spec = Specialization(*specialization)
    generated = generate(fn, options, spec)
    source = generated.source
    reads = read_dims(spec.shapes, lambda shapes: _same_code(generated, fn, options, spec, shapes),
                      generated.substituted)
    meta = Meta(generated.entry, generated.line_map, generated.injected, generated.normalized, generated.cfg,
                hashlib.sha256(source.encode()).hexdigest(), generated.loops, list(generated.writes),
                generated.plan, reads)
    written = store(entry, meta, source, fn)
    function = _activate(fn, meta, source, written, path=entry.module_path)
    if function is None:
        raise CuvilInternalError("load", f"the module generated for {fn.__qualname__} cannot be imported")
    return Loaded(function, meta, source, (written or entry).module_path, "miss", generated.seconds)


def _same_code(generated: Any, fn: types.FunctionType, options: Options, spec: Any, shapes: Any) -> bool:
    """Whether `fn` generated for `shapes` instead is the same module and Plans as `generated` (cuvil.inspect
    generates a variant's Plans again from its guard). It starts from `generated`'s shape-independent stages
    (parse to the assignment checks: a third of a generation); its time counts in the compile's stages."""
    from ..compiler import generate

    try:
        with warnings.catch_warnings():  # the user saw this function's warnings once, from the real generation
            warnings.simplefilter("ignore")
            other = generate(fn, options, dataclasses.replace(spec, shapes=shapes), again=generated)
    except Exception:  # refused or failed with those dims dynamic: the static ones are needed
        return False
    for stage, seconds in other.seconds.items():
        generated.seconds[stage] = generated.seconds.get(stage, 0.0) + seconds
    return bool(other.source == generated.source and other.plan == generated.plan)


def _activate(fn: types.FunctionType, meta: Meta, source: str, entry: Entry | None,
              path: Path | None = None) -> Any | None:
    """The module's entry function, imported from the entry's file (Numba caches the machine code beside it),
    else from memory (with a warning); None if the module cannot be imported at all."""
    if entry is not None:
        try:
            module = _private(import_module(entry.module_path, source, _injected(fn, meta)))
            function = getattr(module, meta.entry)
            for value in vars(module).values():
                if getattr(getattr(value, "py_func", None), "__module__", None) == module.__name__:
                    numba_cache.guard(value, entry.folder)
            return function
        except Exception as exc:  # e.g. Numba finds no cache location: the file was removed meanwhile
            _warn(f"cannot load the Cuvil cache entry {entry.folder} ({type(exc).__name__}: {exc}); the "
                  "compiled code stays in memory for this process")
            path = entry.module_path
    assert path is not None
    sys.modules.pop(path.stem, None)
    try:
        module = _private(import_module(path, _in_memory(source), _injected(fn, meta)))
        return getattr(module, meta.entry)
    except Exception:
        sys.modules.pop(path.stem, None)
        return None


def _resolvable(fn: types.FunctionType, meta: Meta) -> bool:
    """Every value the meta says to inject is found (a corrupt meta could name anything)."""
    try:
        return all(follow(fn, path) is not MISSING for path in meta.injected.values())
    except (AttributeError, IndexError, TypeError, ValueError):
        return False


def _injected(fn: types.FunctionType, meta: Meta) -> dict[str, object]:
    copies: dict[int, tuple[object, object]] = {}
    return {name: private_copy(follow(fn, path), copies) for name, path in meta.injected.items()}


def _private(module: types.ModuleType) -> types.ModuleType:
    """The generated module, its imports of the user's modules replaced by stand-ins (bindings.private_copy)
    before Numba compiles anything in it: helpers reached as `helpers.fast` are compiled afresh too."""
    copies: dict[int, tuple[object, object]] = {}
    for name, value in list(vars(module).items()):
        if isinstance(value, types.ModuleType):
            vars(module)[name] = private_copy(value, copies)
    return module


def _in_memory(source: str) -> str:
    """The module with Numba's disk cache off: nothing is read from the entry's folder or written to it."""
    return re.sub(r"^(@numba\.\w+\(.*)\bcache=True\b", r"\1cache=False", source, flags=re.M)

