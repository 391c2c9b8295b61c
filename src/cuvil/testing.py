"""Property tests for jitted functions: draw inputs from a spec, run Python and every target, compare.

    from cuvil.testing import arrays, scalars, equivalence

    test_saxpy = equivalence(scalars(float), arrays("f8", ("n",)), arrays("f8", ("n",)))(saxpy)

A spec names dims symbolically, so `("n",)` on two arguments draws one length for both. The comparison knows
that NaN equals NaN in the same place, that a tolerance belongs to a dtype, and that a function which writes
into its arguments must write the same values. This module imports neither libcst nor the compiler: a user's
test module imports it at collection time, and compiling waits for the first example.

The comparison is exact about types; only values of float and complex dtypes get a tolerance:
  * arrays: the same class (ndarray, torch tensor), the same shape and the same dtype — a float32 result that
    comes back float64, or an int32 one as int64, is a difference, whatever the values;
  * scalars: the same dtype, where Python's bool, int, float and complex count as NumPy's bool, int64, float64
    and complex128. Numba returns every 64-bit scalar as the Python type (it has no way to return np.float64),
    so `3` and `np.int64(3)` match, and so do `2.0` and `np.float64(2.0)`; but `np.float32(2.0)` and `2.0` do
    not (another precision), nor `np.int32(3)` and `3` (another wrap-around), nor `True` and `1`;
  * a scalar never matches a 0-d array, a tuple never a list, and tuples match element by element.
What the rule lets through: NEP 50 treats a Python float as a "weak" scalar and np.float64 as a strong one, so
`float32_array * r` in the caller's later code is float32 for one and float64 for the other.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import math
import weakref
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

__all__ = ["ArraySpec", "ScalarSpec", "arrays", "assert_equivalent", "assert_matches", "equivalence", "inputs",
           "scalars", "targets"]

Dim = int | str
# Default tolerances per dtype, (rtol, atol): loose enough for a different but valid evaluation order.
_TOLERANCES = {8: (1e-9, 1e-12), 4: (1e-5, 1e-6), 2: (1e-3, 1e-4)}
# Exceptions that match when both sides raise something of the same family (Numba words them differently).
_FAMILIES = (ArithmeticError, LookupError, NameError, ValueError, TypeError)
_SHOWN = 5  # mismatching elements listed in a failure message
SIZES = st.integers(0, 16)  # the default size of a symbolic dim


@dataclasses.dataclass(frozen=True)
class ArraySpec:
    """An array argument: dtype, shape of ints and symbolic dim names, optional elements strategy."""

    dtype: np.dtype
    shape: tuple[Dim, ...]
    elements: st.SearchStrategy | None = None
    allow_nan: bool = False
    allow_infinity: bool = False

    def strategy(self, dims: Mapping[str, int]) -> st.SearchStrategy:
        shape = tuple(dims[d] if isinstance(d, str) else d for d in self.shape)
        elements = self.elements
        if elements is None:
            elements = _elements(self.dtype, None, None, self.allow_nan, self.allow_infinity)
        return hnp.arrays(self.dtype, shape, elements=elements)


@dataclasses.dataclass(frozen=True)
class ScalarSpec:
    """A scalar argument: a Python `int/float/bool` or a NumPy scalar of the given dtype."""

    dtype: np.dtype
    cast: Callable[[Any], Any]  # Python's int/float/bool/complex, or the NumPy scalar type
    min_value: float | None = None
    max_value: float | None = None
    allow_nan: bool = False
    allow_infinity: bool = False

    def strategy(self, dims: Mapping[str, int]) -> st.SearchStrategy:
        values = _elements(self.dtype, self.min_value, self.max_value, self.allow_nan, self.allow_infinity)
        return values.map(self.cast)


def arrays(dtype: Any, shape: tuple[Dim, ...] | Dim, elements: st.SearchStrategy | None = None, *,
           allow_nan: bool = False, allow_infinity: bool = False) -> ArraySpec:
    """An array spec; `shape` mixes sizes and names (`("n", 3)`): one name is one size across all arguments.

    Default elements are finite and small (floats in [-1e3, 1e3], ints in [-1000, 1000] clipped to the dtype)
    so that overflow never decides a test; NaN and infinities are opt-in.
    """
    shape = shape if isinstance(shape, tuple) else (shape,)
    return ArraySpec(np.dtype(dtype), shape, elements, allow_nan, allow_infinity)


def scalars(dtype: Any, min_value: float | None = None, max_value: float | None = None, *,
            allow_nan: bool = False, allow_infinity: bool = False) -> ScalarSpec:
    """A scalar spec: `scalars(float)` draws Python floats, `scalars("f4")` draws `np.float32` values."""
    cast = dtype if dtype in (int, float, bool, complex) else np.dtype(dtype).type
    return ScalarSpec(np.dtype(dtype), cast, min_value, max_value, allow_nan, allow_infinity)


def inputs(*specs: ArraySpec | ScalarSpec | st.SearchStrategy,
           dims: st.SearchStrategy[int] | Mapping[str, st.SearchStrategy[int] | int] = SIZES,
           ) -> st.SearchStrategy[tuple[Any, ...]]:
    """Argument tuples: the sizes of all symbolic dims are drawn first, then every argument with them.

    `dims` is one strategy for every dim, or a mapping from dim name to a strategy or a fixed size.
    """
    names = list(dict.fromkeys(d for s in specs if isinstance(s, ArraySpec) for d in s.shape if isinstance(d, str)))

    def size(name: str) -> st.SearchStrategy[int]:
        choice = dims.get(name, SIZES) if isinstance(dims, Mapping) else dims
        return st.just(choice) if isinstance(choice, int) else choice

    def draw_args(sizes: tuple[int, ...]) -> st.SearchStrategy[tuple[Any, ...]]:
        bound = dict(zip(names, sizes))
        parts = [s.strategy(bound) if isinstance(s, ArraySpec | ScalarSpec) else s for s in specs]
        return st.tuples(*parts)

    return st.tuples(*[size(n) for n in names]).flatmap(draw_args)


def _elements(dtype: np.dtype, lo: float | None, hi: float | None, nan: bool, inf: bool) -> st.SearchStrategy:
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        low = max(int(info.min), -1000 if lo is None else int(lo))
        return st.integers(low, min(int(info.max), 1000 if hi is None else int(hi)))
    width: Any = dtype.itemsize * 8
    if dtype.kind == "c":
        return st.complex_numbers(max_magnitude=1e3, allow_nan=nan, allow_infinity=inf, width=width)
    finite = st.floats(-1e3 if lo is None else lo, 1e3 if hi is None else hi, width=width)
    specials = [math.nan] * nan + [math.inf, -math.inf] * inf
    return finite | st.sampled_from(specials) if specials else finite


# ------------------------------------------------------------------------------------------- comparing


def targets() -> tuple[str, ...]:
    """The targets every equivalence test runs on here: the CPU, and CUDA when a real device is up. Not the
    simulator (a Python interpreter per GPU thread: tests/cuda runs it on inputs sized for it), not "auto" (a
    choice between the two, not a target)."""
    from numba import config

    from .options import TARGETS, Options

    found = []
    for target in TARGETS:
        if target == "auto":
            continue
        try:
            Options(target=target)
        except NotImplementedError:
            continue
        if target == "cuda":
            if getattr(config, "ENABLE_CUDASIM", 0):
                continue
            from numba import cuda

            if not cuda.is_available():
                continue
        found.append(target)
    return tuple(found)


_jitted: weakref.WeakKeyDictionary[Callable, dict[str, Any]] = weakref.WeakKeyDictionary()


def _variants(fn: Any) -> tuple[Callable, dict[str, Any]]:
    """(py_func, {target: dispatcher}); `fn` is a cuvil.jit dispatcher (kept for its target) or a function."""
    import cuvil

    py_func = fn.py_func if getattr(fn, "__cuvil_jit__", False) else fn
    options = dataclasses.asdict(fn.options) if getattr(fn, "__cuvil_jit__", False) else {}
    cached = _jitted.setdefault(py_func, {})
    out = {}
    for target in targets():
        if options.get("target") == target:
            out[target] = fn
        else:
            if target not in cached:
                cached[target] = cuvil.jit(py_func, **{**options, "target": target})
            out[target] = cached[target]
    return py_func, out


def assert_equivalent(fn: Any, *args: Any, rtol: float | None = None, atol: float | None = None) -> None:
    """Run `fn.py_func` and `fn` on every target (each on its own copy of `args`) and require equal results,
    equal writes into the arguments, or the same kind of exception. Fails with a readable diff."""
    py_func, jitted = _variants(fn)
    assert_matches(py_func, _labelled(py_func, jitted), *args, rtol=rtol, atol=atol)


def _labelled(py_func: Callable, jitted: Mapping[str, Any]) -> dict[str, Any]:
    return {f"cuvil.jit({py_func.__name__}) on target {t!r}": fn for t, fn in jitted.items()}


def equivalence(*specs: ArraySpec | ScalarSpec | st.SearchStrategy, max_examples: int = 50,
                dims: Any = SIZES, rtol: float | None = None,
                atol: float | None = None) -> Callable[[Any], Callable[[], None]]:
    """Turn a function into a zero-argument hypothesis test: `test_f = equivalence(arrays("f8", ("n",)))(f)`.

    The dispatchers are made once, when the decorator runs; each example then compares Python with every target.
    """

    def decorate(fn: Any) -> Callable[[], None]:
        py_func, jitted = _variants(fn)
        labelled = _labelled(py_func, jitted)

        @settings(max_examples=max_examples, deadline=None)
        @given(inputs(*specs, dims=dims))
        def test(args: tuple[Any, ...]) -> None:
            assert_matches(py_func, labelled, *args, rtol=rtol, atol=atol)

        test.__name__ = test.__qualname__ = f"test_{py_func.__name__}_equivalence"
        return test

    return decorate


@dataclasses.dataclass
class _Outcome:
    value: Any
    error: BaseException | None
    args: tuple[Any, ...]


def _run(fn: Callable, args: tuple[Any, ...]) -> _Outcome:
    mine = copy.deepcopy(args)
    try:
        return _Outcome(fn(*mine), None, mine)
    except Exception as exc:  # compared with the other side's, not a failure by itself
        return _Outcome(None, exc, mine)


def assert_matches(reference: Callable, candidates: Mapping[str, Callable], *args: Any, rtol: float | None = None,
                   atol: float | None = None) -> None:
    """Like `assert_equivalent`, for any callables: each of `candidates` (label → callable) must behave as
    `reference` does on `args` — a rewritten version of a function against the original, say."""
    expected = _run(reference, args)
    names = list(inspect.signature(reference).parameters)
    for label, fn in candidates.items():
        problems = _differences(expected, _run(fn, args), names, rtol, atol)
        if problems:
            shown = ", ".join(f"{_name(names, i)}={_short(a)}" for i, a in enumerate(args))
            name = getattr(reference, "__name__", repr(reference))
            raise AssertionError(f"{label} differs from {name} for ({shown}):\n  " + "\n  ".join(problems))


def _name(names: list[str], i: int) -> str:
    return names[i] if i < len(names) else f"#{i}"


def _differences(expected: _Outcome, actual: _Outcome, names: list[str], rtol: float | None,
                 atol: float | None) -> list[str]:
    if expected.error is not None or actual.error is not None:
        e, a = expected.error, actual.error
        if e is not None and a is not None and (isinstance(a, type(e)) or
                                                 any(isinstance(e, f) and isinstance(a, f) for f in _FAMILIES)):
            return []
        return [f"result: expected {_describe(e, expected.value)}, got {_describe(a, actual.value)}"]
    problems = _compare(expected.value, actual.value, "result", rtol, atol)
    for i, (e, a) in enumerate(zip(expected.args, actual.args)):
        problems += _compare(e, a, f"argument {_name(names, i)!r} (after the call)", rtol, atol)
    return problems


def _describe(error: BaseException | None, value: Any) -> str:
    return f"{type(error).__name__}: {error}" if error is not None else f"a return of {_short(value)}"


def _short(value: Any) -> str:
    array = _as_array(value)
    if array is not None:
        return np.array2string(array, threshold=8, edgeitems=3, precision=6, separator=", ")
    return repr(value)


def _as_array(value: Any) -> np.ndarray | None:
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "detach") and hasattr(value, "numpy"):  # a torch tensor, without importing torch
        return np.asarray(value.detach().cpu().numpy())
    return None


# Python's scalars as the NumPy dtypes they stand for (see the module docstring).
_PYTHON_SCALARS = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float64),
                   complex: np.dtype(np.complex128)}


def _scalar_dtype(value: Any) -> np.dtype | None:
    if isinstance(value, np.generic):
        return value.dtype
    return _PYTHON_SCALARS.get(type(value))


def _container(value: Any) -> str:
    return "torch tensor" if hasattr(value, "detach") else type(value).__name__


def _compare(e: Any, a: Any, path: str, rtol: float | None, atol: float | None) -> list[str]:
    """Differences between expected `e` and actual `a`, each a line naming where (`result[1]`) and how."""
    if isinstance(e, tuple | list):
        if type(a) is not type(e) or len(a) != len(e):
            return [f"{path}: expected {type(e).__name__} of length {len(e)}, got {_short(a)}"]
        return [p for i, (x, y) in enumerate(zip(e, a)) for p in _compare(x, y, f"{path}[{i}]", rtol, atol)]
    e_arr, a_arr = _as_array(e), _as_array(a)
    if e_arr is not None:
        if a_arr is None or _container(a) != _container(e):
            return [f"{path}: expected {_container(e)}, got {type(a).__name__} {_short(a)}"]
        return _compare_arrays(e_arr, a_arr, path, rtol, atol)
    dtype = _scalar_dtype(e)
    if dtype is None:
        return [] if (e is None and a is None) or (e is not None and e == a) else [
            f"{path}: expected {_short(e)}, got {_short(a)}"]
    got = _scalar_dtype(a)
    if got is None or got != dtype:  # (not `got != dtype` alone: np.dtype(None) is float64, so None == float64)
        return [f"{path}: expected {type(e).__name__} {e!r}, got {type(a).__name__} {_short(a)}"]
    if dtype.kind in "biu":
        return [] if int(e) == int(a) else [f"{path}: expected {e!r}, got {a!r}"]
    return _compare_arrays(np.asarray(e, dtype=dtype), np.asarray(a, dtype=dtype), path, rtol, atol)


def _compare_arrays(e: np.ndarray, a: np.ndarray, path: str, rtol: float | None, atol: float | None) -> list[str]:
    if e.shape != a.shape:
        return [f"{path}: shape {a.shape}, expected {e.shape}"]
    if e.dtype != a.dtype:
        return [f"{path}: dtype {a.dtype}, expected {e.dtype}"]
    if e.dtype.kind == "c":  # part by part: inf+nanj equals inf+nanj, which `==` on the complex values denies
        return _compare_arrays(e.real, a.real, f"{path} (real part)", rtol, atol) + \
            _compare_arrays(e.imag, a.imag, f"{path} (imaginary part)", rtol, atol)
    integral = "iu"
    error: np.ndarray | None = None
    if e.dtype.kind in "fc":
        default_rtol, default_atol = _TOLERANCES.get(e.real.dtype.itemsize, _TOLERANCES[8])
        rtol = default_rtol if rtol is None else rtol
        atol = default_atol if atol is None else atol
        with np.errstate(invalid="ignore", over="ignore"):
            same_special = (np.isnan(e) == np.isnan(a)) & (np.isinf(e) == np.isinf(a))
            same_special &= ~np.isinf(e) | (e == a)
            finite = np.isfinite(e) & np.isfinite(a)
            error = np.where(finite, np.abs(a - e), 0.0)
            close = ~finite | (error <= atol + rtol * np.abs(e))
        bad = ~(same_special & close)
    else:
        if e.dtype.kind in integral:
            error = np.abs(a.astype(np.float64) - e.astype(np.float64))
        bad = np.asarray(e != a)
    if not bad.any():
        return []
    where = np.argwhere(bad)
    scalar = e.ndim == 0
    lines = [f"{path}: expected {e.item()!r}, got {a.item()!r}" if scalar else
             f"{path}: {len(where)} of {e.size} elements differ (shape {e.shape}, dtype {a.dtype} vs {e.dtype})"]
    for index in [] if scalar else where[:_SHOWN]:
        at = tuple(int(i) for i in index)
        lines.append(f"    at {list(at)}: expected {e[at].item()!r}, got {a[at].item()!r}")
    if len(where) > _SHOWN:
        lines.append(f"    … and {len(where) - _SHOWN} more")
    measured = bad & np.isfinite(e) & np.isfinite(a) if e.dtype.kind in "fc" else bad
    if error is not None and e.dtype.kind != "b" and measured.any():
        worst = float(np.max(error[measured]))
        with np.errstate(divide="ignore", invalid="ignore"):
            rel = float(np.max(error[measured] / np.abs(e[measured]).astype(np.float64)))
        tol = f" (rtol {rtol}, atol {atol})" if e.dtype.kind in "fc" else ""
        lines.append(f"    max abs error {worst:.3g}, max rel error {rel:.3g}{tol}")
    return lines

