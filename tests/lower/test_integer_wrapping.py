"""NumPy's integer arithmetic wraps on overflow; compiled code gives the wrapped values, whatever the optimiser
knows. Numba marked signed `+`, `-`, `*` `nsw` and LLVM folded what wraps: `x + 1 > x` was True at 2**63 - 1,
`(x * 2) // 2` was `x` and `x + (-2**63)` left negative elements unchanged (runtime/wrapping.py).

Each expression is written whole-array and as an element loop (serial and `parallel=True`), called as a first
call, a guard hit and a guard miss (a new length), with values drawn at the dtype's ends.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import arrays, assert_like_numpy, jitted

EXPRESSIONS = ("x + 1 > x", "x - 1 < x", "(x * 2) // 2", "x + (-9223372036854775808)", "(x + c) - c > x - 1",
               "x * 3 // 3 == x", "-x < 0")
DTYPES = ("int64", "int32", "int8", "uint64")


def whole(expression: str) -> str:
    return f"def f(x, c):\n    return {expression}\n"


def loop(expression: str) -> str:
    element = expression.replace("x", "x[i]")
    dtype = "np.bool_" if any(op in expression for op in ("<", ">", "==")) else "x.dtype"
    return (f"def f(x, c):\n    out = np.empty(x.shape, {dtype})\n"
            f"    for i in range(x.shape[0]):\n        out[i] = {element}\n    return out\n")


def near_ends(dtype: str) -> st.SearchStrategy[int]:
    info = np.iinfo(dtype)
    return st.integers(int(info.max) - 2, int(info.max)) | st.integers(int(info.min), int(info.min) + 2) \
        | st.integers(-3, 3).filter(lambda v: int(info.min) <= v)


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("spelling", [whole, loop])
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_integer_overflow_wraps_as_numpy(expression: str, spelling, parallel: bool) -> None:
    fn = jitted(spelling(expression), parallel=parallel)
    big = np.array([2**63 - 1, -(2**63), -1, 0, 1, 2**62], np.int64)
    for x in (big, big[::-1].copy(), big[:4].copy()):  # first call, guard hit, guard miss (length)
        assert_like_numpy(fn, x, 7)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(DTYPES), expression=st.sampled_from(EXPRESSIONS),
       spelling=st.sampled_from([whole, loop]), n=st.integers(1, 5))
def test_integers_at_the_ends_of_every_dtype(data, dtype: str, expression: str, spelling, n: int) -> None:
    if dtype != "int64" and "9223372036854775808" in expression:
        return  # a Python int the dtype cannot hold: NumPy's OverflowError, the business of test_big_python_ints
    x = data.draw(arrays(dtype, (n,), values=near_ends(dtype)))
    c = data.draw(near_ends(dtype))
    assert_like_numpy(jitted(spelling(expression)), x, np.dtype(dtype).type(c))


@pytest.mark.parametrize("expression", ["n + 1 > n", "n * 2 // 2", "-n - 2 < 0", "(n + n) - n > 0", "n * n"])
def test_python_ints_under_overflow_wrap_wrap(expression: str) -> None:
    """overflow="wrap": Python ints wrap at 64 bits as NumPy's int64 does (docs/semantics.md), not as Numba's
    `nsw` lets LLVM assume; NumPy's int64 scalars are the meaning."""
    fn = jitted(f"def f(n):\n    m = n\n    for _ in range(2):\n        m = m + 0\n"
                f"    return {expression.replace('n', 'm')}\n", overflow="wrap")
    for n in (2**63 - 1, 2**62 + 3, 5):  # first call, guard hit, guard hit
        with np.errstate(over="ignore"):
            expected = eval(expression, {"n": np.int64(n)})  # noqa: S307 (the test's own expressions)
        assert fn(n) == expected, (expression, n)
