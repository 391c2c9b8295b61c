"""Every function of `math` gives CPython's answer or raises CPython's exception, in its words, at the user's
line (issue 36, class 4): a table over `dir(math)` itself, not a list of the functions known to raise.

Each function is called at every arity its signature allows (`gcd()` to `gcd(a, b, c)`, `log(x)` and
`log(x, base)`), on a table of special values crossed over its arguments — both zeros, the infinities, NaN, the
poles (0 and the negative integers, as floats and ints), the edges of each domain and range, subnormals, huge
values, ints up to the ends of int64, bools — as Python numbers and as elements of float64 and int64 arrays
(`math` converts a NumPy scalar as it converts a Python number: docs/semantics.md), on numbers hypothesis draws,
and with a complex in each position.

The same answer is a value of the same type (bool, int, float, a tuple of these), a float bit for bit (NaN
as NaN, the sign of zero), but within TOLERANCES where CPython computes with an algorithm of its own and Cuvil
with the C library's; the same exception is one of the same type with the same message, raised at the user's
line; an int result outside int64 is Cuvil's OverflowError (README, Semantics). A function in REFUSED is refused
when compiling, with a CuvilTypeError at the user's line that names it; so may a call CPython refuses for its
argument types (a TypeError).
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import math
import operator
import traceback
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.errors import CuvilSyntaxError, CuvilTypeError
from tests.helpers import define

NAMES = sorted(n for n in dir(math) if not n.startswith("_") and callable(getattr(math, n)))
SIGNATURELESS = {"hypot": (0, 1, 2, 3), "log": (1, 2)}  # `inspect` has no signature for these
SEQUENCES = frozenset({"fsum", "prod", "dist"})  # of iterables: called with tuples of the numbers
REFUSED = frozenset({"fsum", "prod", "dist"})  # of iterables, which Numba does not implement: refused by name
# How far apart a value may be (ulps of the larger of |value| and `floor`) where the algorithms differ: CPython's
# own (gamma, lgamma: Lanczos; hypot: its vector_norm) against the C library's (hypot of three or more:
# runtime/pymath.hypot_of), and the C library's against Cuvil's vectorizable polynomials (erf, tanh: within
# lower/math.py's BOUNDS of the exact value). lgamma's is absolute near its zeros (1 and 2).
TOLERANCES = {"gamma": (16, 0.0), "lgamma": (16, 1.0), "hypot": (1, 0.0), "erf": (2, 0.0), "tanh": (2, 0.0)}

INF, NAN = math.inf, math.nan
FLOATS = [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.0, -2.0, 3.0, -3.0, 0.1, 1e-20,
          5e-324, -5e-324, 1e-310, 2.2250738585072014e-308, 1e300, -1e300, 1.7976931348623157e308,
          -1.7976931348623157e308, 9.223372036854775808e18, -9.223372036854775808e18, 1e16, -1075.0,
          709.782712893384, 709.7827128933841, 710.4758600739439, 710.475860073944, 1023.9999999999999, 1024.0,
          171.6243769563027, 171.62437695630274, -171.5, -190.5, 2.5599833278516383e305, 2.5599833278516387e305,
          5.56268464626801e-309, 5.562684646268003e-309, -5.562684646268003e-309]
INTS = [0, 1, -1, 2, -2, 3, -3, 20, 21, 35, 67, 2**31, -(2**31) - 1, 2**53 + 1, 2**62, 2**63 - 1, -(2**63)]
BOOLS = [True, False]
SPECIALS = FLOATS + INTS + BOOLS
FEW = [0.0, -0.0, NAN, -INF, 2.5, -3.0, 0, -4, 6, 2**63 - 1, -(2**63), True]  # crossed over three arguments
INT64 = (-(2**63), 2**63 - 1)


def arities(name: str) -> tuple[int, ...]:
    try:
        params = list(inspect.signature(getattr(math, name)).parameters.values())
    except ValueError:
        return SIGNATURELESS[name]
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return (0, 1, 2, 3)
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is p.empty for p in positional)
    return tuple(range(required, len(positional) + 1))


CALLS = [(name, arity) for name in NAMES for arity in arities(name)]


def test_the_table_holds_every_function_of_math():
    assert len(NAMES) >= 55 and {"sin", "gamma", "trunc", "ldexp", "gcd", "fsum"} <= set(NAMES)
    assert set(REFUSED) <= set(NAMES) and set(SIGNATURELESS) <= set(NAMES)


# -- the functions under test ------------------------------------------------------------------------------

_COMPILED: dict[tuple[str, int, str], tuple[Any, Any]] = {}


def compiled(name: str, arity: int, kind: str):
    """(plain, jitted) calling math.<name> on `arity` arguments: Python numbers ("python"), or the first element
    of one array per argument ("element")."""
    key = (name, arity, kind)
    if key not in _COMPILED:
        params = [f"x{k}" for k in range(arity)]
        args = [f"x{k}[0]" if kind == "element" else f"x{k}" for k in range(arity)]
        if name in SEQUENCES:
            args = [f"({a},)" for a in args] if name == "dist" else [f"({', '.join(args)},)"]
        fn = define(f"def f({', '.join(params)}):\n    return math.{name}({', '.join(args)})\n", env={"math": math})
        _COMPILED[key] = (fn, cuvil.jit(fn))
    return _COMPILED[key]


def as_elements(values: tuple) -> tuple:
    """Each number as a one-element array of its kind: float64 for floats, int64 for ints (bools: no arrays)."""
    return tuple(np.array([v], np.float64 if isinstance(v, float) else np.int64) for v in values)


# -- outcomes ---------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Value:
    value: Any


@dataclasses.dataclass(frozen=True)
class Raised:
    kind: type
    message: str | None  # None: Cuvil's own words (an int outside int64)
    line: int | None


@dataclasses.dataclass(frozen=True)
class Refused:
    message: str


def outcome(fn, args: tuple) -> Value | Raised | Refused:
    try:
        return Value(fn(*args))
    except (CuvilTypeError, CuvilSyntaxError) as exc:  # compiling refused the call
        return Refused(str(exc))
    except Exception as exc:  # noqa: BLE001
        last = traceback.extract_tb(exc.__traceback__)[-1]
        return Raised(type(exc), str(exc), last.lineno if last.filename == fn_file(fn) else None)


def fn_file(fn) -> str:
    return getattr(fn, "py_func", fn).__code__.co_filename


def _int(v) -> int | None:
    try:
        return operator.index(v)
    except TypeError:
        return None


def beyond_int64(name: str, args: tuple) -> bool:
    """CPython's answer is an int outside int64, known without computing it (CPython takes ages for
    factorial(2**62) or comb(2**62, 2**61))."""
    ints = [_int(a) for a in args]
    if None in ints or not args:
        return False
    if name == "factorial" or (name == "perm" and len(ints) == 1):
        return ints[0] > 20
    if name in ("perm", "comb") and len(ints) == 2:
        n, k = ints
        if not 0 <= k <= n:
            return False
        return k > 20 if name == "perm" else min(k, n - k) >= 35  # 21! and C(70, 35) are beyond int64 already
    return False


def expected(name: str, fn, args: tuple, called: tuple) -> Value | Raised:
    """CPython's outcome of fn(*called), the call of math.<name> on `args`."""
    if beyond_int64(name, args):
        return Raised(OverflowError, None, 2)
    out = outcome(fn, called)
    assert not isinstance(out, Refused)
    if isinstance(out, Value) and type(out.value) is int and not INT64[0] <= out.value <= INT64[1]:
        return Raised(OverflowError, None, 2)  # an int Cuvil cannot hold: its OverflowError
    return out


