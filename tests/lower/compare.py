"""What the lowering tests share: jitted functions compiled once per source and options, array strategies
over the dtypes NumPy 2 promotes, and the comparison with NumPy's own answer.

The comparison is exact where NumPy is: the same class, shape and dtype, equal integers and bools, NaN where
NumPy has NaN, the same infinities, the same exception type and message. Finite floats may differ by an
evaluation order (a loop sum against NumPy's pairwise one, `x*x*x` against `pow`), within the dtype's
tolerance: float32 rtol 1e-5 / atol 1e-6, float64 1e-12 (reductions scale atol by the sum of magnitudes).
"""

from __future__ import annotations

import functools
import math
import os
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cuvil
from tests.helpers import define

DTYPES = ("float16", "float32", "float64", "int8", "uint8", "int32", "int64", "bool")
FLOATS = ("float16", "float32", "float64")
INTEGERS = ("int8", "uint8", "int32", "int64")
TOLERANCE = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-12), "float16": (1e-3, 1e-4)}
MAX_SIDE = 6
WIDE = os.environ.get("CUVIL_LOWER_WIDE") == "1"  # every dtype pair, not a representative few (slow)


@functools.cache
def jitted(source: str, **options: Any) -> Any:
    """The dispatcher of the (last) function in `source`: compiled once per dtype combination and shared by
    every example that uses it."""
    return cuvil.jit(define(source, env={"np": np}), **options)


def elements(dtype: str, special: bool = True, bound: float = 1e4) -> st.SearchStrategy:
    """Any value of `dtype` (so narrow integers wrap); floats finite within ±bound, or also NaN and ±inf."""
    kind = np.dtype(dtype).kind
    if kind == "b":
        return st.booleans()
    if kind in "iu":
        info = np.iinfo(dtype)
        return st.integers(int(info.min), int(info.max))
    width = np.dtype(dtype).itemsize * 8
    finite = st.floats(-bound, bound, width=width)
    if not special:
        return finite
    return finite | st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0])


def arrays(dtype: str, shape: tuple[int, ...], special: bool = True,
           values: st.SearchStrategy | None = None) -> st.SearchStrategy[np.ndarray]:
    return hnp.arrays(np.dtype(dtype), shape, elements=values if values is not None else elements(dtype, special))


def seeded_array(data: Any, dtype: str, shape: tuple[int, ...], scale: float = 50.0,
                 full_range: bool = False) -> np.ndarray:
    """A NumPy-generated array from a drawn seed (cheaper to draw and shrink than element by element): normal
    values times `scale` cast to `dtype` (`full_range`: integers over the whole dtype), a NaN at a drawn place
    in a float array half the time."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    kind = np.dtype(dtype).kind
    if full_range and kind in "iu":
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    else:
        x = (rng.standard_normal(shape) * scale).astype(dtype)
    if kind == "f" and x.size and data.draw(st.booleans(), label="with a nan"):
        x.flat[data.draw(st.integers(0, x.size - 1), label="at")] = np.nan
    return x


def shapes(ndim: int, min_side: int = 0) -> st.SearchStrategy[tuple[int, ...]]:
    return st.tuples(*[st.integers(min_side, MAX_SIDE)] * ndim)


@st.composite
def broadcast_pair(draw: Any, out_ndim: int, other_ndim: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A full shape and a shape of rank `other_ndim` that broadcasts against it (each dim equal or 1)."""
    out = draw(shapes(out_ndim))
    other = tuple(draw(st.sampled_from([d, 1])) for d in out[out_ndim - other_ndim:])
    return out, other


def outcome(fn: Callable, *args: Any) -> tuple[str, Any]:
    """("value", result) or ("raise", (type, message)); NumPy's warnings are silenced, as they do not reach
    the caller of compiled code either."""
    args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "Mean of empty slice"
            return "value", fn(*args)
    except Exception as exc:  # noqa: BLE001 (compared with the other side)
        return "raise", (type(exc), str(exc))


def assert_like_numpy(fn: Any, *args: Any, reduced: Any = None) -> None:
    """`fn` (a dispatcher) gives what its Python function gives on `args` under NumPy; `reduced`, the array a
    reduction summed over, widens the float tolerance by its magnitudes."""
    expected, got = outcome(fn.py_func, *args), outcome(fn, *args)
    shown = ", ".join(_short(a) for a in args)
    if expected[0] == "raise" or got[0] == "raise":
        assert got == expected, f"{fn.py_func.__name__}({shown}): expected {expected}, got {got}"
        return
    problems = differences(expected[1], got[1], "result", reduced)
    assert not problems, f"{fn.py_func.__name__}({shown}):\n  " + "\n  ".join(problems)


