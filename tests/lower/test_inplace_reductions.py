"""An in-place update whose value holds a reduction (`e /= e.sum(axis=1, keepdims=True)`, `e += np.max(e,
axis=0)`): NumPy computes the whole value first, then updates `e`. It failed in Numba's typing (no `keepdims`,
no `axis` on max) with Numba's message; lowered, it must be NumPy's answer — the updated array and the returned
one, their dtype and shape, or NumPy's exception — on first call, guard hit and guard miss, with the value
reading the array it updates and with a second argument that is the same array."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, differences, jitted, outcome

UPDATES = {
    "keepdims": "def keepdims(e):\n    e /= e.sum(axis=1, keepdims=True)\n    return e\n",
    "axis_max": "def axis_max(e):\n    e += np.max(e, axis=0)\n    return e\n",
    "mean_rows": "def mean_rows(e):\n    e -= e.mean(axis=-1, keepdims=True)\n    return e\n",
    "whole": "def whole(e):\n    e *= np.sum(e)\n    return e\n",
    "other": "def other(e, f):\n    e -= f.min(axis=1, keepdims=True) * 2\n    return e\n",
}


WHOLE = st.integers(-1000, 1000).map(float)


def _same_as_numpy(fn, *args):
    """Both the result and every argument afterwards, as NumPy leaves them."""
    mine = tuple(a.copy() for a in args)
    theirs = tuple(a.copy() for a in args)
    if len(args) == 2 and args[0] is args[1]:  # the same array twice
        mine, theirs = (mine[0], mine[0]), (theirs[0], theirs[0])
    expected, got = outcome(fn.py_func, *theirs), outcome(fn, *mine)
    if expected[0] == "raise" or got[0] == "raise":
        assert got == expected
        return
    assert not differences(expected[1], got[1], "result", reduced=theirs[0])
    assert not differences(theirs, mine, "arguments", reduced=theirs[0])


@pytest.mark.parametrize("name", sorted(UPDATES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_update_with_a_reduction_is_numpys(name, dtype, data):
    fn = jitted(UPDATES[name])
    for rows, cols in ((3, 4), (3, 4), (data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6)))):
        # whole numbers: the sums are exact in float32 too, so NumPy's float32 rounding of a cancelling sum (which
        # `e *= np.sum(e)` then multiplies by e) cannot stand for a semantic difference
        e = data.draw(arrays(dtype, (rows, cols), values=WHOLE))
        if name == "other":
            f = data.draw(arrays(dtype, (rows, data.draw(st.integers(1, 5))), values=WHOLE))
            _same_as_numpy(fn, e, f)
            _same_as_numpy(fn, e, e)  # the value reads the array being updated, through another name
        else:
            _same_as_numpy(fn, e)


@pytest.mark.parametrize(("source", "dtype"), [
    (UPDATES["keepdims"], "int64"),  # with a reduction: was Numba's "no keepdims"
    ("def halve(e):\n    e /= 2.0\n    return e\n", "int32"),  # without: was an AttributeError in Numba's typing
    ("def bump(e):\n    e += 1\n    return e\n", "bool"),
    ("def out(e):\n    np.add(e, 1.5, out=e)\n    return e\n", "int64"),  # was Numba's "can't resolve ufunc"
    ("def out_row(e):\n    np.divide(e[0], 2, e[0])\n    return e\n", "int16"),
])
def test_a_value_that_does_not_cast_into_the_array_raises_numpys_type_error(source, dtype):
    """NumPy raises its UFuncTypeError (a TypeError) with this message; Cuvil a TypeError with the same words,
    and leaves the array as NumPy does (untouched)."""
    fn = jitted(source)
    for shape in ((2, 3), (2, 3), (4, 1)):
        e = np.arange(np.prod(shape)).reshape(shape).astype(dtype)
        with pytest.raises(TypeError) as numpy_error:
            fn.py_func(e.copy())
        with pytest.raises(TypeError) as cuvil_error:
            fn(e)
        assert str(cuvil_error.value) == str(numpy_error.value)
        assert e.tolist() == np.arange(np.prod(shape)).reshape(shape).astype(dtype).tolist()


def test_shapes_that_do_not_broadcast_raise_numpys_error_when_it_runs():
    fn = jitted("def rows(e):\n    e += e.sum(axis=1)\n    return e\n")
    for shape in ((20, 30), (30, 30), (20, 30)):  # dims past the static limit: known only when it runs
        _same_as_numpy(fn, np.ones(shape))


TARGETS = ["bool", "int8", "uint8", "int32", "int64", "float32", "float64"]
VALUES = {"1": None, "1.5": None, "v": "array"}  # a Python int, a Python float, an array of some dtype


@settings(max_examples=25, deadline=None)
@given(target=st.sampled_from(TARGETS), op=st.sampled_from(["+=", "-=", "*=", "/="]),
       value=st.sampled_from(sorted(VALUES)), value_dtype=st.sampled_from(TARGETS))
def test_in_place_casting_is_numpys_for_every_dtype_pair(target, op, value, value_dtype):
    """The class of `int_array /= 2.0`: whether NumPy stores the value ('same_kind') or raises its TypeError
    (subtracting bools raises for another reason, with NumPy's words too), over targets, operators and values;
    first call, guard hit, guard miss."""
    fn = jitted(f"def update(e, v):\n    e {op} {value}\n    return e\n")
    for n in (3, 3, 5):
        e = (np.arange(n) % 3).astype(target)
        v = (np.arange(n) % 2 + 1).astype(value_dtype)
        with np.errstate(all="ignore"):
            expected = outcome(fn.py_func, e, v)
        got = outcome(fn, e, v)
        if expected[0] == "raise":
            assert got[0] == "raise" and issubclass(got[1][0], TypeError) and issubclass(expected[1][0], TypeError)
            assert got[1][1] == expected[1][1]
        else:
            assert got[0] == "value" and not differences(expected[1], got[1], "result")
