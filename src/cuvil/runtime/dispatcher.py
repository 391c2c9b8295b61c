"""The object `@cuvil.jit` returns: validates at decoration, compiles at the first call, then stays out of the
way. The call path is the hottest code Cuvil has: with plain NumPy/scalar arguments it is one type check per
argument and a call into Numba's dispatcher."""

from __future__ import annotations

import functools
import inspect
import os
import threading
import time
import types
from typing import Any

import numba
from numba.core.errors import NumbaError

from ..errors import CuvilError
from ..options import Options
from . import adapters, cache, diagnose, events
from .events import CompileEvent

_memory: dict[str, tuple[Any, cache.Meta]] = {}  # cache key → (Numba dispatcher, meta), per process
_lock = threading.RLock()

SOURCE_STAGES = ("normalized", "cfg", "kernel")


class Dispatcher:
    __cuvil_jit__ = True

    def __init__(self, fn: types.FunctionType, options: Options):
        if not isinstance(fn, types.FunctionType):
            raise CuvilError(f"cuvil.jit needs a Python function, not {type(fn).__name__}")
        self.py_func = fn
        self.options = options
        self._impl: Any = None
        self._meta: cache.Meta | None = None
        self._kernel = ""
        self.compile_events: list[CompileEvent] = []
        self._names = list(inspect.signature(fn).parameters)
        self._disabled = os.environ.get("CUVIL_DISABLE_JIT", "") not in ("", "0")
        functools.update_wrapper(self, fn)
        if not self._disabled and not cache.was_validated(fn):
            from ..compiler import validate  # imports libcst: only on a cold start

            validate(fn)
            cache.mark_validated(fn)

    def __repr__(self) -> str:
        return f"<cuvil.jit {self.py_func.__qualname__} target={self.options.target}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        impl = self._impl
        if impl is not None and not kwargs:
            for a in args:
                if type(a) not in adapters.PLAIN:
                    break
            else:
                try:
                    return impl(*args)
                except NumbaError as exc:
                    raise self._error(exc, args, kwargs) from None
        return self._call_slow(args, kwargs)

    def _call_slow(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self._disabled:
            return self.py_func(*args, **kwargs)
        args, kwargs, back = adapters.prepare(args, kwargs, self._names)
        impl = self._impl or self._compile(args, kwargs)
        try:
            return back(impl(*args, **kwargs))
        except NumbaError as exc:
            raise self._error(exc, args, kwargs) from None

    def _error(self, exc: NumbaError, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Exception:
        adapters.prepare(args, kwargs, self._names)  # a bad argument is the likelier story: name it
        return diagnose.user_error(exc)

    def _compile(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        with _lock:
            if self._impl is not None:
                return self._impl
            start = time.perf_counter()
            key = cache.key(self.py_func, self.options)
            seconds = dict.fromkeys(events.STAGES, 0.0)
            where = "memory"
            if key not in _memory:
                impl, meta, where, stage_seconds = self._load_or_generate(key)
                seconds.update(stage_seconds)
                _memory[key] = (impl, meta)
            impl, self._meta = _memory[key]
            signature = self._precompile(impl, args, kwargs, seconds)
            seconds["codegen"] += max(0.0, time.perf_counter() - start - sum(seconds.values()))
            event = CompileEvent(self.py_func.__qualname__, signature, "first call", seconds, where,
                                 f"pid:{os.getpid()}")
            self.compile_events.append(event)
            events.record(event)
            self._impl = impl
            return impl

    def _load_or_generate(self, key: str) -> tuple[Any, cache.Meta, str, dict[str, float]]:
        from ..codegen.emit import import_module

        entry = cache.Entry.for_key(self.py_func, key)
        stored = entry.read()
        where, seconds = "disk", {}
        if stored is None:
            from ..compiler import generate  # imports libcst: only on a cache miss

            generated = generate(self.py_func, self.options)
            seconds = generated.seconds
            source = generated.source
            meta = cache.Meta(generated.entry, generated.line_map, generated.injected, generated.normalized,
                              generated.cfg, cache.hashlib.sha256(source.encode()).hexdigest())
            entry.write(meta, source)
            where = "miss"
        else:
            meta, source = stored
        injected = {name: _follow(self.py_func, path) for name, path in meta.injected.items()}
        module = import_module(entry.module_path, source, injected)
        diagnose.line_maps[entry.module_path.name] = meta.line_map
        self._kernel = source
        return getattr(module, meta.entry), meta, where, seconds

    def _precompile(self, impl: Any, args: tuple[Any, ...], kwargs: dict[str, Any], seconds: dict[str, float]) -> str:
        """Compile for these argument types now, to time Numba's share apart from the first run."""
        if kwargs or len(args) != len(self._names):
            return "(…)"
        types_ = tuple(numba.typeof(a) for a in args)
        start = time.perf_counter()
        try:
            impl.compile(types_)
        except NumbaError as exc:
            raise self._error(exc, args, kwargs) from None
        finally:
            seconds["backend"] = time.perf_counter() - start
        return "(" + ", ".join(str(t) for t in types_) + ")"

    def source(self, stage: str = "kernel") -> str:
        """The text of a stage for the compiled function, each statement marked with its origin line."""
        if stage not in SOURCE_STAGES:
            raise ValueError(f"stage must be one of {SOURCE_STAGES}, not {stage!r}")
        if self._meta is None:
            with _lock:
                key = cache.key(self.py_func, self.options)
                if key not in _memory:
                    _memory[key] = self._load_or_generate(key)[:2]
                self._meta = _memory[key][1]
        if stage == "kernel" and not self._kernel:
            entry = cache.Entry.for_key(self.py_func, cache.key(self.py_func, self.options))
            self._kernel = entry.module_path.read_text(encoding="utf-8")
        return {"normalized": self._meta.normalized, "cfg": self._meta.cfg, "kernel": self._kernel}[stage]


def _follow(fn: types.FunctionType, path: tuple[str, ...]) -> object:
    """The value reached from `fn` through captured names: ("helper", "TABLE") is helper's global TABLE."""
    from ..frontend.captures import lookup

    value: Any = fn
    for name in path:
        if getattr(value, "__cuvil_jit__", False):
            value = value.py_func
        value = lookup(value, name)
    return value
