"""Boolean masks of two or more dims select, store and update as NumPy's do (lower/masks.py, runtime/masks.py):
elements where the mask is True, in C order, views and transposes too; a mask of another shape is NumPy's
IndexError, a value array of the wrong size its ValueError. Numba failed an assertion on each of these (a
CuvilTypeError "Numba cannot compile this line")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted

pytestmark = pytest.mark.filterwarnings("error::cuvil.PerformanceWarning")  # lowered, not Numba's code as written
FORMS = {
    "read": "def f(a, t):\n    return a[a > t]\n",
    "read then reduce": "def f(a, t):\n    y = a[a > t]\n    return y.sum(), y.size\n",
    "store": "def f(a, t):\n    a[a > t] = 3\n    return a\n",
    "store a number": "def f(a, t):\n    a[a <= t] = t\n    return a\n",
    "update": "def f(a, t):\n    a[a > t] *= 2\n    return a\n",
    "store selected": "def f(a, t):\n    m = a > t\n    a[m] = a[m] - t\n    return a\n",
}
DTYPES = ("float32", "float64", "int8", "uint8", "int64")


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=4, deadline=None)
@given(dtype=st.sampled_from(DTYPES), data=st.data())
def test_masks_are_numpys(form, dtype, data):
    fn = jitted(FORMS[form])
    t = data.draw(st.integers(0, 100), label="t")
    for shape, transposed in (((2, 3), False), ((2, 3), False), ((3, 2, 2), True)):  # first, hit, miss
        a = data.draw(arrays(dtype, shape, special=False))
        with np.errstate(all="ignore"):
            assert_like_numpy(fn, a.T if transposed else a, t)


def test_a_mask_of_another_shape_is_numpys_index_error():
    fn = jitted("def f(a, m):\n    return a[m]\n")
    store = jitted("def f(a, m):\n    a[m] = 0\n    return a\n")
    for m in (np.ones((2, 3), bool), np.ones((2, 3), bool), np.ones((3, 3), bool)):
        assert_like_numpy(fn, np.zeros((3, 2)), m)
        assert_like_numpy(store, np.zeros((3, 2)), m)


def test_values_for_the_selected_elements():
    """One value per selected element, or one for all; any other count is NumPy's ValueError."""
    fn = jitted("def f(a, m, v):\n    a[m] = v\n    return a\n")
    m = np.array([[True, False], [True, True]])
    for v in (np.array([1.0, 2.0, 3.0]), np.array([7.0]), np.array([1.0, 2.0]), np.array([1, 2, 3])):
        assert_like_numpy(fn, np.zeros((2, 2)), m, v)


def test_an_update_numpy_would_not_cast_back_stays_an_error():
    """`int_array[m] += 0.5` is NumPy's casting TypeError; Cuvil leaves it to Numba, which refuses it."""
    fn = jitted("def f(a, m):\n    a[m] += 0.5\n    return a\n")
    with pytest.raises(TypeError):
        fn.py_func(np.zeros((2, 2), np.int64), np.eye(2, dtype=bool))
    with pytest.raises(TypeError):
        fn(np.zeros((2, 2), np.int64), np.eye(2, dtype=bool))


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_a_store_reads_overlapping_masks_and_values_as_they_were(data):
    """`b[b[::-1, ::-1]] = False` and `a[m] = a[0]` read the mask and the values before the store. NumPy's own
    answer here depends on its inner loops (of `a[m] = a[0]` it reads the values as they were for (2, 2), the
    ones it has just stored for (3, 3)), so the oracle is NumPy given copies."""
    mask = jitted("def f(b):\n    b[b[::-1, ::-1]] = False\n    return b\n")
    values = jitted("def f(a, m):\n    a[m] = a[0]\n    return a\n")
    for n in (2, 2, 3):  # first, hit, miss
        b = data.draw(arrays("bool", (n, n)))
        expected = b.copy()
        expected[b[::-1, ::-1].copy()] = False
        assert_equal_exactly(mask(b.copy()), expected)
        a = data.draw(arrays("int64", (n, n)))
        m = np.zeros((n, n), bool)
        m[1:, 0] = m[0, 1] = True  # n elements; the first store changes a[0] before the next is read
        expected = a.copy()
        expected[m] = a[0].copy()
        assert_equal_exactly(values(a.copy(), m), expected)


def assert_equal_exactly(got: np.ndarray, expected: np.ndarray) -> None:
    assert got.dtype == expected.dtype and got.shape == expected.shape and np.array_equal(got, expected)
