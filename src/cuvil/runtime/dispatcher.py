"""The object `@cuvil.jit` returns: validates at decoration, compiles a variant per guard miss, then stays out
of the way. The call path is the hottest code Cuvil has: each Dispatcher is a `functools.partial` of a call
entry generated from its variants (runtime/entry.py), one Python frame before Numba's entry point; what the
entry cannot decide (torch tensors, half precision, a miss) comes here, to `_call_slow`."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import os
import threading
import time
import types
import warnings
from typing import Any

from numba.core.errors import NumbaError, NumbaPerformanceWarning

from ..dims import declared
from ..errors import CuvilError, CuvilInternalError, CuvilTypeError, PerformanceWarning, RecompileWarning
from ..options import Options, config
from . import (  # noqa: F401 (mathlib registers overloads)
    adapters,
    cache,
    cache_key,
    cache_markers,
    diagnose,
    entry,
    events,
    gc_pause,
    guards,
    mathlib,
    random_state,
    threads,
    where,
)
from .context import current as current_context
from .events import CompileEvent
from .exact import ExactDispatcher
from .guards import MISS
from .memory import Compiled, MemoryCache
from .policy import DimPolicy

_NO_PARALLEL = "(?s).*The keyword argument 'parallel=True' was specified but no transformation"
_memory = MemoryCache()  # cache key → compiled module, per context (runtime/memory.py)
_lock = threading.RLock()

SOURCE_STAGES = ("normalized", "cfg", "plan", "kernel", "cuda")


@dataclasses.dataclass
class Variant:
    number: int
    guard: guards.Guard
    impl: Any  # Numba's entry point for exactly the guarded types: the guard has done the type dispatch
    meta: cache.Meta
    source: str
    kinds: tuple[str, ...]  # how the arguments came in (numpy, torch, …): recorded, not guarded
    dispatcher: Any = None  # Numba's dispatcher of `impl` (CPU): the call entry lets it check the types
    convert: Any = None  # what `impl` does to a result after Numba's entry point (adapters.typed_results)
    enter: Any = dataclasses.field(init=False, repr=False)  # guard + call on converted arguments, guards.py

    def __post_init__(self) -> None:
        self.enter = self.guard.entry(self.impl)


class Dispatcher(functools.partial):
    """A `functools.partial` of the generated call entry (runtime/entry.py): calling an instance runs the
    entry with the caller's own arguments, keywords included, through partial's vectorcall (no argument tuple,
    no keyword dict), where a Python `__call__` costs a tuple, a dict and a method lookup per call. `install`
    replaces the entry after each compile; no `__call__` may be defined here or in a subclass (it would
    bypass the entry, see entry.vectorcall)."""

    __cuvil_jit__ = True

    def __new__(cls, fn: Any, *args: Any, **kwargs: Any) -> Dispatcher:
        """A partial of nothing yet: `__init__` gives it its entry."""
        return super().__new__(cls, _unbound)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        entry.vectorcall(cls)

    def __init__(self, fn: types.FunctionType, options: Options):
        if not isinstance(fn, types.FunctionType):
            raise CuvilError(f"cuvil.jit needs a Python function, not {type(fn).__name__}")
        self.py_func = fn
        self.options = options
        self.compile_events: list[CompileEvent] = []
        self._variants: list[Variant] = []  # newest first
        self._entries: tuple[Any, ...] = ()  # their `enter` functions, for the call path
        self._names = list(inspect.signature(fn).parameters)
        self._policy = DimPolicy(options.dynamic, config.recompile_limit, declared=declared(fn, options.dims))
        self._disabled = os.environ.get("CUVIL_DISABLE_JIT", "") not in ("", "0")
        functools.update_wrapper(self, fn)
        if self._disabled:  # the function itself is the call
            entry.use(self, fn)
            return
        if not cache_markers.was_validated(fn):
            from ..front import validate  # imports libcst: only on a cold start

            validate(fn)
            cache_markers.mark_validated(fn)
        entry.install(self)

    def __repr__(self) -> str:
        return f"<cuvil.jit {self.py_func.__qualname__} target={self.options.target}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Sent to another process (a Dask worker): by reference or by value, cuvil/distributed.py says when."""
        from ..distributed import reduce

        return reduce(self)

    def _rebind(self, values: tuple[Any, ...]) -> Any:
        """py_func.__defaults__ was replaced since the call entry was made: make it again, and call it with the
        arguments given (those left out are entry.UNSET)."""
        with _lock:
            entry.install(self)
        return self(**{n: v for n, v in zip(self._names, values) if v is not entry.UNSET})

    def _call_slow(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self._disabled:
            return self.py_func(*args, **kwargs)
        if kwargs or len(args) != len(self._names):  # a signature the call entry does not bind (entry.py)
            bound = inspect.signature(self.py_func).bind(*args, **kwargs)
            bound.apply_defaults()
            args = tuple(bound.arguments.values())
        given = args
        target = self._target(args)
        args, back = adapters.prepare(args, self._names, device=target == "cuda")
        grads = adapters.grad_arguments(given, self._names) if back is not adapters.unchanged else ()
        try:
            if grads:  # the variant is chosen before it runs: it must not write a tensor autograd records
                return back(self._run_checked(args, given, grads))
            for enter in self._entries:
                result = enter(args)
                if result is not MISS:
                    return back(result)
            kinds = tuple(adapters.kind(a) for a in given)  # recorded for explain: only when compiling
            return back(self._compile(args, kinds, target).impl(*adapters.numba_args(args)))
        except NumbaError as exc:
            raise self._error(exc, args) from None
        except NotImplementedError as exc:
            raise self._runtime_error(exc, args) from None
        except Exception as exc:  # noqa: BLE001 (re-raised: at the user's line when it came from their code)
            located = self._located(exc)
            if located is None:
                raise
            raise located  # noqa: B904 (the same exception object, its traceback ending at the user's line)

    def _target(self, args: tuple[Any, ...]) -> str:
        """The target of this call: `auto` is cuda when an array argument lives on a GPU."""
        target = self.options.target
        if target != "auto":
            return target
        return "cuda" if any(guards.on_device(a) for a in args) else "cpu"

    def _run_checked(self, args: tuple[Any, ...], given: tuple[Any, ...], grads: Any) -> Any:
        variant = next((v for v in self._variants if v.guard.check(args)), None)
        if variant is None:
            variant = self._compile(args, tuple(adapters.kind(a) for a in given), self._target(given))
        adapters.refuse_grad_writes(grads, written_arguments(variant, self._names), self.py_func.__qualname__)
        return variant.impl(*adapters.numba_args(args))

    def _runtime_error(self, exc: NotImplementedError, args: tuple[Any, ...]) -> Exception:
        """Numba's compiled code raised NotImplementedError (the program cannot: `raise` is outside the
        subset): an operation Numba implements for fewer inputs than NumPy, told at the user's line."""
        args, _ = adapters.prepare(args, self._names)
        ran = next((v for v in self._variants if v.guard.check(args)), None)
        if ran is None:
            return exc
        return diagnose.runtime_error(exc, ran.source, ran.meta.line_map)

    def _located(self, exc: Exception) -> Exception | None:
        """A run-time error of a compiled CPU variant (a check's, or the program's own raise), its traceback
        ending at the user's line (runtime/where.py), as is a CuvilTypeError found compiling that names the line
        (shapes that certainly do not broadcast); None for any other exception (raised again as it is, cause and
        all)."""
        if isinstance(exc, CuvilTypeError) and exc.filename is not None and exc.lineno is not None:
            return where.raise_at(exc, exc.filename, exc.lineno)  # type: ignore[return-value]  # found compiling
        if isinstance(exc, CuvilError):
            return None
        files = [f.__code__.co_filename for f in cache_key.functions(self.py_func)]
        return where.at_user_line(exc, diagnose.line_maps,  # type: ignore[return-value]
                                  (v.meta.line_map for v in self._variants), files)

    def _error(self, exc: Exception, args: tuple[Any, ...]) -> Exception:
        return self._named_argument(args) or diagnose.user_error(exc)

    def _named_argument(self, args: tuple[Any, ...]) -> Exception | None:
        """A bad argument is the likelier story behind a failure: the error naming it, if there is one (an
        OverflowError for an int beyond int64, which Python would keep as a big int)."""
        try:
            adapters.prepare(args, self._names)
        except (CuvilTypeError, OverflowError) as exc:
            return exc
        return None

    def _compile(self, args: tuple[Any, ...], kinds: tuple[str, ...], target: str = "cpu") -> Variant:
        if self.options.parallel:
            threads.choose()  # before Numba starts a thread pool: one that survives fork (runtime/threads.py)
        with _lock, gc_pause.paused():
            for variant in self._variants:  # another thread may have compiled it meanwhile
                if variant.guard.check(args):
                    return variant
            start = time.perf_counter()
            arg_guards = guards.arg_guards(self._names, args)
            reason = self._reason(args)
            was_exhausted = self._policy.exhausted
            static = self._policy.static_dims(arg_guards, [v.guard for v in self._variants])
            ranges = self._policy.ranges(arg_guards)
            if self._policy.exhausted and not was_exhausted:
                warnings.warn(
                    f"{self.py_func.__qualname__} reached cuvil.config.recompile_limit "
                    f"({self._policy.limit}) variants; compiling one with every dim dynamic ({reason})",
                    RecompileWarning,
                    stacklevel=4,
                )
            shapes = tuple(
                None if a.shape is None else tuple(static.get((i, k)) for k in range(len(a.shape)))
                for i, a in enumerate(arg_guards)
            )
            # The compiler types the code from these (a Python float is weak, NEP 50): part of the key.
            typed = tuple(a.kind for a in arg_guards)
            seconds = dict.fromkeys(events.STAGES, 0.0)
            numba_types = tuple(a.numba_type for a in arg_guards)
            try:
                built = self._build(shapes, typed, numba_types, False, seconds, target)
            except CuvilError:
                raise
            except Exception as exc:  # a NumbaError, or Numba's own AttributeError/AssertionError/…
                if target == "cuda":  # the NumPy code as written has no CUDA form
                    raise self._error(exc, args) from None
                # The lowered code (loops, dtype conversions) is Cuvil's: if Numba refuses it but takes the
                # NumPy code as written, that is a bug of ours, and the user gets a working function.
                try:
                    built = self._build(shapes, typed, numba_types, True, seconds)
                except CuvilError:
                    raise
                except Exception:  # the code as written fails too: the user's error, at the user's line
                    raise self._error(exc, args) from None
                if config.strict:  # the tests' mode: no right answer from a fallback hides the bug
                    raise CuvilInternalError("backend (Numba refused the lowered code)", _first_line(exc)) from exc
                reason += f"; lowered code failed to compile, NumPy code as written instead ({_first_line(exc)})"
                warnings.warn(f"{self.py_func.__qualname__}: Cuvil could not compile its lowered code and used the "
                              f"NumPy code as written (slower); please report this bug: {_first_line(exc)}",
                              PerformanceWarning, stacklevel=4)
            reads = built.meta.reads  # static dims the code does not depend on go unguarded (specialize.py)
            static = {d: n for d, n in static.items() if reads is None or d in reads}
            checks = guards.global_guards(self.py_func)
            guard = guards.Guard(arg_guards, static, checks, target, guards.on_use(checks, self.py_func), ranges)
            guards.warn_unfrozen_arrays(guard.globals)
            seconds["codegen"] += max(0.0, time.perf_counter() - start - sum(seconds.values()))
            variant = Variant(len(self.compile_events) + 1, guard, built.impl, built.meta, built.source, kinds,
                              built.dispatcher, built.convert)
            self._variants.insert(0, variant)
            entry.install(self)
            signature = "(" + ", ".join(str(a.numba_type) for a in arg_guards) + ")"
            event = CompileEvent(self.py_func.__qualname__, signature, reason, seconds, built.where, current_context())
            self.compile_events.append(event)
            events.record(self.py_func, event, guard.items())
            return variant

    def _build(self, shapes: Any, typed: Any, numba_types: tuple[Any, ...], as_written: bool,
               seconds: dict[str, float], target: str = "cpu") -> Built:
        """Numba's entry point for a variant, and where the module came from. With `as_written`, the module
        keeps the NumPy code as written (no array lowering, no conversions). For target="cuda" the module's
        entry is a launcher (codegen/launch.py), called through cuda_call.py."""
        options = dataclasses.replace(self.options, target=target)
        if target == "cuda":
            from . import cuda_runtime

            cuda_runtime.require()  # no device and no simulator: a CuvilError at the first call
        key = cache_key.key(self.py_func, options, (shapes, [str(t) for t in typed], as_written))
        where = "memory"
        compiled = _memory.get(key)
        if compiled is None:
            where, stage_seconds, compiled = self._load_or_generate(key, (shapes, typed, as_written), options)
            seconds.update(stage_seconds)
        numba_dispatcher, meta, source = compiled.function, compiled.meta, compiled.source
        halves = numba_dispatcher.__globals__.get("CUVIL_HALVES", "") if target == "cuda" else \
            numba_dispatcher.py_func.__globals__.get("CUVIL_HALVES", "")
        if target == "cuda":
            from . import cuda_call

            launch = cuda_call.entry(numba_dispatcher, self._names, meta.writes, meta.line_map)
            return Built((adapters.typed_results(launch, None, halves) if halves else launch), meta, source, where)
        backend = time.perf_counter()
        try:
            with warnings.catch_warnings():  # which loops run in parallel is Cuvil's decision, not the user's to act
                # on: a branch a static dim makes unreachable (`if 0 == 0: raise`) takes its prange with it
                warnings.filterwarnings("ignore", _NO_PARALLEL, NumbaPerformanceWarning)
                impl = numba_dispatcher.compile(numba_types)
        except Exception as exc:  # Numba refuses a write into a read-only array in several ways, or crashes
            written = diagnose.read_only_written(self._names, numba_types, meta.writes)
            if written is None:
                raise
            raise diagnose.read_only_error(exc, written) from None
        returns = numba_dispatcher.overloads[numba_types].signature.return_type
        several = numba_dispatcher.py_func.__globals__.get("CUVIL_SEVERAL_RETURNS", False)  # lower/returns.py
        bools = numba_dispatcher.py_func.__globals__.get("CUVIL_NUMPY_BOOLS", False)
        convert = adapters.typed_results(_same, returns, halves, several, bools)
        seconds["backend"] = time.perf_counter() - backend
        if numba_dispatcher.py_func.__globals__.get("CUVIL_RANDOM", False):  # draws from the caller's streams:
            impl = random_state.shared(impl)  # the call entry goes through impl, not Numba's dispatcher
            return Built(adapters.typed_results(impl, returns, halves, several, bools), meta, source, where)
        return Built(adapters.typed_results(impl, returns, halves, several, bools), meta, source, where,
                     None if halves else ExactDispatcher(numba_dispatcher, numba_types),
                     None if convert is _same else convert)

    def _reason(self, args: tuple[Any, ...]) -> str:
        if not self._variants:
            return "first call"
        newest = self._variants[0]
        return f"{newest.guard.failure(args)} (guard of variant #{newest.number})"

    def _load_or_generate(self, key: str, shapes: Any,
                          options: Options | None = None) -> tuple[str, dict[str, float], Compiled]:
        """Fill the memory cache for `key` from the disk, or by running the compiler."""
        loaded = cache.load(self.py_func, options or self.options, key, shapes)
        diagnose.line_maps[loaded.path.name] = loaded.meta.line_map
        events.log_codegen(self.py_func.__qualname__, loaded.path)
        compiled = Compiled(loaded.function, loaded.meta, loaded.source, loaded.path.stem)
        _memory.put(key, compiled)
        return loaded.where, loaded.seconds, compiled

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        """This call on Cuvil's thread pool (runtime/pool.py): a concurrent.futures.Future of its result, or of
        the error a direct call raises. Variants release the GIL, so submitted calls run on several cores."""
        from . import pool

        return pool.submit(self, args, kwargs)

    def source(self, stage: str = "kernel") -> str:
        """The text of a stage for the newest variant (before any call: the fully dynamic one), each
        statement marked with its origin line."""
        if stage not in SOURCE_STAGES:
            raise ValueError(f"stage must be one of {SOURCE_STAGES}, not {stage!r}")
        cuda = stage == "cuda" or self.options.target == "cuda"
        mine = [v for v in self._variants if (v.guard.target == "cuda") == cuda]
        if mine:
            meta, text = mine[0].meta, mine[0].source
        else:
            options = dataclasses.replace(self.options, target="cuda" if cuda else "cpu")
            with _lock:
                key = cache_key.key(self.py_func, options)
                compiled = _memory.get(key) or self._load_or_generate(key, (), options)[2]
                meta, text = compiled.meta, compiled.source
        if stage == "cuda":
            stage = "kernel"
        from ..jupyter import SourceText  # a str, shown highlighted in notebooks

        text = {"normalized": meta.normalized, "cfg": meta.cfg, "plan": meta.plan, "kernel": text}[stage]
        return SourceText(text, self.py_func.__code__.co_filename)

    def loops(self) -> list[list[str]]:
        """Each variant's range loops, newest first: parallel or serial, and why."""
        return [list(v.meta.loops) for v in self._variants]

    def guards(self) -> list[list[str]]:
        """Each variant's guard in words, newest first; last, how its arguments came in (recorded only: the
        compiled code is the same for a NumPy array and a torch CPU tensor)."""
        return [
            [*v.guard.items(), "came in as " + ", ".join(f"{n}={k}" for n, k in zip(self._names, v.kinds))]
            for v in self._variants
        ]


entry.vectorcall(Dispatcher)


@dataclasses.dataclass(frozen=True)
class Built:
    """A variant's compiled code: what `_build` returns."""

    impl: Any  # Numba's entry point, or a CUDA launcher; returns results as NumPy would (typed_results)
    meta: cache.Meta
    source: str
    where: str  # the cache it came from: "memory", "disk" or "miss"
    dispatcher: Any = None  # Numba's dispatcher, for the call entry to dispatch through (CPU, no half results)
    convert: Any = None  # what `impl` does to a result after Numba's entry point, if anything


def _unbound(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("a cuvil.jit function called before its __init__ ran")


def _same(value: Any) -> Any:
    return value


def written_arguments(variant: Variant, names: list[str]) -> frozenset[str]:
    """The arguments `variant` may write into: the entry's effect summary (cfg/summary.py, over the one table
    of call effects in library/numpy.py) recorded when it was compiled; every argument for a cache entry
    written before that record existed."""
    writes = variant.meta.writes
    return frozenset(names if writes is None else writes)


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0][:200] if lines else type(exc).__name__
