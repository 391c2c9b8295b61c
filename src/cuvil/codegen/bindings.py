"""How a value a user function captures becomes a name in the generated module.

Four ways, tried in order: a literal (`K = 3.0`, visible in the generated source), an import (`import numpy as
np`, `from math import sqrt`), a callee (a `@cuvil.jit` or plain user function, compiled into the same module),
or an injected object (an array, a NumPy scalar, a `numba.njit` function) placed in the module's namespace
before it runs. Numba freezes every global at compile time; the cache key holds their values.
"""

from __future__ import annotations

import dataclasses
import math
import sys
import types

import numba
import numpy as np

from ..frontend.captures import is_library_file, is_user_module


@dataclasses.dataclass(frozen=True)
class Literal:
    text: str


@dataclasses.dataclass(frozen=True)
class Import:
    module: str
    attr: str | None  # None: the module itself


@dataclasses.dataclass(frozen=True)
class Callee:
    function: types.FunctionType


@dataclasses.dataclass(frozen=True)
class Injected:
    value: object
    what: str  # a short description for the generated source's comment


Binding = Literal | Import | Callee | Injected


def literal(value: object) -> str | None:
    """Python source that evaluates to `value`, for the scalars and tuples Numba freezes; else None."""
    if value is None or isinstance(value, bool | int | str):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else f'float("{value}")'
    if isinstance(value, complex):
        re_, im = literal(value.real), literal(value.imag)
        return f"complex({re_}, {im})"
    if type(value) is tuple:
        parts = [literal(v) for v in value]
        if any(p is None for p in parts):
            return None
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"  # type: ignore[arg-type]
    return None


def is_user_function(fn: types.FunctionType) -> bool:
    """Defined in the user's own code (files, notebooks), not in an installed library or the stdlib."""
    return not is_library_file(fn.__code__.co_filename)


def _importable(value: object) -> Import | None:
    if isinstance(value, types.ModuleType):
        return Import(value.__name__, None)
    module = getattr(value, "__module__", None) or ("numpy" if isinstance(value, np.ufunc) else None)
    name = getattr(value, "__name__", None)
    if module and name and sys.modules.get(module) is not None:
        if getattr(sys.modules[module], name, None) is value:
            return Import(module, name)
    if isinstance(value, np.ufunc | type) and getattr(np, str(name), None) is value:
        return Import("numpy", str(name))
    return None


def bind(value: object) -> Binding | None:
    """The binding for a captured value, or None when compiled code cannot use it."""
    text = literal(value)
    if text is not None:
        return Literal(text)
    if getattr(value, "__cuvil_jit__", False):
        return Callee(value.py_func)  # type: ignore[attr-defined]
    if isinstance(value, types.FunctionType) and is_user_function(value):
        return Callee(value)
    if isinstance(value, numba.core.dispatcher.Dispatcher):
        return Injected(value, f"numba function {value.py_func.__qualname__}")
    imported = _importable(value)
    if imported is not None:
        return imported
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        return Injected(value, f"array {value.dtype}{list(value.shape)}")
    if isinstance(value, np.generic) and value.dtype.kind in "biufc":
        return Injected(value, f"{value.dtype} scalar")
    return None


def callee_function(value: object) -> types.FunctionType | None:
    """The Python function a captured value compiles into the same module as, or None."""
    binding = bind(value)
    return binding.function if isinstance(binding, Callee) else None


def compiled_in(value: object) -> types.FunctionType | None:
    """The Python function whose reads are compiled in with `value`: a callee's, or a user's `numba.njit`
    helper's (Numba freezes its globals too). None for anything else, library functions included."""
    callee = callee_function(value)
    if callee is not None:
        return callee
    if isinstance(value, numba.core.dispatcher.Dispatcher) and is_user_function(value.py_func):
        return value.py_func
    return None


def private_copy(value: object, copies: dict[int, tuple[object, object]] | None = None) -> object:
    """What a generated module is to see for `value`: for a user's `numba.njit` helper, a copy compiled
    afresh. The helper itself keeps the machine code of its first compile, with the globals of then frozen
    in: a module recompiled because one of them changed must not link that old code. The copy reads a
    snapshot of the helper's globals in which the user's modules and Numba helpers are private too. A user's
    module becomes a stand-in that reads through to it, giving private copies of the helpers in it (Numba
    resolves `helpers.fast` when it compiles). `copies` (original id → (original, copy)) keeps one copy each."""
    copies = {} if copies is None else copies
    known = copies.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    if isinstance(value, types.ModuleType) and is_user_module(value) and "__cuvil_stand_in__" not in vars(value):
        stand_in = types.ModuleType(value.__name__, value.__doc__)
        copies[id(value)] = (value, stand_in)
        vars(stand_in)["__cuvil_stand_in__"] = True
        vars(stand_in)["__getattr__"] = lambda name: private_copy(getattr(value, name), copies)
        return stand_in
    if compiled_in(value) is None or callee_function(value) is not None:
        return value
    py = value.py_func  # type: ignore[attr-defined]
    namespace = dict(py.__globals__)
    clone = types.FunctionType(py.__code__, namespace, py.__name__, py.__defaults__, py.__closure__)
    clone.__qualname__, clone.__module__ = py.__qualname__, py.__module__
    options = {k: v for k, v in value.targetoptions.items() if k not in ("nopython", "cache")}  # type: ignore[attr-defined]
    copies[id(value)] = (value, numba.njit(**options)(clone))
    for name in py.__code__.co_names:
        if name in namespace:
            namespace[name] = private_copy(namespace[name], copies)
    return copies[id(value)][1]


def import_line(alias: str, imp: Import) -> str:
    if imp.attr is None:
        top = imp.module
        return f"import {top}" if alias == top else f"import {top} as {alias}"
    return f"from {imp.module} import {imp.attr}" + ("" if alias == imp.attr else f" as {alias}")
