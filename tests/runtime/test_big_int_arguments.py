"""An int argument outside int64 is an OverflowError naming it (issue 10 §2): Python would keep it as a big int,
compiled code computes Python ints in 64 bits. Never typed as uint64 ([2**63, 2**64) too), on the first call, a
guard hit of the int variant (Numba's own unboxing fails there) and a guard miss, positional or by keyword;
moved here from test_argument_kinds' refused kinds, which are CuvilTypeErrors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def ident(x):
    return x + 0


def _message(value) -> str:
    return (f"argument 'x' is {value}, outside int64: Python would keep it as a big int, compiled code computes "
            "Python ints in 64 bits; pass it as a float")


@pytest.mark.parametrize("value", [2**63, 10**19, 2**64 - 1, 2**64, 2**200, -(2**63) - 1, -(2**70)])
@pytest.mark.parametrize("mode", ["first", "hit", "miss", "keyword"])
def test_big_int_argument_is_an_overflow_error_naming_it(value, mode):
    fn = cuvil.jit(ident)
    if mode == "hit":
        assert fn(5) == 5
    if mode == "miss":
        assert fn(2.5) == 2.5
    with pytest.raises(OverflowError) as info:
        fn(x=value) if mode == "keyword" else fn(value)
    assert type(info.value) is OverflowError and str(info.value) == _message(value)
    assert info.value.__context__ is None or info.value.__suppress_context__
    assert fn(-(2**63)) == -(2**63) and fn(2**63 - 1) == 2**63 - 1  # the ends of int64 still run
    assert len(fn.compile_events) == (2 if mode == "miss" else 1)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=-(2**80), max_value=2**80))
def test_any_int_argument_runs_or_overflows_by_name(value):
    fn = cuvil.jit(ident)
    if -(2**63) <= value < 2**63:
        assert fn(value) == value and type(fn(value)) is int
    else:
        with pytest.raises(OverflowError, match="argument 'x' is "):
            fn(value)
