"""Error measures for runtime/vmath.py, compiled with Numba so that all 2**32 float32 inputs take minutes:
each function's results, NumPy's own and the exact ones for an array of inputs, and the two distances
lower/math.py documents (in representable numbers from NumPy's result; in ulp of the exact result).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from cuvil.lower.math import BOUNDS
from cuvil.runtime import vmath

FUNCTIONS = sorted(BOUNDS)
LONG_DOUBLE_EXACT = np.finfo(np.longdouble).nmant >= 63  # x87 extended: 11 bits beyond float64
_FLT_MAX = float(np.finfo(np.float32).max)
_HUGE = 1e30  # a NaN against a number, or a wrong infinity


def _loop(f):
    @numba.njit(nogil=True)
    def run(x, out):
        for i in range(x.size):
            out[i] = f(x[i])

    return run


_OURS = {key: _loop(getattr(vmath, entry.function)) for key, entry in BOUNDS.items()}


def ours(name: str, x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    _OURS[(name, x.dtype.name)](x, out)
    return out


@numba.njit(nogil=True)
def _exact32(code, x, out):
    """The float64 results for float32 inputs (libm is within 1 ulp of float64: far below float32's)."""
    for i in range(x.size):
        v = np.float64(x[i])
        if code == 0:
            out[i] = math.inf if v > 710.0 else math.exp(v)
        elif code == 1:
            out[i] = np.log(v)
        elif code == 2:
            out[i] = math.tanh(v)
        elif code == 3:
            out[i] = math.erf(v)
        else:
            out[i] = 0.0 if v < -710.0 else 1.0 / (1.0 + math.exp(-v))


_CODE = {"exp": 0, "log": 1, "tanh": 2, "erf": 3, "sigmoid": 4}


def exact(name: str, x: np.ndarray) -> np.ndarray:
    """float64 for float32 inputs; long double for float64 inputs (mpmath for erf)."""
    if x.dtype == np.float32:
        out = np.empty(x.size)
        _exact32(_CODE[name], x, out)
        return out
    with np.errstate(all="ignore"):
        wide = x.astype(np.longdouble)
        if name == "exp":
            return np.exp(wide)
        if name == "log":
            return np.log(wide)
        if name == "tanh":
            return np.tanh(wide)
        if name == "sigmoid":
            return 1 / (1 + np.exp(-wide))
    import mpmath

    with mpmath.workdps(30):
        return np.array([np.longdouble(mpmath.nstr(mpmath.erf(float(v)), 25)) if np.isfinite(v)
                         else np.longdouble(math.erf(v)) for v in x], np.longdouble)


@numba.njit(nogil=True)
def _erf_rounded(x, out):
    for i in range(x.size):
        out[i] = math.erf(np.float64(x[i]))


def numpy_result(name: str, x: np.ndarray) -> np.ndarray:
    """What NumPy answers for the same inputs in the same dtype (CPython's math.erf, rounded, for erf)."""
    one = x.dtype.type(1)
    with np.errstate(all="ignore"):
        if name == "exp":
            return np.exp(x)
        if name == "log":
            return np.log(x)
        if name == "tanh":
            return np.tanh(x)
        if name == "sigmoid":
            return one / (one + np.exp(-x))
    out = np.empty_like(x)
    _erf_rounded(x, out)
    return out


@numba.njit(nogil=True)
def _key32(v):
    """Consecutive integers for consecutive float32s, -0.0 and +0.0 both 0."""
    i = np.int64(np.float32(v).view(np.int32))
    return i if i >= 0 else -(i & 0x7FFFFFFF)


@numba.njit(nogil=True)
def _key64(v):
    i = np.float64(v).view(np.int64)
    return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)


@numba.njit(nogil=True)
def _distance32(a, b):
    """(largest distance in float32s, its index)."""
    worst, at = 0.0, -1
    for i in range(a.size):
        if a[i] != a[i] or b[i] != b[i]:
            d = 0.0 if (a[i] != a[i]) == (b[i] != b[i]) else _HUGE
        else:
            d = float(abs(_key32(a[i]) - _key32(b[i])))
        if d > worst:
            worst, at = d, i
    return worst, at


@numba.njit(nogil=True)
def _distance64(a, b):
    worst, at = 0.0, -1
    for i in range(a.size):
        if a[i] != a[i] or b[i] != b[i]:
            d = 0.0 if (a[i] != a[i]) == (b[i] != b[i]) else _HUGE
        else:
            d = float(abs(_key64(a[i]) - _key64(b[i])))
        if d > worst:
            worst, at = d, i
    return worst, at


def distance(a: np.ndarray, b: np.ndarray) -> tuple[float, int]:
    return _distance32(a, b) if a.dtype == np.float32 else _distance64(a, b)


@numba.njit(nogil=True)
def _ulps32(y, t):
    """(largest |y - t| / ulp32(t), its index); where t rounds to an infinity, or y is one, the distance in
    float32s from t rounded."""
    worst, at = 0.0, -1
    for i in range(y.size):
        a, b = np.float64(y[i]), t[i]
        if a != a or b != b:
            d = 0.0 if (a != a) == (b != b) else _HUGE
        elif math.isinf(a) or abs(b) > _FLT_MAX:
            d = float(abs(_key32(a) - _key32(np.float32(b))))
        else:
            ab = abs(b)
            u = 2.0 ** -149 if ab < 2.0 ** -126 else math.ldexp(1.0, math.frexp(ab)[1] - 24)
            d = abs(a - b) / u
        if d > worst:
            worst, at = d, i
    return worst, at


def ulps(y: np.ndarray, t: np.ndarray) -> tuple[float, int]:
    """The error of y in ulp of the exact t (float64 for float32 y, long double for float64 y)."""
    if y.dtype == np.float32:
        return _ulps32(y, t)
    with np.errstate(all="ignore"):
        t64 = t.astype(np.float64)
        wide = y.astype(np.longdouble)
        nan = np.isnan(wide) | np.isnan(t)
        inf = np.isinf(wide) | np.isinf(t64)
        at = np.abs(t64)
        u = np.where(at < 2.0 ** -1022, 2.0 ** -1074, np.ldexp(1.0, np.frexp(at)[1] - 53)).astype(np.longdouble)
        d = np.where(nan, np.where(np.isnan(wide) & np.isnan(t), 0.0, _HUGE),
                     np.where(inf, 0.0, np.abs(wide - t) / u)).astype(np.float64)
    if inf.any():
        d[inf] = _each64(y[inf], t64[inf])
    i = int(np.argmax(d))
    return float(d[i]), i


@numba.njit(nogil=True)
def _each64(a, b):
    out = np.empty(a.size)
    for i in range(a.size):
        out[i] = float(abs(_key64(a[i]) - _key64(b[i])))
    return out
