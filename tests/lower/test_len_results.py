"""`len()` is a Python int (analysis/type_rules.py `Rules.builtin`): weak beside NumPy values (NEP 50:
`int8_array * len(a)` stays int8) and checked for Python's overflow (`len(a) * 2**62` raises OverflowError,
never wraps). A static dim folds `len(a)` to a literal, so the rule only shows on dynamic dims: a mutant that
left `len` untyped survived every test of the type modules (tests/MUTATION.md)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def lengths(a, t, k):
    n = len(a)
    return a * n, a[0] * len(t), n * k


JITTED = cuvil.jit(lengths, dynamic=True)


def _outcome(fn, *args):
    try:
        return fn(*args)
    except OverflowError:
        return OverflowError


def _python(*args):
    """Python's result, or OverflowError where its int leaves int64 (compiled ints are 64-bit: loud, not wrapped)."""
    result = lengths(*args)
    return result if -(2**63) <= result[2] < 2**63 else OverflowError


def _same(got, expected):
    if expected is OverflowError:
        assert got is OverflowError
        return
    for g, e in zip(got, expected, strict=True):
        if isinstance(e, np.ndarray):
            assert type(g) is np.ndarray and (g.dtype, g.shape) == (e.dtype, e.shape)
            np.testing.assert_array_equal(g, e)
        else:
            assert type(g) is type(e) and g == e, (g, e)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32"])
@settings(max_examples=6, deadline=None)
@given(n=st.integers(1, 40), k=st.sampled_from([0, 3, -7, 2**62, -(2**62)]))
def test_len_is_a_python_int(dtype, n, k):
    a = np.arange(1, n + 1).astype(dtype)
    _same(_outcome(JITTED, a, (1, 2, 3), k), _python(a, (1, 2, 3), k))


def test_first_call_guard_hit_and_miss():
    """Forty and fifty int8 elements share a variant (dims past 16 are dynamic); int16 is a miss."""
    jitted = cuvil.jit(lengths)
    for a in (np.ones(40, np.int8), np.ones(50, np.int8), np.ones(40, np.int16)):
        _same(jitted(a, (1, 2), 5), lengths(a, (1, 2), 5))
    assert len(cuvil.explain(jitted).compiles) == 2
    with pytest.raises(OverflowError, match="int64 overflow"):
        jitted(np.ones(40, np.int8), (1, 2), 2**62)
