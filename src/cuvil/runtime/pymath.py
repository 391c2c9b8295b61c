"""`math` functions with CPython's errors and answers where Numba's differ (issue 10 §3, issue 36):
`math.sqrt(-1)` raises ValueError("math domain error") and `math.exp(1000)` OverflowError("math range error")
where Numba returns nan and inf; `math.ldexp(1.0, 2**40)` overflows where Numba truncated the exponent to 32
bits; `math.gcd(-2**63)` is an int beyond int64, Cuvil's OverflowError, where Numba wrapped.

lower/math_calls.py calls these in place of `math.<name>` on numbers, converted as CPython converts them (a
float argument is a float64, an integer one an int64). Two kinds, by library/numpy.py's tables:
- DOMAINS: a function of one number whose errors are conditions on it, the ones a parallel loop evaluates before
  the call (cfg/raising.py). Its helper tests them, then calls Numba's own `math.<name>`.
- MATH_RAISES: the others. Each is a plain function here computing (value, k), k the index of the error it
  fails with (0: none), compiled for the CPU below and for kernels by runtime/cuda_pymath.py and cuda_checks.py,
  so both targets share one definition: here the k-th error is raised, a kernel records it.
They are not inlined into Numba's IR: a `raise` inlined into a `prange` body stops Numba from parallelizing it,
and in a parallel loop the condition has been tested before the call.
The plain-Python functions are CPython's, for running without Numba.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, objmode, types
from numba.extending import intrinsic, overload

from ..library.numpy import DOMAINS, MATH_RAISES

_ERRORS = {"ValueError": ValueError, "OverflowError": OverflowError, "ZeroDivisionError": ZeroDivisionError}


def _stub(name: str):
    function = getattr(math, name)

    def call(x, at=0):
        return function(x)

    call.__name__ = call.__qualname__ = name
    return call


(sqrt, log, log10, log2, log1p, acos, asin, acosh, atanh, sin, cos, tan, exp, expm1, exp2, cosh, sinh, gamma,
 lgamma) = (_stub(n) for n in ("sqrt", "log", "log10", "log2", "log1p", "acos", "asin", "acosh", "atanh", "sin",
                               "cos", "tan", "exp", "expm1", "exp2", "cosh", "sinh", "gamma", "lgamma"))


def condition(when: str):
    """DOMAINS' `when` as a function of the float64 v (for the CPU helper here and the kernels' twins)."""
    return eval(f"lambda v: {when.format(x='v')}")  # noqa: S307 (our own table's condition)


def never(v):
    return False


def _register(stub):
    function = getattr(math, stub.__name__)
    outcomes = DOMAINS[stub.__name__]
    assert len(outcomes) <= 2, stub.__name__
    first, second = (*(njit(inline="always")(condition(when)) for _, _, when in outcomes), njit(never))[:2]
    (error1, message1), (error2, message2) = [(_ERRORS[e], m) for e, m, _ in outcomes + outcomes[-1:]][:2]

    @overload(stub, jit_options={"nogil": True})
    def typed(x, at=0):
        def impl(x, at=0):
            v = np.float64(x)
            if first(v):
                if at:  # the user's line (lower/located.py), taken off again by runtime/where.py
                    raise error1(message1, at)
                raise error1(message1)
            if second(v):
                if at:
                    raise error2(message2, at)
                raise error2(message2)
            return function(v)

        return impl


for _name in DOMAINS:
    _register(globals()[_name])


# -- MATH_RAISES: (value, k) --------------------------------------------------------------------------------
# Plain functions of float64s and int64s (lower/math_calls.py converts the arguments), compiled by Numba for
# both targets (the simulator runs them as Python).

_INT64_MAX = 9223372036854775807
_c_fmod = np.fmod  # C's fmod; Numba's CPU target has no math.fmod (runtime/mathlib.py's calls these), a
# kernel no np.fmod: runtime/cuda_pymath.py compiles these with math.fmod in its place


def fmod_of(x, y):
    """C's fmod, exact (x itself for a finite x and an infinite y); CPython's ValueError where it is NaN but
    neither operand is (an infinite x, a zero y). Those are decided before the call: the CUDA simulator's
    math.fmod is CPython's, which would raise in the kernel."""
    if (math.isinf(x) or y == 0.0) and x == x and y == y:
        return math.nan, 1
    return _c_fmod(x, y), 0


