"""Integer division at the edges NumPy defines and Numba does not: INT_MIN // -1 is INT_MIN (wrapped), and
`np.divmod` is the pair (floor_divide, remainder). Numba gave 0 for the int64 quotient and, in its own
np.divmod, executed the x86 division that traps on INT_MIN / -1 (SIGFPE: the interpreter died) for int8 and
int64 scalars and arrays. Found by a scan of NumPy calls against NumPy; every dtype, scalars and arrays, the
quotient's and the divisor's special values drawn often, first call / guard hit / guard miss."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuvil import CuvilTypeError
from tests.lower.compare import assert_like_numpy, jitted

FORMS = {
    "divmod": "def f(a, b):\n    return np.divmod(a, b)\n",
    "floordiv": "def f(a, b):\n    return a // b\n",
    "floor_divide": "def f(a, b):\n    return np.floor_divide(a, b)\n",
    "remainder": "def f(a, b):\n    return a % b, np.remainder(a, b)\n",
    "unpacked": "def f(a, b):\n    q, r = np.divmod(a, b)\n    return q * b + r, q\n",
    "in_place": "def f(a, b):\n    c = a.copy()\n    c //= b\n    return c\n",
}
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint64")


@st.composite
def operands(draw, dtype: str, array: bool):
    info = np.iinfo(dtype)
    special = [int(info.min), int(info.max), 0, 1] + ([-1] if info.min < 0 else [])
    value = st.sampled_from(special) | st.integers(int(info.min), int(info.max))
    if not array:
        return np.dtype(dtype).type(draw(value)), np.dtype(dtype).type(draw(value))
    size = draw(st.integers(1, 4))
    a = np.array([draw(value) for _ in range(size)], dtype)
    b = np.array([draw(value) for _ in range(size)], dtype)
    return a, (b if draw(st.booleans()) else b[0])  # an array or a NumPy scalar divisor


@pytest.mark.parametrize("form", list(FORMS))
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_division_edges_as_numpy(form, data):
    f = jitted(FORMS[form])
    array = form == "in_place" or data.draw(st.booleans())
    first = data.draw(st.sampled_from(INTS))
    other = data.draw(st.sampled_from(INTS))
    for dtype in (first, first, other):  # first call, guard hit, guard miss (another dtype)
        a, b = data.draw(operands(dtype, array))
        assert_like_numpy(f, a, b)


def test_int_min_by_minus_one_each_width():
    """The exact case, every signed width, scalar and array: NumPy's wrapped INT_MIN and remainder 0."""
    f = jitted(FORMS["divmod"])
    for dtype in ("int8", "int16", "int32", "int64"):
        low = np.iinfo(dtype).min
        for a, b in ((np.dtype(dtype).type(low), np.dtype(dtype).type(-1)),
                     (np.array([low, 7], dtype), np.dtype(dtype).type(-1)),
                     (np.array([low, low], dtype), np.array([-1, 1], dtype))):
            assert_like_numpy(f, a, b)


def test_divmod_of_a_call_is_refused_at_its_line():
    f = jitted("def f(a, b):\n    x = 1\n    return np.divmod(np.abs(a), b)\n")
    with pytest.raises(CuvilTypeError, match="np.divmod with an `out`, keywords or an operand that calls") as info:
        f(np.arange(3), 2)
    assert info.value.lineno == 3
