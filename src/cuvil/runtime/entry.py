"""The call entry: the only Python frame between a call of a jitted function and Numba's entry point.

Each Dispatcher is a `functools.partial` of a function generated from the variants it holds (newest first)
and generated again after each compile (`install`); CPython calls it through partial's vectorcall, handing
over the caller's own arguments and keyword names (`vectorcall`):

    def saxpy(a, x, y, out=__cv_U):          # the function's own parameters: Python binds keywords
        if out is __cv_U:                     # a default, read now as Python reads them: py_func.__defaults__
            ...
        try:
            try:                              # variant #2
                __cv_ok = type(x) is ndarray and type(y) is ndarray and len(x) == 4
            except Exception:                 # a guard that cannot even look at an argument: a miss
                __cv_ok = False
            if __cv_ok:
                __cv_r = __cv_D2(a, x, y, out)   # Numba's dispatcher: dtype, rank, layout checked in C
                if __cv_r is not MISS:
                    return __cv_r
            ...                               # variant #1, …
        except NumbaError as exc:             # as a direct call raises them (dispatcher.py)
            ...
        except Exception as exc:              # a run-time error: raised again at the user's line (where.py)
            ...
        return __cv_SELF._call_slow((a, x, y, out), {})   # torch, half, a miss: convert, compile

What each variant checks in Python is what Numba's dispatch cannot see (runtime/guards.py says why): an
array's class (a subclass types like an ndarray in Numba) and its dtype (Numba may type a byte-swapped array
as a native one, see `_numba_tests`), a number's class (a Python float is weak, an np.float64 is not: NEP 50),
tuple items' classes, static dims and the values read from outside. Numba's own C dispatcher then checks
dtype, rank, layout, byte order and writability against the one signature the variant compiled
(runtime/exact.py: a mismatch returns MISS, it never compiles). A variant whose arguments are all numbers is
decided by the class checks alone and calls its entry point directly (no dispatch); the other kinds (CUDA,
half-precision results, GPU arrays) keep the full guard of guards.py.
Variants made for half-precision arguments are left to the slow path: their arguments are converted first.

Measured (bench/call_overhead.md; instructions counted by callgrind, the same in a loaded run): the partial's
call and the entry's frame ~900 instructions, a class test ~170, a dtype test ~290 (a generic attribute
read); Numba's dispatch of three arrays ~120 ns more than its entry point, a third of what three
`compute_fingerprint` calls and class tests cost from Python.
"""

from __future__ import annotations

import ctypes
import functools
import inspect
import linecache
import sys
from typing import Any

import numba
import numpy as np
from numba.core.errors import NumbaError
from numba.np.numpy_support import as_dtype

from . import guards

P = "__cv_"  # the generated code's own names hold this
# Names the generated guards read besides those: a parameter of the same name would hide them (the entry of
# such a function only binds its arguments and leaves the guards to the slow path).
RESERVED = frozenset({*guards.ENV, "type", "len", "getattr", "Exception", "OverflowError", "NotImplementedError"})


def install(dispatcher: Any) -> None:
    """Generate `dispatcher`'s call entry from its variants and the function's signature now. A variant
    compiled under other defaults of the function itself is left out (the call that found them changed
    comes here: `Dispatcher._rebind`), and so is its `enter` from the slow path's list."""
    live = [v for v in dispatcher._variants if v.guard.holds_on_use()]
    dispatcher._entries = tuple(v.enter for v in live)
    use(dispatcher, build(dispatcher, live))


def use(dispatcher: Any, call: Any) -> None:
    """Make `call` what calling `dispatcher` runs (a Dispatcher is a functools.partial of it): partial's own
    state update, which keeps the instance's attributes and sets its vectorcall again."""
    functools.partial.__setstate__(dispatcher, (call, (), {}, dispatcher.__dict__))  # type: ignore[attr-defined]


_HAVE_VECTORCALL = 1 << 11  # Py_TPFLAGS_HAVE_VECTORCALL