def same_value(name: str, want: Any, got: Any) -> bool:
    if type(want) is not type(got):
        return False
    if isinstance(want, tuple):
        return len(want) == len(got) and all(same_value(name, w, g) for w, g in zip(want, got))
    if not isinstance(want, float):
        return want == got
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if want == got:
        return math.copysign(1.0, want) == math.copysign(1.0, got)
    ulps, floor = TOLERANCES.get(name, (0, 0.0))
    return math.isfinite(want) and math.isfinite(got) and abs(want - got) <= ulps * math.ulp(max(abs(want), floor))


def check(name: str, arity: int, kind: str, args: tuple) -> None:
    fn, jitted = compiled(name, arity, kind)
    called = as_elements(args) if kind == "element" else args
    want = expected(name, fn, args, called)
    got = outcome(jitted, called)
    where = f"math.{name}{tuple(called)!r}" if kind == "python" else f"math.{name} of elements {args!r}"
    if isinstance(got, Refused):
        assert name in REFUSED or (isinstance(want, Raised) and want.kind is TypeError), \
            f"{where}: refused ({got.message}) where CPython gives {want}"
        assert got.message.startswith(f"{fn_file(fn)}:2:"), f"{where}: refused without the line: {got.message}"
        assert "Line unknown" not in got.message and "cuvil." not in got.message, f"{where}: {got.message}"
        if name in REFUSED:
            assert f"math.{name}" in got.message, f"{where}: the refusal does not name it: {got.message}"
        return
    if isinstance(want, Raised):
        assert isinstance(got, Raised) and got.kind is want.kind and want.message in (None, got.message), \
            f"{where}: CPython raises {want.kind.__name__}({want.message!r}), Cuvil gives {got}"
        assert got.line == 2, f"{where}: {got.kind.__name__} raised elsewhere than the user's line ({got.line})"
        return
    assert isinstance(got, Value) and same_value(name, want.value, got.value), \
        f"{where}: CPython gives {want.value!r}, Cuvil {got}"


def table(name: str, arity: int) -> list[tuple]:
    if arity == 0:
        return [()]
    if arity == 3 or name in REFUSED:  # a refusal is by type: a few values of each
        return list(itertools.product(FEW, repeat=arity))
    return list(itertools.product(SPECIALS, repeat=arity))


# -- the table --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "arity"), CALLS, ids=[f"{n}-{a}" for n, a in CALLS])
def test_special_values_as_python_numbers(name, arity):
    for args in table(name, arity):
        check(name, arity, "python", args)


@pytest.mark.parametrize(("name", "arity"), [c for c in CALLS if c[1]], ids=[f"{n}-{a}" for n, a in CALLS if a])
def test_special_values_as_array_elements(name, arity):
    for args in table(name, arity):
        if not any(isinstance(a, bool) for a in args):
            check(name, arity, "element", args)


@pytest.mark.parametrize(("name", "arity"), [c for c in CALLS if c[1]], ids=[f"{n}-{a}" for n, a in CALLS if a])
def test_a_complex_argument(name, arity):
    """CPython's TypeError for a Python complex in each position (`must be real number, not complex`, …)."""
    for k in range(arity):
        for z in (1j, 2 + 0j):
            check(name, arity, "python", tuple(z if j == k else 2 for j in range(arity)))


NUMBERS = st.floats() | st.integers(*INT64) | st.integers(-50, 50) | st.sampled_from(SPECIALS)


@pytest.mark.parametrize(("name", "arity"), [c for c in CALLS if c[1]], ids=[f"{n}-{a}" for n, a in CALLS if a])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_drawn_numbers(name, arity, data):
    args = tuple(data.draw(NUMBERS) for _ in range(arity))
    check(name, arity, "python", args)
    if not any(isinstance(a, bool) for a in args):
        check(name, arity, "element", args)