def differences(e: Any, a: Any, path: str, reduced: Any = None) -> list[str]:
    if isinstance(e, tuple):
        if not isinstance(a, tuple) or len(a) != len(e):
            return [f"{path}: expected a tuple of {len(e)}, got {a!r}"]
        return [p for k, (x, y) in enumerate(zip(e, a)) for p in differences(x, y, f"{path}[{k}]", reduced)]
    if isinstance(e, np.ndarray):
        if not isinstance(a, np.ndarray):
            return [f"{path}: expected an ndarray, got {type(a).__name__} {a!r}"]
        if a.shape != e.shape or a.dtype != e.dtype:
            return [f"{path}: expected {e.dtype}{e.shape}, got {a.dtype}{a.shape}"]
        return _values(e, a, path, reduced)
    ed, ad = _scalar_dtype(e), _scalar_dtype(a)
    if ed is None or ad != ed:
        return [f"{path}: expected {type(e).__name__} {e!r}, got {type(a).__name__} {a!r}"]
    return _values(np.asarray(e, ed), np.asarray(a, ed), path, reduced)


def _scalar_dtype(value: Any) -> np.dtype | None:
    """Numba returns 64-bit scalars as Python's int, float, complex and bool: those stand for int64, float64,
    complex128, bool."""
    if isinstance(value, np.generic):
        return value.dtype
    return {bool: np.dtype(bool), int: np.dtype(np.int64), float: np.dtype(np.float64),
            complex: np.dtype(np.complex128)}.get(type(value))


def _values(e: np.ndarray, a: np.ndarray, path: str, reduced: Any, magnitude: Any = 0.0) -> list[str]:
    if e.dtype.kind == "c":  # each part as a float of its width, within rtol of the whole number's magnitude (a
        # power or an exp rounds in polar form: the real part of -50.75j may be -2e-06 in complex64, or 3e-15)
        with np.errstate(all="ignore"):
            size = np.abs(e.astype(np.complex128))
        return _values(e.real, a.real, path + ".real", reduced, size) + \
            _values(e.imag, a.imag, path + ".imag", reduced, size)
    if e.dtype.kind not in "fc":
        bad = e != a
    else:
        rtol, atol = TOLERANCE[e.dtype.name]
        if reduced is not None and np.size(reduced):
            with np.errstate(all="ignore"):
                scale = float(np.nansum(np.abs(np.asarray(reduced, np.float64))))
            atol = atol * max(1.0, scale) if math.isfinite(scale) else atol
            if e.dtype == np.float16:  # NumPy rounds a float16 reduction per step along a strided axis (and
                atol = max(atol, 2.0**-11 * scale * np.size(reduced))  # pairwise in float32 along a contiguous
        nan = np.isnan(e) | np.isnan(a)  # one); Cuvil accumulates in float32 and rounds once: more exact
        inf = np.isinf(e) | np.isinf(a)
        overflowed = np.zeros(np.shape(e), bool)  # NumPy's float16 step overflowed to inf; the exact sum did not
        if reduced is not None and e.dtype == np.float16 and float(np.nansum(np.abs(
                np.asarray(reduced, np.float64)))) > 65504:
            overflowed = np.isinf(e) & np.isfinite(a)
        with np.errstate(all="ignore"):
            scale = np.maximum(np.abs(e.astype(np.float64)), np.where(np.isfinite(magnitude), magnitude, 0.0))
            close = np.abs(e.astype(np.float64) - a.astype(np.float64)) <= atol + rtol * scale
        bad = np.where(nan, np.isnan(e) != np.isnan(a), np.where(inf, e != a, ~close)) & ~overflowed
    if not np.any(bad):
        return []
    where = np.argwhere(np.atleast_1d(bad))[:4]
    pairs = [(tuple(int(i) for i in w), np.atleast_1d(e)[tuple(w)], np.atleast_1d(a)[tuple(w)]) for w in where]
    return [f"{path}: {int(np.sum(bad))} element(s) differ; (index, expected, got): {pairs}"]


def _short(a: Any) -> str:
    if isinstance(a, np.ndarray):
        return f"{a.dtype}{a.shape}=" + np.array2string(a, threshold=12, separator=",", precision=8)
    return f"{type(a).__name__}({a!r})"
