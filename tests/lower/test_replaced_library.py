"""NumPy functions Cuvil computes with its own helpers (library/replaced.py) give NumPy's values and dtypes:
np.kron of any two dtypes (Numba's truncated int * float to int64), np.linalg.slogdet and np.linalg.cond of
float32 / complex64 (Numba's returned float64)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.lower.compare import assert_like_numpy, jitted

pytestmark = pytest.mark.filterwarnings("error::cuvil.PerformanceWarning")  # lowered, not Numba's code as written
DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex128"]


def _array(dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    values = np.array([3, -1, 0, 100, 2.5, -7, 1, 2, 9, 4, 5, 6][: int(np.prod(shape))], np.float64)
    return values.reshape(shape).astype(dtype) if dtype != "bool" else (values.reshape(shape) > 0)


@pytest.mark.parametrize(("first", "second"), list(itertools.combinations_with_replacement(DTYPES, 2))[::3])
@pytest.mark.parametrize("shapes", [((2,), (3,)), ((2, 2), (2,)), ((3,), (2, 2)), ((0,), (2,))])
def test_kron_is_numpys(first: str, second: str, shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    fn = jitted("def f(a, b):\n    return np.kron(a, b)\n")
    assert_like_numpy(fn, _array(first, shapes[0]), _array(second, shapes[1]))
    assert_like_numpy(fn, _array(second, shapes[0]), _array(first, shapes[1]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int64"])
@pytest.mark.parametrize("matrix", [[[2.0, 1.0], [1.0, 3.0]], [[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]]])
def test_slogdet_and_cond_in_numpys_dtypes(dtype: str, matrix: list[list[float]]) -> None:
    a = np.array(matrix).astype(dtype)
    assert_like_numpy(jitted("def f(a):\n    return np.linalg.slogdet(a)\n"), a)
    if np.linalg.cond(a) < 1e10:  # a singular matrix's is LAPACK's rounding, not a value to compare
        assert_like_numpy(jitted("def f(a):\n    return np.linalg.cond(a)\n"), a)
