"""Empty and reversed arrays on target="cuda" (issue 11: "reversed_weighted failed on an empty array on a real
H200"). Read from the launch code: that run's kernel called runtime/pyint.add, which had no device twin, so it
failed for every input and hypothesis showed its smallest, an empty array (the next commit kept the int checks
off CUDA for that reason; runtime/cuda_pyint.py is the twin now). Two real hazards for empty and reversed arrays
were on the host side, where numba-cuda differs from the simulator: a view of an empty device array (NULL
memory, "non-empty slice into empty slice") and copying a negative-stride view back ("D->H copy not
implemented for negative strides") — runtime/cuda_arrays.py. On the simulator these tests check the results;
bench/gpu_check.sh runs them on a GPU, where those paths are numba-cuda's."""

import numpy as np
import pytest

import cuvil
from cuvil.runtime import cuda_arrays, cuda_runtime
from tests.cuda import test_kernels
from tests.programs.iteration import reversed_weighted
from tests.programs.test_programs import assert_same


def reversed_view(a):
    return a[::-1]


def doubled_tail(a, out):
    b = a[1:]
    for i in range(len(b)):
        out[i] = b[i] * 2.0
    return out[::-1]


@pytest.mark.parametrize("fn", [reversed_weighted, reversed_view])
def test_empty_then_filled_then_empty_equal_python(fn):
    """First call, guard hit, guard miss (another length), then empty again."""
    g = cuvil.jit(fn, target="cuda")
    for n in (0, 0, 5, 0):
        a = np.arange(float(n))
        assert_same(fn(a.copy()), g(a))


def test_a_host_view_and_a_reversed_result_of_empty_and_filled_arrays():
    g = cuvil.jit(doubled_tail, target="cuda")
    for n in (1, 4, 1):
        a, out = np.arange(float(n)), np.zeros(n - 1)
        expected_out = out.copy()
        assert_same(doubled_tail(a.copy(), expected_out), g(a, out))
        assert_same(expected_out, out)


@pytest.mark.parametrize("name", ["gelu", "total", "largest", "count_positive"])
def test_grid_kernels_and_reductions_of_empty_arrays(name):
    fn = getattr(test_kernels, name)
    x = np.zeros(0)  # float64: an empty float32 sum is Python's 0.0 in Python, a float32 once compiled
    args = (x, np.zeros(0))[: fn.__code__.co_argcount]
    assert_same(fn(*[a.copy() for a in args]), cuvil.jit(fn, target="cuda")(*args))


def test_views_and_copies_of_device_arrays():
    a = cuda_runtime.cuda.to_device(np.arange(12.0).reshape(3, 4))
    reversed_rows = cuda_arrays.view(a, (slice(None, None, -1), slice(1, None, None)))
    assert_same(np.arange(12.0).reshape(3, 4)[::-1, 1:], cuda_arrays.to_host(reversed_rows))
    assert_same(np.arange(12.0).reshape(3, 4)[::-1, 1:], cuda_runtime.copy(reversed_rows).copy_to_host())
    empty = cuda_arrays.view(a, (slice(3, None, None), slice(None, None, -1)))
    assert empty.shape == (0, 4) and empty.dtype == np.float64
    assert_same(np.zeros((0, 4)), cuda_arrays.to_host(empty))
    assert_same(np.zeros((2, 0)), cuda_arrays.to_host(cuda_runtime.empty((2, 0), "float64")))
