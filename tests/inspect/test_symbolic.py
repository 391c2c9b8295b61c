"""Polynomials over symbolic dims: arithmetic agrees with evaluating, substitution, printing evaluates back."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from cuvil.inspect.symbolic import Poly, symbol_values

SYMBOLS = ("x.shape[0]", "x.shape[1]", "steps")


@st.composite
def polys(draw):
    out = Poly.const(draw(st.integers(-5, 5)))
    for _ in range(draw(st.integers(0, 3))):
        term = Poly.const(draw(st.integers(-4, 4)))
        for s in draw(st.lists(st.sampled_from(SYMBOLS), max_size=3)):
            term = term * Poly.symbol(s)
        out = out + term
    return out


VALUES = st.fixed_dictionaries({s: st.integers(0, 50) for s in SYMBOLS})


@given(polys(), polys(), VALUES)
def test_arithmetic_agrees_with_evaluation(p, q, values):
    assert (p + q).evaluate(values) == p.evaluate(values) + q.evaluate(values)
    assert (p - q).evaluate(values) == p.evaluate(values) - q.evaluate(values)
    assert (p * q).evaluate(values) == p.evaluate(values) * q.evaluate(values)


@given(polys(), polys(), VALUES)
def test_substitution_agrees_with_evaluation(p, q, values):
    inner = int(q.evaluate(values))  # exact (|q| < 2**53): evaluating with integers is exact, rounded once
    assert p.substitute("steps", q).evaluate(values) == p.evaluate({**values, "steps": inner})


class _Shape:
    def __init__(self, shape):
        self.shape = shape


@given(polys(), VALUES)
def test_printed_polynomial_evaluates_to_its_value(p, values):
    x = _Shape((values["x.shape[0]"], values["x.shape[1]"]))
    assert eval(str(p), {}, {"x": x, "steps": values["steps"]}) == p.evaluate(values)  # noqa: S307
    assert symbol_values(p.symbols, {"x": x, "steps": values["steps"]}) == {s: float(values[s]) for s in p.symbols}


def test_constant_and_unevaluable_symbols():
    assert (Poly.const(Fraction(3, 2)) * 2).constant() == 3
    assert Poly.symbol("n").constant() is None
    assert symbol_values({"trips(L3)"}, {}) == {}