def vectorcall(cls: type) -> None:
    """Let CPython 3.11 call instances of `cls`, a subclass of functools.partial, through partial's vectorcall.

    A call with a keyword through a type's tp_call builds an argument tuple and a keyword dict and unpacks the
    dict again (~180 ns, bench/call_overhead.md); partial's vectorcall hands the caller's own argument array
    to the entry. CPython 3.12 makes a subclass inherit the flag that selects it; 3.11 does so only for
    immutable types, so here it is set in the type's `tp_flags`, after checking that the word read there is
    the type's `__flags__` and that the subclass kept partial's vectorcall slot. Anything else (another
    interpreter, another layout) keeps tp_call: slower, same results. No `__call__` may be set on `cls`
    afterwards (3.11 would keep calling the vectorcall)."""
    if cls.__flags__ & _HAVE_VECTORCALL or sys.implementation.name != "cpython" or sys.version_info[:2] != (3, 11):
        return
    word = ctypes.sizeof(ctypes.c_void_p)
    flags = ctypes.c_ulong.from_address(id(cls) + 21 * word)  # ob_refcnt … tp_as_buffer: 21 words before tp_flags
    slot = ctypes.c_ssize_t.from_address(id(cls) + 7 * word)  # tp_vectorcall_offset
    base = ctypes.c_ssize_t.from_address(id(functools.partial) + 7 * word)
    if flags.value == cls.__flags__ and slot.value == base.value != 0 and "__call__" not in vars(cls):
        flags.value |= _HAVE_VECTORCALL


def build(dispatcher: Any, variants: list[Any]) -> Any:
    fn = dispatcher.py_func
    params = list(inspect.signature(fn).parameters.values())
    names = [p.name for p in params]
    if any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in params) or any(P in n for n in names):
        return _generic(dispatcher)  # outside the subset, or a name like the generated code's own
    if RESERVED.intersection(names):  # a parameter hides a name the guards read: bind here, check there
        variants = []
    env: dict[str, object] = {**guards.ENV, f"{P}SELF": dispatcher, f"{P}U": UNSET, f"{P}NumbaError": NumbaError,
                              f"{P}PYF": fn, f"{P}D": fn.__defaults__}
    args = "(" + "".join(f"{n}, " for n in names) + ")"
    first = len(names) - len(fn.__defaults__ or ())
    head = [n if k < first else f"{n}={P}U" for k, n in enumerate(names)]
    lines = [f"def {P}call({', '.join(head)}):"]
    if first < len(names):  # Python reads __defaults__ at each call: so does this
        lines.append(f"    if {' or '.join(f'{n} is {P}U' for n in names[first:])}:")
        lines.append(f"        if {P}PYF.__defaults__ is not {P}D:")
        lines.append(f"            return {P}SELF._rebind({args})")
        lines += [f"        if {n} is {P}U: {n} = {P}D[{k}]" for k, n in enumerate(names[first:])]
    if variants:
        lines += ["    try:", "        pass"]  # every variant may be the slow path's (half precision)
        for variant in variants:
            lines += _variant_lines(variant, names, env)
        lines += [f"    except {P}NumbaError as {P}exc:",
                  f"        raise {P}SELF._error({P}exc, {args}) from None",
                  f"    except OverflowError as {P}exc:  # Numba's unboxing of an int beyond 64 bits, or the program's",
                  f"        raise {P}SELF._named_argument({args}) or {P}SELF._located({P}exc) or {P}exc from None",
                  f"    except NotImplementedError as {P}exc:",
                  f"        raise {P}SELF._runtime_error({P}exc, {args}) from None",
                  f"    except Exception as {P}exc:  # the program's run-time error: at the user's line",
                  f"        {P}at = {P}SELF._located({P}exc)",
                  f"        if {P}at is None:",
                  "            raise",
                  f"        raise {P}at"]
    lines.append(f"    return {P}SELF._call_slow({args}, {{}})")
    text, filename = "\n".join(lines) + "\n", f"<cuvil call of {fn.__qualname__} at {id(dispatcher):#x}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)  # for tracebacks and readers
    exec(compile(text, filename, "exec"), env)
    call: Any = env[f"{P}call"]
    call.__name__, call.__qualname__ = fn.__name__, fn.__qualname__  # Python's TypeError names the function
    return call