def remainder_of(x, y):
    """IEEE 754's remainder, x - n*y for the integer n nearest x/y (ties to even), exact; CPython's ValueError
    for an infinite x or a zero y (neither NaN)."""
    if x != x or y != y:
        return x + y, 0
    if math.isinf(x) or y == 0.0:
        return math.nan, 1
    if math.isinf(y):
        return x, 0
    ax, ay = abs(x), abs(y)
    m = _c_fmod(ax, ay)  # ax = n*ay + m, 0 <= m < ay, exactly
    c = ay - m  # compared with m: exact where they are close (above ay/2 by Sterbenz), on the right side else
    if m < c:
        r = m
    elif m > c:
        r = -c
    else:  # half-way: m if n is even, -m if odd; 0.5 * (ax - m) = (n/2)*ay, so its fmod by ay is 0 or m
        r = m - 2.0 * _c_fmod(0.5 * (ax - m), ay)
    return math.copysign(1.0, x) * r, 0


def ldexp_of(x, i):
    """x * 2**i for any int64 i (C's ldexp takes an int: Numba truncated i to 32 bits); zeros, infinities and
    NaN unchanged, as CPython's; OverflowError for a finite result too large, decided from x's exponent (the
    simulator's ldexp, Python's, would raise it itself)."""
    if x == 0.0 or not math.isfinite(x):
        return x, 0
    if i < -2200:  # below half the smallest subnormal, whatever x
        return math.copysign(0.0, x), 0
    e = math.frexp(x)[1]  # |x| < 2**e: the result is below 2**(e + i), and at least 2**(e + i - 1)
    if i > 2100 or e + i > 1024:
        return math.copysign(math.inf, x), 1
    return math.ldexp(x, int(i)), 0


def log_base_of(x, b):
    """math.log(x, b) = log(x) / log(b): x's domain error first, then b's, then the division by log(1) = 0."""
    if x <= 0.0 or b <= 0.0:
        return math.nan, 1
    d = math.log(b)
    if d == 0.0:
        return math.nan, 2
    return math.log(x) / d, 0


# (No helper functions between these: each is compiled alone, for the CPU and for kernels.)

def gcd_of(t):
    """The gcd of a tuple of int64s, from their magnitudes as uint64s (|-2**63| = 2**63: gcd(-2**63, 0) is
    beyond int64)."""
    g = np.uint64(0)
    for v in t:
        m = np.uint64(-(v + 1)) + np.uint64(1) if v < 0 else np.uint64(v)
        while m:
            g, m = m, g % m
    if g > np.uint64(_INT64_MAX):
        return np.int64(0), 1
    return np.int64(g), 0


def lcm_of(t):
    """The lcm of a tuple of int64s: 0 if one is 0 (before any overflow: CPython's lcm(2**62, 3**39, 0) is 0);
    otherwise each step divides the result, so a step beyond int64 means the result is."""
    for v in t:
        if v == 0:
            return np.int64(0), 0
    out = np.uint64(1)
    for v in t:
        m = np.uint64(-(v + 1)) + np.uint64(1) if v < 0 else np.uint64(v)
        a, b = out, m
        while b:
            a, b = b, a % b
        q = out // a
        if q > np.uint64(_INT64_MAX) // m:
            return np.int64(0), 1
        out = q * m
    return np.int64(out), 0


def factorial_of(n):
    if n < 0:
        return np.int64(0), 1
    if n > 20:
        return np.int64(0), 2
    out = np.int64(1)
    for k in range(2, n + 1):
        out *= k
    return out, 0


def perm_of(n, k):
    """n! / (n - k)!."""
    if n < 0:
        return np.int64(0), 1
    if k < 0:
        return np.int64(0), 2
    if k > n:
        return np.int64(0), 0
    out = np.int64(1)
    for j in range(k):  # n, n - 1, …, n - k + 1 (counting up to n + 1 would overflow at n = 2**63 - 1)
        m = n - j
        if out > _INT64_MAX // m:
            return np.int64(0), 3
        out *= m
    return out, 0


