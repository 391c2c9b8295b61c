"""`a @ b` on target="cuda" (runtime/cuda_matmul.py, printed by codegen/launch.py as `_rt.matmul(a, b)` on the
host): equal to NumPy's `@` for 1-D and 2-D operands of any sizes (empty ones too) and mixed dtypes — the same
values, dtype, shape and kind of result (a NumPy scalar for two vectors) — with NumPy's error at the user's
line for mismatched shapes. Values are multiples of 1/4 or integers: every sum is exact in any order."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cuvil
from tests.cuda.backing import Interface
from tests.helpers import define

PRODUCT = define("""
def product(x, y):
    return x @ y
""")
THEN_SCALE = define("""
def then_scale(x, y, k):
    z = x @ y
    for i in range(z.shape[0]):
        z[i] = z[i] * k
    return z
""")
LOOP = define("""
def in_a_loop(x, y, out):
    for i in range(out.shape[0]):
        out[i] = (x @ y)[i]
    return out
""")
DTYPES = [np.float64, np.float32, np.int64, np.int32]
_JITTED: dict = {}


def jitted(fn):
    if fn not in _JITTED:
        _JITTED[fn] = cuvil.jit(fn, target="cuda")
    return _JITTED[fn]


def _values(dtype):
    if np.dtype(dtype).kind == "f":
        return st.integers(-40, 40).map(lambda k: k / 4)
    return st.integers(-50, 50)


@st.composite
def operands(draw):
    n, k, m = (draw(st.integers(0, 5)) for _ in range(3))
    left_1d, right_1d = draw(st.booleans()), draw(st.booleans())
    dtypes = draw(st.sampled_from(DTYPES)), draw(st.sampled_from(DTYPES))
    x = draw(hnp.arrays(dtypes[0], (k,) if left_1d else (n, k), elements=_values(dtypes[0])))
    y = draw(hnp.arrays(dtypes[1], (k,) if right_1d else (k, m), elements=_values(dtypes[1])))
    return x, y


def assert_exactly(expected, actual):
    assert type(actual) is type(expected)
    assert actual.dtype == expected.dtype and np.shape(actual) == np.shape(expected)
    assert np.array_equal(actual, expected)


@settings(max_examples=20, deadline=None, database=None)
@given(args=operands())
def test_a_product_equals_numpys(args):
    x, y = args
    assert_exactly(x @ y, jitted(PRODUCT)(x.copy(), y.copy()))


def test_first_call_guard_hit_and_miss_and_an_aliased_operand():
    fn = cuvil.jit(PRODUCT, target="cuda")
    a = np.arange(12.0).reshape(3, 4) / 4
    b = np.arange(8.0).reshape(4, 2)
    assert_exactly(a @ b, fn(a, b))  # first call
    assert_exactly((a + 1) @ (b - 1), fn(a + 1, b - 1))  # guard hit
    square = np.arange(9, dtype=np.int32).reshape(3, 3)
    assert_exactly(square @ square, fn(square, square))  # guard miss (int32), the same array twice
    assert len(fn.compile_events) == 2
    before = a.copy()
    fn(a, b)
    assert np.array_equal(a, before)  # operands unchanged


def test_the_product_feeds_a_kernel_on_the_device():
    x, y = np.arange(6.0).reshape(2, 3), np.arange(3.0)
    assert_exactly(THEN_SCALE(x, y, 3.0), jitted(THEN_SCALE)(x, y, 3.0))


def test_device_arrays_in_a_device_array_out():
    """A new result of GPU arrays is a numba device array (as for any kernel's new array). A function first
    called with NumPy arrays cannot take GPU arrays yet: test_guard_miss_to_gpu_arrays.py."""
    x, y = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    result = cuvil.jit(PRODUCT, target="cuda")(Interface(x), Interface(y))  # a fresh function: see the file below
    assert hasattr(result, "copy_to_host")
    assert_exactly(x @ y, result.copy_to_host())


@pytest.mark.parametrize(("x", "y"), [(np.ones((2, 3)), np.ones((2, 3))), (np.ones(3), np.ones(4)),
                                      (np.ones((2, 3)), np.ones(2))])
def test_mismatched_shapes_raise_numpys_error_at_the_users_line(x, y):
    """Dims dynamic: the launcher finds it (static ones are refused when compiling, analysis/shapes.py)."""
    with pytest.raises(ValueError) as python:
        PRODUCT(x, y)
    fn = cuvil.jit(PRODUCT, target="cuda", dynamic=True)
    assert_exactly(np.ones((2, 3)) @ np.ones((3, 2)), fn(np.ones((2, 3)), np.ones((3, 2))))
    with pytest.raises(ValueError) as cuda:
        fn(x, y)
    assert str(cuda.value) == str(python.value)
    last = traceback.extract_tb(cuda.value.__traceback__)[-1]
    assert (last.filename, last.lineno) == (PRODUCT.__code__.co_filename, 2)


def test_more_than_two_dims_is_a_cuvil_error():
    with pytest.raises(cuvil.CuvilError, match=r"'@' of arrays with more than 2 dims \(3 and 2\) has no "
                                               r"target='cuda' form"):
        jitted(PRODUCT)(np.ones((2, 2, 3)), np.ones((3, 2)))


def test_a_product_inside_a_loop_is_refused_at_its_line():
    with pytest.raises(cuvil.CuvilSyntaxError) as info:
        cuvil.jit(LOOP, target="cuda")(np.ones((2, 2)), np.ones(2), np.zeros(2))
    assert info.value.lineno == 3 and "'@' (a matrix product) cannot run inside a CUDA kernel" in info.value.msg
