"""`math` calls on numbers as CPython makes them (issue 10 §3, issue 36): its arguments converted as CPython
converts them — to a double for a function of reals (Numba's math of a float32 stays float32, of a bool is
refused or goes astray), to an int for a function of integers (a float is CPython's TypeError) — and where
CPython's errors or answers are not Numba's, runtime/pymath.py's helper instead of Numba's `math.<name>`:

    math.sqrt(x)             →  sqrt(x)                       # ValueError: math domain error (DOMAINS)
    math.sin(np.float32(v))  →  sin(np.float64(v))            # CPython computes in double
    math.atan2(True, 2)      →  math.atan2(np.float64(True), np.float64(2))
    math.fmod(x, y)          →  fmod(x, y)                    # MATH_RAISES: raised at the user's line
    math.log(x, b)           →  log_base(x, b)
    math.gcd(a, b, c)        →  gcd((a, b, c))                # any number of ints, as one tuple
    math.gcd()               →  0
    math.perm(n)             →  factorial(n)                  # CPython's perm(n), in its words
    math.ldexp(x, k)         →  ldexp(x, k)                   # any int64 exponent (Numba truncated it to 32 bits)
    math.ulp(x), frexp(x)    →  ulp(x), frexp(x)              # Numba has no ulp; its frexp's exponent is an int32
    math.hypot(x, y, z)      →  hypot((x, y, z))              # Numba's hypot takes two
    math.hypot(x)            →  math.fabs(x)
    math.floor(2**53 + 1)    →  2**53 + 1                     # an int is its own floor (Numba: through a float)
    math.floor(np.int64(k))  →  math.floor(np.float64(k))     # a NumPy int goes through a float, as in CPython
    math.gcd(2.5, 1)         →  numpy_refuses(2.5, "'float' object cannot be interpreted as an integer")
    math.ldexp(x, 2.0)       →  numpy_refuses(2.0, "Expected an int as second argument to ldexp.")
    math.sin(1j)             →  numpy_refuses(1j, "must be real number, not complex")

A float's floor, ceil and trunc are int()'s conversion with its errors (lower/overflow.py). A call with keyword
arguments (`isclose(a, b, rel_tol=…)`), of something other than numbers (`fsum(values)`), or of an arity this
does not know is left to Numba's `math` and runtime/mathlib.py's overloads (which give the same answers, without
the line) or refused by them.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Scalar, Type
from ..library.numpy import DOMAINS

PYMATH, PYINT, ELEMENTWISE = "cuvil.runtime.pymath", "cuvil.runtime.pyint", "cuvil.runtime.elementwise"
_INTEGERS = {"gcd": (0, None), "lcm": (0, None), "factorial": (1, 1), "comb": (2, 2), "perm": (1, 2),
             "isqrt": (1, 1)}  # functions of ints, and how many they take
_ROUNDINGS = frozenset({"floor", "ceil", "trunc"})
_OWN = {"ulp": 1, "frexp": 1, "fmod": 2, "remainder": 2}  # runtime/pymath.py's others, by arity
_LDEXP_INT = "Expected an int as second argument to ldexp."
_PYTHON_INT, _PYTHON_COMPLEX = Scalar("int64", True), Scalar("complex128", True)

Intrinsic = Callable[[str, str], str]
Cast = Callable[[cst.BaseExpression, str], cst.BaseExpression]


def math_call(original: cst.Call, updated: cst.Call, name: str, types: Types, intrinsic: Intrinsic,
              cast: Cast) -> cst.BaseExpression | None:
    """`math.<name>(…)` as CPython computes it (see the module doc), or None to leave the call as it is."""
    short = name[len("math."):]
    if any(a.keyword is not None or a.star for a in updated.args):
        return None
    kinds = [types.of(a.value) for a in original.args]
    if not all(isinstance(k, Scalar) and (np.dtype(k.dtype).kind in "biuf" or k == _PYTHON_COMPLEX) for k in kinds):
        return None  # (CPython takes a NumPy complex's real part, with a warning: Numba's refusal stands)
    scalars: list[Scalar] = kinds  # type: ignore[assignment]
    args = [a.value for a in updated.args]

    def helper(module: str, function: str, *operands: cst.BaseExpression) -> cst.Call:
        return cst.Call(cst.Name(intrinsic(module, function)), [cst.Arg(o) for o in operands])

    def refuses(operand: cst.BaseExpression, message: str) -> cst.Call:  # CPython's TypeError, when it runs
        return helper(ELEMENTWISE, "numpy_refuses", operand, cst.SimpleString(repr(message)))

    def real(arg: cst.BaseExpression, kind: Scalar) -> cst.BaseExpression:
        return arg if kind.dtype == "float64" else cast(arg, "float64")

    def integer(arg: cst.BaseExpression, kind: Scalar) -> cst.BaseExpression:  # an int64 (a uint64 beyond
        if kind.dtype == "uint64":  # int64: to_int's OverflowError)
            return helper(PYINT, "to_int", arg)
        return arg if kind.dtype == "int64" else cast(arg, "int64")

    complex_ = [a for a, k in zip(args, scalars) if k == _PYTHON_COMPLEX]
    if complex_ and short not in _INTEGERS:  # CPython's TypeError (ldexp's for a complex exponent: below)
        if short == "trunc":
            return refuses(complex_[0], "type complex doesn't define __trunc__ method")
        if not (short == "ldexp" and len(args) == 2 and scalars[0] != _PYTHON_COMPLEX):
            return refuses(complex_[0], "must be real number, not complex")
    if short in _INTEGERS:
        low, high = _INTEGERS[short]
        if len(args) < low or (high is not None and len(args) > high):
            return None
        for arg, kind in zip(args, scalars):
            if kind.dtype.startswith(("float", "complex")):
                return refuses(arg, f"'{_named(kind)}' object cannot be interpreted as an integer")
        ints = [integer(arg, kind) for arg, kind in zip(args, scalars)]
        if short in ("gcd", "lcm"):
            if not ints:
                return cst.Integer("0" if short == "gcd" else "1")
            return helper(PYMATH, short, cst.Tuple([cst.Element(i) for i in ints]))
        return helper(PYMATH, "factorial" if short == "perm" and len(ints) == 1 else short, *ints)  # CPython's
    if short in _ROUNDINGS and len(args) == 1:
        kind = scalars[0]
        if kind == _PYTHON_INT:
            return args[0]
        if kind.weak and kind.dtype == "bool":  # a Python int (to_int: int()'s, for a bool np.int64(b))
            return helper(PYINT, "to_int", args[0])
        if np.dtype(kind.dtype).kind in "iub" and short != "trunc":  # np.int64.__floor__ is float's
            return updated.with_changes(args=[cst.Arg(cast(args[0], "float64"))])
        return None  # a float: int()'s conversion (lower/overflow.py); trunc of a NumPy int: builtin_calls.py
    if short == "ldexp" and len(args) == 2:
        exponent = scalars[1]
        if not exponent.weak or exponent.dtype not in ("int64", "bool"):  # CPython takes a Python int only
            return refuses(args[1], _LDEXP_INT)
        return helper(PYMATH, "ldexp", real(args[0], scalars[0]), integer(args[1], exponent))
    reals = [real(a, k) for a, k in zip(args, scalars)]
    if short == "log" and len(args) == 2:
        return helper(PYMATH, "log_base", *reals)
    if short == "hypot" and len(args) != 2:  # Numba's takes two; CPython's hypot() is 0.0, hypot(x) is |x|
        if len(args) > 2:
            return helper(PYMATH, "hypot", cst.Tuple([cst.Element(r) for r in reals]))
        return cst.Float("0.0") if not args else updated.with_changes(
            func=cst.Attribute(cst.Name(intrinsic("math", "")), cst.Name("fabs")), args=[cst.Arg(reals[0])])
    if (short in DOMAINS and len(args) == 1) or _OWN.get(short) == len(args):
        return helper(PYMATH, short, *reals)
    return updated.with_changes(args=[cst.Arg(r) for r in reals])


def _named(kind: Type) -> str:
    """The name CPython's TypeError gives the type of a value of this kind: `float`, `numpy.float64`."""
    assert isinstance(kind, Scalar)
    if kind.weak:
        return {"float64": "float", "int64": "int", "bool": "bool", "complex128": "complex"}.get(kind.dtype, kind.dtype)
    return f"numpy.{kind.dtype}"