def comb_of(n, k):
    if n < 0:
        return np.int64(0), 1
    if k < 0:
        return np.int64(0), 2
    if k > n:
        return np.int64(0), 0
    k = min(k, n - k)
    out = np.int64(1)
    for m in range(1, k + 1):  # out becomes C(n - k + m, m) = out * (n - k + m) / m, exactly:
        g, b = out, np.int64(m)  # g = gcd(out, m): out / g and m / g are coprime, so m / g divides (n - k + m)
        while b:
            g, b = b, g % b
        factor = (n - k + m) // (m // g)
        if out // g > _INT64_MAX // factor:
            return np.int64(0), 3
        out = (out // g) * factor
    return out, 0


def isqrt_of(n):
    if n < 0:
        return np.int64(0), 1
    r = np.int64(math.sqrt(n))
    # correct the float estimate, exactly, in integers; compared by division, since (r + 1) * (r + 1)
    # passes 2**63 - 1 for n above 3037000499**2
    while r > 0 and r > n // r:  # r * r > n
        r -= 1
    while r + 1 <= n // (r + 1):  # (r + 1) * (r + 1) <= n
        r += 1
    return r, 0


def ulp_of(x):
    """The gap from |x| to the next float away from zero (to the one below, for the largest float)."""
    if x != x:
        return x
    a = abs(x)
    if math.isinf(a):
        return a
    up = math.nextafter(a, math.inf)
    if math.isinf(up):
        return a - math.nextafter(a, -math.inf)
    return up - a


def frexp_of(x):
    """(m, e) with e a Python int (Numba's is an int32); (x, 0) for zeros, infinities and NaN, as CPython's."""
    if x != x or math.isinf(x) or x == 0.0:
        return x, np.int64(0)
    m, e = math.frexp(x)
    return m, np.int64(e)


def hypot_of(t):
    """The Euclidean norm of a tuple of float64s (math.hypot of three or more), within an ulp of CPython's: an
    infinity wins over NaN, NaN over numbers; the squares, scaled by a power of two to the largest's binade, are
    summed exactly in two doubles (Dekker's product, Knuth's sum), and the root corrected by one Newton step
    on that sum."""
    big, nan = 0.0, False
    for v in t:
        a = abs(v)
        if math.isinf(a):
            return a
        if a != a:
            nan = True
        elif a > big:
            big = a
    if nan:
        return math.nan
    if big == 0.0 or len(t) == 1:
        return big
    pre = 1.0
    if big < 1e-290:  # a subnormal's binade: 2**-e would overflow, so scale up first (exactly)
        pre = 2.0 ** 600
    e = math.frexp(big * pre)[1]
    scale = math.ldexp(1.0, -e)  # the largest scaled is in [0.5, 1)
    hi, lo = 0.0, 0.0
    for v in t:
        x = abs(v) * pre * scale
        c = 134217729.0 * x  # Dekker: x = xh + xl, each half the bits, so x*x = p + q exactly
        xh = c - (c - x)
        xl = x - xh
        p = x * x
        q = ((xh * xh - p) + 2.0 * xh * xl) + xl * xl
        s = hi + p  # Knuth: hi + p = s + err exactly
        z = s - hi
        err = (hi - (s - z)) + (p - z)
        hi, lo = s, lo + err + q
    h = math.sqrt(hi + lo)
    c = 134217729.0 * h  # the residual (hi + lo) - h*h, h*h split exactly as above
    hh = c - (c - h)
    hl = h - hh
    hsq = h * h
    hsq_lo = ((hh * hh - hsq) + 2.0 * hh * hl) + hl * hl
    h += ((hi - hsq) - hsq_lo + lo) / (2.0 * h)
    return h / scale / pre


COMPUTES: dict[str, Callable[..., Any]] = {
    "fmod": fmod_of, "remainder": remainder_of, "ldexp": ldexp_of, "log_base": log_base_of, "gcd": gcd_of,
    "lcm": lcm_of, "factorial": factorial_of, "perm": perm_of, "comb": comb_of, "isqrt": isqrt_of}
"""MATH_RAISES' functions: (value, k)."""
assert set(COMPUTES) == set(MATH_RAISES)


def fmod(x, y, at=0):
    return math.fmod(x, y)


def remainder(x, y, at=0):
    return math.remainder(x, y)


def ldexp(x, i, at=0):
    return math.ldexp(x, i)


def log_base(x, b, at=0):
    return math.log(x, b)


def comb(n, k, at=0):
    return math.comb(n, k)


def perm(n, k, at=0):
    return math.perm(n, k)


def gcd(t, at=0):
    return math.gcd(*t)


def lcm(t, at=0):
    return math.lcm(*t)


def factorial(n, at=0):
    return math.factorial(n)


def isqrt(n, at=0):
    return math.isqrt(n)


def ulp(x):
    return math.ulp(x)


def hypot(t):
    return math.hypot(*t)


def floor_float(x):
    """math.floor of a float, still a float (lower/overflow.py converts it with int()'s checks)."""
    return float(math.floor(x)) if math.isfinite(x) else x


def ceil_float(x):
    return float(math.ceil(x)) if math.isfinite(x) else x


def frexp(x):
    return math.frexp(x)


def _raiser(name: str):
    """An njit function raising MATH_RAISES[name]'s k-th error (k = 1, 2, 3), at the user's line `at`."""
    (e1, m1), (e2, m2), (e3, m3) = [(_ERRORS[e], m) for e, m in (MATH_RAISES[name] * 3)[:3]]

    @njit
    def raise_(k, at):
        if k == 1:
            if at:
                raise e1(m1, at)
            raise e1(m1)
        if k == 2:
            if at:
                raise e2(m2, at)
            raise e2(m2)
        if at:
            raise e3(m3, at)
        raise e3(m3)

    return raise_


def _register_raising(name: str) -> None:
    compute, raise_ = njit(COMPUTES[name]), _raiser(name)
    stub = globals()[name]
    if stub.__code__.co_argcount == 3:  # (x, y, at)
        @overload(stub, jit_options={"nogil": True})
        def typed2(x, y, at=0):
            def impl(x, y, at=0):
                value, k = compute(x, y)
                if k:
                    raise_(k, at)
                return value

            return impl
    else:
        @overload(stub, jit_options={"nogil": True})
        def typed1(x, at=0):
            def impl(x, at=0):
                value, k = compute(x)
                if k:
                    raise_(k, at)
                return value

            return impl


for _name in MATH_RAISES:
    _register_raising(_name)

_ULP, _HYPOT, _FREXP = njit(ulp_of), njit(hypot_of), njit(frexp_of)  # compiled once, not at each typing


@overload(ulp, jit_options={"nogil": True})
def _ulp(x):
    return lambda x: _ULP(x)


@overload(hypot, jit_options={"nogil": True})
def _hypot(t):
    return lambda t: _HYPOT(t)


@overload(floor_float, jit_options={"nogil": True})
def _floor_float(x):
    return lambda x: np.floor(x)


@overload(ceil_float, jit_options={"nogil": True})
def _ceil_float(x):
    return lambda x: np.ceil(x)


@overload(frexp, jit_options={"nogil": True})
def _frexp(x):
    return lambda x: _FREXP(x)


def round_ndigits(x, n):
    """CPython's round(x, n) of a float: the double nearest to x's exact value rounded to n decimals."""
    return round(x, n)


_POW10 = tuple(float(10**k) for k in range(23))  # every one exact in a double


@njit("float64(float64, int64)", cache=True)  # object mode holds the GIL: no nogil
def _python_round(v, n):  # CPython's own, for the scaled values the FMA test below cannot decide
    with objmode(out="float64"):
        out = round(v, n)
    return out


@overload(round_ndigits, jit_options={"nogil": True})
def _round_ndigits(x, n):
    """Numba's round(x, n) scales by 10**n in floating point, so 2.675 (2.67499999...) rounds up to 2.68:
    CPython decides on the exact value. Here the scaled value's rounding error is recovered exactly with an
    FMA, so the half-way test is exact; the result is one correctly rounded division (or product), as
    CPython's conversion of the decimal result is. Beyond 22 digits either way 10**n is not exact: CPython's own
    (object mode, rare), where Numba's gave nan for round(123.0, -400) and kept 5e-324 to 323 digits."""
    if not isinstance(x, types.Float):
        return None
    powers = _POW10

    def impl(x, n):
        v = float(x)
        if not math.isfinite(v) or v == 0.0:
            return v
        if n > 22 or n < -22:  # 10**n is not a double: CPython's (5e-324 to 323 digits is 0.0; an OverflowError)
            return _python_round(v, n)
        s = powers[n] if n >= 0 else powers[-n]
        if n >= 0:
            p = v * s
            err = _fma(v, s, -p)  # v * s == p + err exactly
        else:
            p = v / s
            err = _fma(-p, s, v) / s  # v / s == p + err (the remainder is exact; its quotient's sign is)
        if abs(p) >= 4503599627370496.0:  # 2**52: p is an integer, but p + err need not be one (rare: ask CPython)
            return _python_round(v, n)
        f = math.floor(p)
        d = (p - f - 0.5) + err  # the sign of (exact value - f - 1/2)
        r = f + 1.0 if d > 0.0 or (d == 0.0 and f % 2.0 != 0.0) else f
        out = r / s if n >= 0 else r * s
        return math.copysign(out, v) if out == 0.0 else out

    return impl


@intrinsic
def _fma(typingctx, a, b, c):
    if not all(isinstance(t, types.Float) for t in (a, b, c)):
        return None

    def codegen(context, builder, signature, args):
        d = ir.DoubleType()
        fn = builder.module.declare_intrinsic("llvm.fma", [d], ir.FunctionType(d, [d, d, d]))
        wide = [context.cast(builder, v, t, types.float64) for v, t in zip(args, signature.args)]
        return builder.call(fn, wide)

    return types.float64(a, b, c), codegen


def int_float_cmp(i, f):
    """The sign of i - f for a Python int and a float, exactly (nan when f is nan): CPython's comparison."""
    if f != f:
        return math.nan
    return float((i > f) - (i < f))


_TWO63 = 9.223372036854775808e18


@overload(int_float_cmp, jit_options={"nogil": True})
def _int_float_cmp(i, f):
    def impl(i, f):
        if f != f:
            return math.nan
        if f >= _TWO63:
            return -1.0
        if f < -_TWO63:
            return 1.0
        t = np.int64(f)  # truncated: exact, as |f| < 2**63
        if i != t:
            return 1.0 if i > t else -1.0
        rest = f - float(t)  # f's fraction, exact
        return -1.0 if rest > 0.0 else 1.0 if rest < 0.0 else 0.0

    return impl
