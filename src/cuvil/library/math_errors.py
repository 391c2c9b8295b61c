"""What Cuvil knows about the errors of Python's `math` functions (runtime/pymath.py raises them, cfg/raising.py
tests them before a statement in a parallel loop, runtime/cuda_checks.py records them in kernels)."""

from __future__ import annotations

# CPython's math errors (runtime/pymath.py): per function, the errors it raises, each (exception, message,
# when), with {x} the argument as a float; the conditions of one function are disjoint. The ranges end where
# CPython's libm overflows; 1.8e308 is above every finite float (inf is not below it), and `{x} % 1.0 == 0.0`
# holds for the finite integers (gamma's and lgamma's poles are 0 and the negative integers).
_DOMAIN, _RANGE = ("ValueError", "math domain error"), ("OverflowError", "math range error")
DOMAINS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "sqrt": ((*_DOMAIN, "{x} < 0.0"),),
    **{n: ((*_DOMAIN, "{x} <= 0.0"),) for n in ("log", "log10", "log2")},
    "log1p": ((*_DOMAIN, "{x} <= -1.0"),),
    **{n: ((*_DOMAIN, "{x} < -1.0 or {x} > 1.0"),) for n in ("acos", "asin")},
    "acosh": ((*_DOMAIN, "{x} < 1.0"),),
    "atanh": ((*_DOMAIN, "{x} <= -1.0 or {x} >= 1.0"),),
    **{n: ((*_DOMAIN, "abs({x}) == 1.8e308"),) for n in ("sin", "cos", "tan")},  # the infinities
    **{n: ((*_RANGE, "709.782712893384 < {x} < 1.8e308"),) for n in ("exp", "expm1")},
    "exp2": ((*_RANGE, "1024.0 <= {x} < 1.8e308"),),
    **{n: ((*_RANGE, "710.4758600739439 < abs({x}) < 1.8e308"),) for n in ("cosh", "sinh")},
    "gamma": ((*_DOMAIN, "{x} <= 0.0 and ({x} % 1.0 == 0.0 or {x} == -1.8e308)"),  # a pole, or -inf
              (*_RANGE, "171.6243769563027 < {x} < 1.8e308 or 0.0 < abs({x}) < 5.56268464626801e-309")),
    "lgamma": ((*_DOMAIN, "{x} <= 0.0 and {x} % 1.0 == 0.0"),
               (*_RANGE, "2.5599833278516383e305 < {x} < 1.8e308")),
}

# The other `math` functions whose CPython errors (or answers) Numba's do not give (runtime/pymath.py computes
# each with the index of its error, 1-based, in this order; lower/math_calls.py calls them): what they raise.
# Integers beyond int64 are Cuvil's OverflowError, in words that name the function.
_NEGATIVE = (("ValueError", "n must be a non-negative integer"), ("ValueError", "k must be a non-negative integer"))
MATH_RAISES: dict[str, tuple[tuple[str, str], ...]] = {
    "fmod": (_DOMAIN,), "remainder": (_DOMAIN,), "ldexp": (_RANGE,),
    "log_base": (_DOMAIN, ("ZeroDivisionError", "float division by zero")),  # math.log(x, base)
    "gcd": (("OverflowError", "gcd() does not fit in 64 bits"),),
    "lcm": (("OverflowError", "lcm() does not fit in 64 bits"),),
    "factorial": (("ValueError", "factorial() not defined for negative values"),
                  ("OverflowError", "factorial() of more than 20 does not fit in 64 bits")),
    "comb": (*_NEGATIVE, ("OverflowError", "comb() does not fit in 64 bits")),
    "perm": (*_NEGATIVE, ("OverflowError", "perm() does not fit in 64 bits")),
    "isqrt": (("ValueError", "isqrt() argument must be nonnegative"),),
}


def math_name(helper: str) -> str:
    """The `math` function runtime/pymath.py's helper `helper` stands for, as the user wrote it (for messages)."""
    return "math." + {"log_base": "log"}.get(helper, helper)