def _variant_lines(variant: Any, names: list[str], env: dict[str, object]) -> list[str]:
    guard, tag = variant.guard, f"{P}{variant.number}"
    if any(guards.is_half(a) for a in guard.args):  # made for converted arguments: the slow path's
        return []
    passed = ", ".join(names)
    safe = False  # whether the tests cannot raise: then no `try` around them
    if _mode(variant) == "numba":
        tests, safe = _numba_tests(guard, names, env, tag)
        env[f"D{tag}"], env[f"CV{tag}"] = variant.dispatcher, variant.convert
        result = f"CV{tag}({P}r)" if variant.convert is not None else f"{P}r"
        call = [f"{P}r = D{tag}({passed})", f"if {P}r is not MISS:", f"    return {result}"]
    else:
        tests = guards.failure_tests(guard, names, env, tag)
        env[f"I{tag}"] = variant.impl
        call = [f"return I{tag}({passed})"]
    if not tests:
        return [f"        {line}" for line in call]
    if safe:
        return [f"        if not ({' or '.join(tests)}):  # variant #{variant.number}",
                *(f"            {line}" for line in call)]
    return [f"        try:  # variant #{variant.number}",
            f"            {P}ok = not ({' or '.join(tests)})",
            "        except Exception:",
            f"            {P}ok = False",
            f"        if {P}ok:", *(f"            {line}" for line in call)]


def _mode(variant: Any) -> str:
    """"numba": Numba's dispatcher checks what the class tests leave; "full": the full guard in Python (all
    numbers: the class tests are the whole guard; CUDA launchers, half results, GPU arrays)."""
    guard = variant.guard
    if variant.dispatcher is None or any(guards.is_device(a) for a in guard.args):
        return "full"
    if all(guards.scalar_class(a.numba_type, a.kind) is not None for a in guard.args):
        return "full"  # decided by class tests alone: the entry point directly
    return "numba"


def _numba_tests(guard: Any, names: list[str], env: dict[str, object], tag: str) -> tuple[list[str], bool]:
    """The failure tests Numba's dispatch leaves to Python, and whether none of them can raise."""
    tests, exact = [], []
    for i, spec in enumerate(guard.args):
        cls = guards.scalar_class(spec.numba_type, spec.kind)
        if cls is not None:
            env[f"C{tag}_{i}"] = cls
            tests.append(f"type({names[i]}) is not C{tag}_{i}")
        elif isinstance(spec.numba_type, numba.types.Array):
            # A subclass types as an ndarray in Numba. Numba's C dispatch keys arrays it cannot type at once
            # (unaligned, read-only, byte-swapped) by a fingerprint blind to byte order: after an unaligned
            # float64 array, a big-endian one runs as native. The dtype by identity (native dtypes are
            # singletons; an equal one that is not goes to the slow path, which compares by value).
            env[f"DT{tag}_{i}"] = np.dtype(as_dtype(spec.numba_type.dtype))
            tests.append(f"type({names[i]}) is not ndarray or {names[i]}.dtype is not DT{tag}_{i}")
        else:  # tuples: their items' classes; None, bools: Numba's type is all there is
            exact += guards.exact_items(spec.numba_type, names[i], spec.kind)
    # These can raise (len() of a 0-d array, a global deleted since): after the class tests, inside a `try`.
    later = guards.dim_tests(guard, names) + guards.exact_tests(exact, env, tag) + guards.global_tests(guard, env, tag)
    return tests + later, not later


def _generic(dispatcher: Any) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        return dispatcher._call_slow(args, kwargs)

    return call


class _Unset:
    """A parameter the caller left out: its default is read at the call (see `build`)."""

    def __repr__(self) -> str:
        return "<default>"


UNSET = _Unset()
