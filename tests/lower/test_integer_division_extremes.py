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
    # NumPy scalars rebound, arrays updated in place: Numba's int64 `//=` gave 0, its array `%=` killed the
    # process (SIGFPE), its array `//=` and every `out=` gave 0 for INT_MIN // -1, its integer fmod was C's `%`
    "update": "def f(a, b):\n    t = a * 1\n    t //= b\n    u = a * 1\n    u %= b\n    return t, u\n",
    "out": "def f(a, b):\n    c = a.copy()\n    d = a.copy()\n    np.floor_divide(c, b, out=c)\n"
           "    r = np.remainder(a, b, d)\n    return c, r, np.fmod(a, b, out=a.copy())\n",
    "fmod": "def f(a, b):\n    return np.fmod(a, b), np.fmod(a, b) + 0\n",  # unlowered in a tuple, then lowered
}
ARRAYS_ONLY = frozenset({"in_place", "out"})
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
    array = form in ARRAYS_ONLY or data.draw(st.booleans())
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


VIEWS = {  # views of the target, overlapping operands, elements and NumPy scalars updated in place
    "slice": "def f(a, b):\n    c = a.copy()\n    c[1:] //= b[1:]\n    c[::2] %= b[::2]\n    return c\n",
    "rows": "def f(a, b):\n    c = np.stack((a, a))\n    c[1, :] //= b\n    c[0] %= b\n    return c\n",
    "overlap": "def f(a, b):\n    c = a.copy()\n    c //= c[::-1]\n    d = a.copy()\n"
               "    np.fmod(d, d[::-1], out=d)\n    return c, d\n",
    "element": "def f(a, b):\n    c = a.copy()\n    for i in range(len(c)):\n        c[i] //= b[i]\n"
               "        c[i] %= b[i]\n    return c\n",
    "float_element": "def f(a, b):\n    c = a.astype(np.float64)\n    for i in range(len(c)):\n"
                     "        c[i] /= b[i]\n        c[i] //= b[i]\n    return c\n",
}


@pytest.mark.parametrize("form", list(VIEWS))
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_in_place_division_of_views_elements_and_overlaps_as_numpy(form, data):
    f = jitted(VIEWS[form])
    first = data.draw(st.sampled_from(INTS))
    for dtype in (first, first, data.draw(st.sampled_from(INTS))):  # first call, guard hit, guard miss
        a, b = data.draw(operands(dtype, True))
        b = np.broadcast_to(b, a.shape).copy()
        assert_like_numpy(f, a, b)


def test_no_numpy_int_min_case_is_lost_in_place():
    """The exact cases, every signed width: `//=`, `%=` and `out=` of INT_MIN by -1 (SIGFPE before)."""
    for form in ("in_place", "update", "out", "fmod"):
        f = jitted(FORMS[form])
        for dtype in ("int8", "int16", "int32", "int64"):
            low = np.iinfo(dtype).min
            assert_like_numpy(f, np.array([low, 7, low], dtype), np.array([-1, -1, 3], dtype))
            assert_like_numpy(f, np.array([low], dtype), np.dtype(dtype).type(-1))


def test_no_int_min_case_kills_the_process_through_a_view():
    """`c[0] %= b` of rows of an np.stack (a SIGFPE killed the test process: np.stack was untyped, so the update
    fell to Numba's array `%=`): every view form, every signed width, INT_MIN by -1 and by 0."""
    for form in VIEWS:
        f = jitted(VIEWS[form])
        for dtype in ("int8", "int16", "int32", "int64"):
            low = np.iinfo(dtype).min
            for divisor in (-1, 0):
                assert_like_numpy(f, np.array([low, 7, low], dtype), np.array([divisor, -1, 3], dtype))


PRODUCERS = ["np.roll(a, 1)", "np.repeat(a, 2)", "np.take(a, np.arange(3))", "np.append(a, a)", "np.unique(a)",
             "np.atleast_1d(a)", "np.asfortranarray(a)", "np.triu(np.stack((a, a))).ravel()",
             "np.stack((a, a)).reshape(2, 3)[1]", "a.reshape(3, 1)[:, 0]", "np.stack((a, a))[::-1, ::2].ravel()",
             "a.view(a.dtype)"]


@pytest.mark.parametrize("producer", PRODUCERS)
def test_an_array_of_a_type_the_compiler_cannot_infer_divides_as_numpy(producer):
    """`c %= b` and `c //= b` where `c` comes from a library call the compiler has no type rule for (np.roll,
    np.take, …) or typed wrongly (a reshape's rank was its owner's): Numba's array `%=` killed the process with
    SIGFPE on INT_MIN % -1 and its `//=` gave 0. Every signed width, by -1 and by 0; a float array and a guard
    miss after each."""
    f = jitted(f"def f(a, b):\n    c = {producer}\n    c %= b\n    d = {producer}\n    d //= b\n    return c, d\n")
    for dtype in ("int8", "int16", "int32", "int64"):
        low = np.iinfo(dtype).min
        for divisor in (-1, 0):
            assert_like_numpy(f, np.array([low, 7, low], dtype), np.dtype(dtype).type(divisor))
    assert_like_numpy(f, np.array([-2.5, 7.0, 0.5]), np.float64(-1.5))
