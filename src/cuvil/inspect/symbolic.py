"""Polynomials over the symbolic dims: what the cost model counts FLOPs and bytes in.

A symbol is a Python expression over the function's parameters (`x.shape[0]`, `steps`, `min(a.shape[0],
b.shape[0])`), so a count evaluates on a call's arguments by evaluating each symbol once. Coefficients are
fractions (a triangular loop's mean extent is exact). What is not a polynomial (`n // 2`, a `while` loop's trip
count) is a symbol of its own; one that names no parameter cannot be evaluated, and the count says so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

Monomial = tuple[str, ...]  # sorted symbols, repeated for powers


class Poly:
    __slots__ = ("terms",)

    def __init__(self, terms: Mapping[Monomial, Fraction] | None = None):
        self.terms = {m: c for m, c in (terms or {}).items() if c != 0}

    @classmethod
    def const(cls, value: int | Fraction) -> Poly:
        return cls({(): Fraction(value)})

    @classmethod
    def symbol(cls, name: str) -> Poly:
        return cls({(name,): Fraction(1)})

    def __add__(self, other: Poly | int) -> Poly:
        other = _poly(other)
        out = dict(self.terms)
        for m, c in other.terms.items():
            out[m] = out.get(m, Fraction(0)) + c
        return Poly(out)

    __radd__ = __add__

    def __neg__(self) -> Poly:
        return Poly({m: -c for m, c in self.terms.items()})

    def __sub__(self, other: Poly | int) -> Poly:
        return self + (-_poly(other))

    def __mul__(self, other: Poly | int | Fraction) -> Poly:
        other = _poly(other)
        out: dict[Monomial, Fraction] = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in other.terms.items():
                m = tuple(sorted(m1 + m2))
                out[m] = out.get(m, Fraction(0)) + c1 * c2
        return Poly(out)

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Poly | int) and self.terms == _poly(other).terms

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.terms.items())))

    @property
    def symbols(self) -> set[str]:
        return {s for m in self.terms for s in m}

    def constant(self) -> Fraction | None:
        """The value when no symbol is left, else None."""
        if not self.terms:
            return Fraction(0)
        return self.terms.get(()) if set(self.terms) == {()} else None

    def substitute(self, name: str, value: Poly) -> Poly:
        out = Poly()
        for m, c in self.terms.items():
            term = Poly.const(c)
            for s in m:
                term = term * (value if s == name else Poly.symbol(s))
            out = out + term
        return out

    def evaluate(self, values: Mapping[str, float]) -> float:
        """The value with each symbol's value from `values` (nan where one is missing), computed exactly for
        integer values and rounded once: in floats, a polynomial and its substituted form (the same number)
        could differ in the last bits beyond 2**53."""
        total: Any = 0
        for m, c in self.terms.items():
            total += c * math.prod(values.get(s, math.nan) for s in m)
        return float(total)

    def __str__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for m, c in sorted(self.terms.items(), key=lambda t: (-len(t[0]), t[0])):
            factors = [_power(s, m.count(s)) for s in sorted(set(m))]
            coefficient = "" if c == 1 and factors else "-" if c == -1 and factors else \
                str(c) if c.denominator == 1 else f"({c})"
            parts.append("-" + "*".join(factors) if coefficient == "-" else
                         "*".join([coefficient, *factors] if coefficient else factors))
        return " + ".join(parts).replace("+ -", "- ")

    __repr__ = __str__


def _power(symbol: str, n: int) -> str:
    wrapped = symbol if symbol.replace(".", "").replace("_", "").replace("[", "").replace("]", "").isalnum() \
        else f"({symbol})"
    return wrapped if n == 1 else f"{wrapped}**{n}"


def _poly(value: Poly | int | Fraction) -> Poly:
    return value if isinstance(value, Poly) else Poly.const(value)


def symbol_values(symbols: set[str], params: Mapping[str, Any]) -> dict[str, float]:
    """Each symbol evaluated over the call's arguments; those that cannot be (a loop's trip count) are left out."""
    scope = {"min": min, "max": max, "len": len}
    out = {}
    for s in symbols:
        try:
            out[s] = float(eval(s, scope, dict(params)))  # noqa: S307 (our own text over the user's arguments)
        except Exception:  # noqa: BLE001, S112
            continue
    return out
