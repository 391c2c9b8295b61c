"""Cuvil functions on Dask workers (or any other process): how a jitted function pickles, and warm-up and
compile events across a cluster.

A `Dispatcher` pickles (its `__reduce__` calls `reduce` here)

- **by reference** when its module can be imported by name (not `__main__`, a real file, the name reaching the
  same function): module, qualified name and options. The worker imports the module, so it compiles the very
  function the module holds, keyed on the disk like anywhere else;
- **by value** otherwise — a function defined in `__main__`, a notebook cell or exec'd text, or in a module
  named by `send_by_value` (one the workers do not have): its source text, the file and first line it came
  from, the values it reads from outside (globals and closure variables; a module by its name, a plain function
  of the same kind by value too, anything else pickled as itself), its defaults and its options. The worker
  defines the function again from that text, registered in `linecache` under a name of its own (the file's
  name, the function's and a digest of its text): so Cuvil finds its source, and the disk-cache key names it by
  the hash of that text (runtime/cache_key.origin), which every worker and every later cluster computes alike —
  one compile per cache directory, `cache == "disk"` after that.

On a worker, one process keeps one Dispatcher per function sent (and per options), so a function is compiled
once per process, its compile events accumulate where `explain` finds them, and the values sent with a later
task replace the earlier ones (the guards see a changed global and recompile, as in the client's own module).
Functions sent by value from one client module share one namespace per worker process, as they do in that
module.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib
import inspect
import linecache
import os
import pickle
import sys
import textwrap
import threading
import types
from typing import Any

from .errors import CuvilError
from .options import Options

_by_value_modules: set[str] = set()
_lock = threading.Lock()
_functions: dict[tuple[Any, ...], types.FunctionType] = {}  # rebuilt functions, by what defines them
_dispatchers: dict[tuple[Any, ...], Any] = {}  # the Dispatcher of each (function, options) in this process
_namespaces: dict[str, dict[str, Any]] = {}  # per client module: the globals its functions share here
_sent_from: dict[str, str] = {}  # a rebuilt function's file name → the file it was sent from


def send_by_value(module: str) -> None:
    """Send the jitted functions of `module` (and its submodules) by value: for a module the client imports
    but the workers cannot (a local file next to a notebook, with workers on other machines)."""
    _by_value_modules.add(module)


# --- the client's side ----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Ref:
    """A function sent in the same message (an index into its recipes): functions that call each other."""

    index: int


@dataclasses.dataclass(frozen=True)
class _Module:
    name: str

    def __reduce__(self) -> tuple[Any, ...]:
        return importlib.import_module, (self.name,)


def reduce(dispatcher: Any) -> tuple[Any, ...]:
    """`Dispatcher.__reduce__`: by reference where the worker can import the function, else by value."""
    fn = dispatcher.py_func
    if _importable(fn, dispatcher):
        return _by_reference, (fn.__module__, fn.__qualname__, dispatcher.options)
    recipes: list[dict[str, Any]] = []
    _recipe(fn, dispatcher.options, recipes, {})
    return _by_value, (recipes,)


def _importable(fn: types.FunctionType, dispatcher: Any) -> bool:
    name = fn.__module__ or ""
    module = sys.modules.get(name)
    if module is None or name == "__main__" or "<locals>" in fn.__qualname__:
        return False
    if any(name == m or name.startswith(m + ".") for m in _by_value_modules):
        return False
    if not os.path.isfile(getattr(module, "__file__", None) or ""):
        return False
    found: Any = module
    for part in fn.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is dispatcher or found is fn or getattr(found, "py_func", None) is fn


def _recipe(fn: types.FunctionType, options: Options | None, recipes: list[dict[str, Any]],
            seen: dict[int, int]) -> _Ref:
    """Append what defines `fn` on a worker to `recipes` (the functions it reaches by value after it)."""
    if id(fn) in seen:
        return _Ref(seen[id(fn)])
    seen[id(fn)] = len(recipes)
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as exc:
        raise CuvilError(f"cannot send {fn.__qualname__} to another process: its source is not found "
                         f"(defined in {fn.__code__.co_filename})") from exc
    recipe: dict[str, Any] = {
        "module": fn.__module__, "qualname": fn.__qualname__, "name": fn.__name__, "options": options,
        # A copy rebuilt here and sent on (Dask's scheduler unpickles tasks, then pickles them for the workers)
        # is the same function: it names the file the first sender named.
        "filename": _sent_from.get(fn.__code__.co_filename, fn.__code__.co_filename),
        "first_line": first, "text": "".join(lines),
    }
    recipes.append(recipe)
    from .frontend.captures import MISSING, lookup, name_chains

    code = fn.__code__
    chains = name_chains(code, code.co_freevars)
    names = sorted({name for kind, name, _ in chains if kind == "global" and name in fn.__globals__})
    recipe["globals"] = {n: _pack(fn, n, fn.__globals__[n], recipes, seen) for n in names}
    closure = {n: lookup(fn, n) for n in code.co_freevars}
    recipe["closure"] = {n: _pack(fn, n, v, recipes, seen) for n, v in closure.items() if v is not MISSING}
    recipe["freevars"] = list(code.co_freevars)
    recipe["defaults"] = tuple(_pack(fn, "__defaults__", d, recipes, seen) for d in fn.__defaults__ or ())
    # Two closures made by one `def` (or a `def` run twice with other defaults) are two functions: their
    # values are part of what identifies them on the worker. Globals are not: they are the module's, read late.
    state = pickle.dumps((recipe["closure"], recipe["defaults"])) if closure or fn.__defaults__ else b""
    recipe["state"] = hashlib.sha256(state).hexdigest()[:16]
    return _Ref(seen[id(fn)])


def _pack(fn: types.FunctionType, name: str, value: Any, recipes: list[dict[str, Any]],
          seen: dict[int, int]) -> Any:
    """`value` as it travels: a module by name, a function the worker cannot import by value (a Ref into
    `recipes`), anything else as itself — checked here, so an error names the value."""
    if isinstance(value, types.ModuleType):
        return _Module(value.__name__)
    if getattr(value, "__cuvil_jit__", False) and not _importable(value.py_func, value):
        return _recipe(value.py_func, value.options, recipes, seen)
    if isinstance(value, types.FunctionType) and not _importable(value, value):
        return _recipe(value, None, recipes, seen)
    if not isinstance(value, (int, float, complex, str, bytes, bool, type(None))) and not hasattr(value, "dtype"):
        try:
            pickle.dumps(value)
        except Exception as exc:
            raise CuvilError(f"cannot send {fn.__qualname__} to another process: {name!r} "
                             f"(a {type(value).__name__}) cannot be pickled ({exc})") from None
    return value


# --- the worker's side ----------------------------------------------------------------------------------------


def _by_reference(module: str, qualname: str, options: Options) -> Any:
    from .runtime.dispatcher import Dispatcher

    try:
        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise CuvilError(f"cannot find {module}.{qualname} in this process ({exc}); install the module here, "
                         f"or call cuvil.distributed.send_by_value({module!r}) before sending it") from None
    if isinstance(found, Dispatcher) and found.options == options:
        return found
    fn = getattr(found, "py_func", found)
    with _lock:
        key = ("reference", module, qualname, options)
        if key not in _dispatchers:
            _dispatchers[key] = Dispatcher(fn, options)
        return _dispatchers[key]


def _by_value(recipes: list[dict[str, Any]]) -> Any:
    """The first recipe's function (a Dispatcher), after defining every function the message carries."""
    from .runtime.dispatcher import Dispatcher

    with _lock:
        fresh = [_identity(r) not in _functions for r in recipes]
        functions = [_define(r) for r in recipes]
        for recipe, fn, new in zip(recipes, functions, fresh):  # before the Dispatcher reads them
            if new:
                fn.__defaults__ = tuple(_unpack(d, functions) for d in recipe["defaults"]) or None
        made: list[Any] = []
        for recipe, fn in zip(recipes, functions):
            key = ("value", _identity(recipe), recipe["options"])
            if recipe["options"] is not None and key not in _dispatchers:
                _dispatchers[key] = Dispatcher(fn, recipe["options"])
            made.append(fn if recipe["options"] is None else _dispatchers[key])
        for recipe, fn, new in zip(recipes, functions, fresh):  # last: functions may refer to each other
            fn.__globals__.update({n: _unpack(v, made) for n, v in recipe["globals"].items()})
            if new:  # closure values are part of the function's identity: set once
                cells = fn.__closure__ or ()
                for name, value in recipe["closure"].items():
                    cells[fn.__code__.co_freevars.index(name)].cell_contents = _unpack(value, made)
        return made[0]


