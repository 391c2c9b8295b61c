"""Library calls whose arguments NumPy refuses and Numba's library does not (lower/library_raises.py's
argument checks): `np.random.normal` and `exponential` with a negative scale drew a number, `np.arange` with a
zero step raised ValueError('Maximum allowed size exceeded'); and a module-level array written in a compiled
function failed in Numba's words (runtime/diagnose.py). Each against Python: exception type and message, or
equal results; first call, guard hit, guard miss (another argument type)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

RANDOM = define("""
    def draw(m, s):
        x = np.random.normal(m, s)
        y = np.random.exponential(scale=s)
        return 1.0 if x == x and y == y else 0.0
    """, env={"np": np})
ARANGE = define("""
    def span(a, b, s):
        return np.arange(a, b, s)
    """, env={"np": np})
JITTED = {fn: cuvil.jit(fn) for fn in (RANDOM, ARANGE)}


def _outcome(fn, *args):
    try:
        result = fn(*args)
    except Exception as exc:  # noqa: BLE001 (compared with the other side's)
        return "raise", type(exc).__name__, str(exc).splitlines()[0].split(": ", 1)[-1]
    if isinstance(result, np.ndarray):
        return "ok", result.dtype, result.tolist()
    return "ok", result


@settings(max_examples=25, deadline=None)
@given(m=st.floats(-5, 5), s=st.sampled_from([-1.0, -0.0, 0.0, 2.5, -1e-300]) | st.floats(-3, 3))
def test_a_negative_scale_is_numpys_valueerror(m, s):
    fn = RANDOM
    for args in ((m, s), (m, s), (int(m), s)):  # first call, guard hit, guard miss (an int loc)
        assert _outcome(JITTED[fn], *args) == _outcome(fn, *args)


@settings(max_examples=40, deadline=None)
@given(a=st.integers(-5, 5), b=st.integers(-5, 9), s=st.sampled_from([0, 0, 1, -1, 2, 3]), floats=st.booleans())
def test_a_zero_step_is_numpys_zerodivisionerror(a, b, s, floats):
    kinds = (float, float, float) if floats else (int, int, int)
    for args in ((a, b, s), (a, b, s), tuple(k(v) for k, v in zip(kinds, (a, b, s)))):  # first, hit, miss
        assert _outcome(JITTED[ARANGE], *args) == _outcome(ARANGE, *args)


TABLE = np.zeros(4)


def test_writing_a_module_array_says_why_at_its_line():
    fn = define("""
        def put(i):
            TABLE[i] = 1.0
            return TABLE.sum()
        """, env={"TABLE": TABLE})
    with pytest.raises(cuvil.CuvilTypeError, match="writes a module-level array, which compiled code holds as a "
                                                   "read-only constant") as info:
        cuvil.jit(fn)(1)
    assert info.value.lineno == 2 and "Cannot modify readonly" not in str(info.value)