def _unchanged(fn: types.FunctionType) -> types.FunctionType:
    return fn


def _unpack(value: Any, made: list[Any]) -> Any:
    return made[value.index] if isinstance(value, _Ref) else value


def _identity(recipe: dict[str, Any]) -> tuple[Any, ...]:
    digest = hashlib.sha256(recipe["text"].encode()).hexdigest()[:16]
    return recipe["module"], recipe["qualname"], recipe["filename"], recipe["first_line"], digest, recipe["state"]


def _define(recipe: dict[str, Any]) -> types.FunctionType:
    """The function the recipe's text defines (once per process), its source in linecache at its own lines."""
    identity = _identity(recipe)
    filename = f"{recipe['filename']} [{recipe['qualname']}, sent by cuvil {identity[-2][:8]}]"
    text, first = recipe["text"], recipe["first_line"]
    if filename not in linecache.cache:  # again if linecache.clearcache() ran since: a recompile reads it
        lines = ["\n"] * (first - 1) + text.splitlines(keepends=True)
        linecache.cache[filename] = (sum(map(len, lines)), None, lines, filename)  # no mtime: never re-read
    fn = _functions.get(identity)
    if fn is not None:
        return fn
    node = ast.parse(textwrap.dedent(text)).body[0]
    assert isinstance(node, ast.FunctionDef)
    if node.decorator_list:  # `@cuvil.jit` must not run again (the Dispatcher is made here), but the function
        # must start at the same line, so its source text and first line (in the disk key) stay the sender's
        node.decorator_list = [ast.copy_location(ast.Name("__cuvil_unchanged__", ast.Load()), node.decorator_list[0])]
    ast.increment_lineno(node, first - 1)
    freevars = recipe["freevars"]
    body: list[ast.stmt] = [node]
    if freevars:  # real closure cells, as in the client: define it inside a function of those names
        outer = ast.FunctionDef(name="__cuvil_closure__", args=ast.arguments(
            posonlyargs=[], args=[ast.arg(arg=n) for n in freevars], kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=[node, ast.Return(ast.Name(recipe["name"], ast.Load()))], decorator_list=[], returns=None)
        body = [ast.fix_missing_locations(ast.copy_location(outer, node))]
    namespace = _namespaces.setdefault(recipe["module"], {"__name__": recipe["module"], "__builtins__": __builtins__,
                                                          "__cuvil_unchanged__": _unchanged})
    scope: dict[str, Any] = {}
    exec(compile(ast.Module(body=body, type_ignores=[]), filename, "exec"), namespace, scope)
    made = scope["__cuvil_closure__"](*[None] * len(freevars)) if freevars else scope[recipe["name"]]
    made.__qualname__ = recipe["qualname"]
    _sent_from[filename] = recipe["filename"]
    _functions[identity] = made
    return made


# --- across a cluster -----------------------------------------------------------------------------------------


class ClusterExplanation(dict[str, list[Any]]):
    """Each worker's compile events for one function (worker address → CompileEvent list, oldest first)."""

    def caches(self) -> dict[str, list[str]]:
        """Per worker, where each compile's module came from: "miss" (compiled), "disk", "memory"."""
        return {worker: [e.cache for e in events] for worker, events in self.items()}

    def __str__(self) -> str:
        lines = []
        for worker, events in sorted(self.items()):
            lines.append(f"{worker}: {len(events)} compile(s)")
            lines += [f"  {e.signature}  cache {e.cache}  {e.total:.3f} s  {e.reason}  ({e.context})" for e in events]
        return "\n".join(lines)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


def warmup(client: Any, fn: Any, *example_args: Any) -> ClusterExplanation:
    """Call `fn(*example_args)` once on every worker of `client`'s cluster, as a task pinned to it, so the first
    real tasks find it compiled (from the shared disk cache where `CUVIL_CACHE_DIR` points at one). The examples
    should have the real tasks' dtypes and ranks, each dim above 16 (dims up to 16 are specialized on, see
    runtime/policy.py): a block of the real array does. Workers that join later are not warmed. Returns
    `explain(client, fn)`."""
    _require_jit(fn, "warmup")
    workers = list(client.scheduler_info(n_workers=-1)["workers"])
    futures = [client.submit(_call, fn, example_args, workers=[w], allow_other_workers=False, pure=False)
               for w in workers]
    client.gather(futures)
    return explain(client, fn)


def explain(client: Any, fn: Any) -> ClusterExplanation:
    """Each worker's compile events for `fn` (`cuvil.explain`'s `.compiles`, gathered by `client.run`): how
    often each process compiled it, why, and whether a cache answered."""
    _require_jit(fn, "explain")
    return ClusterExplanation(client.run(_events, fn))


def _require_jit(fn: Any, what: str) -> None:
    if not getattr(fn, "__cuvil_jit__", False):
        raise TypeError(f"cuvil.distributed.{what} takes a function made by cuvil.jit, not {type(fn).__name__}")


def _call(fn: Any, args: tuple[Any, ...]) -> None:
    fn(*args)


def _events(fn: Any) -> list[Any]:
    return list(fn.compile_events)
