"""np.copyto(dst, src) compiles (Numba has none: runtime/copies.py) and does what NumPy does: the 'same_kind'
casting rule with NumPy's TypeError word for word, a Python int taken by value (300 into int8 is NumPy's
OverflowError, an np.int64(300) wraps), broadcasting with NumPy's ValueError, and `src` read before `dst` is
written where the two overlap. Each case is a first call, a guard hit and a guard miss (a new length)."""

from __future__ import annotations

import traceback
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.lower.compare import DTYPES, arrays, assert_like_numpy, elements, jitted

COPY = "def f(dst, src):\n    np.copyto(dst, src)\n    return dst\n"
FULL = tuple(d for d in DTYPES if d != "float16")  # a half array is refused in a library call: the last test
SHAPES = ((3,), (2, 3), (1, 3), (4,), (2, 1), (), (1, 1, 3), (2, 2, 3))
SCALARS = {"python int": st.integers(-300, 300), "python float": st.floats(-1e3, 1e3), "python bool": st.booleans(),
           "np.int64": st.integers(-300, 300).map(np.int64), "np.float32": st.floats(-1e3, 1e3, width=32).map(
               np.float32)}


def _calls(dst: np.ndarray, src: Any) -> list[tuple[np.ndarray, Any]]:
    """First call, guard hit (same types), guard miss (dst one element longer on its last axis, src alike)."""
    longer = np.zeros((*dst.shape[:-1], dst.shape[-1] + 1), dst.dtype) if dst.ndim else np.zeros(2, dst.dtype)
    grown = np.resize(src, (*src.shape[:-1], src.shape[-1] + 1)) if isinstance(src, np.ndarray) and src.ndim \
        and src.shape[-1] == dst.shape[-1] else src
    return [(dst, src), (dst.copy(), src), (longer, grown)]


@settings(max_examples=80, deadline=None)
@given(data=st.data(), into=st.sampled_from(FULL), given_dtype=st.sampled_from(FULL),
       dst_shape=st.sampled_from(SHAPES[:3]), src_shape=st.sampled_from(SHAPES))
def test_array_into_array_as_numpy(data, into: str, given_dtype: str, dst_shape: tuple[int, ...],
                                   src_shape: tuple[int, ...]) -> None:
    src = data.draw(arrays(given_dtype, src_shape))
    for dst, source in _calls(np.zeros(dst_shape, into), src):
        assert_like_numpy(jitted(COPY), dst, source)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), into=st.sampled_from(FULL), kind=st.sampled_from(sorted(SCALARS)))
def test_number_into_array_as_numpy(data, into: str, kind: str) -> None:
    value = data.draw(SCALARS[kind])
    for dst, source in _calls(np.zeros((2, 3), into), value):
        assert_like_numpy(jitted(COPY), dst, source)


@pytest.mark.parametrize(("source", "shift"), [
    ("def f(x):\n    np.copyto(x[1:], x[:-1])\n    return x\n", "right"),
    ("def f(x):\n    np.copyto(x[:-1], x[1:])\n    return x\n", "left"),
    ("def f(x):\n    np.copyto(x, x[::-1])\n    return x\n", "reversed"),
    ("def f(x):\n    np.copyto(x.T, x)\n    return x\n", "transposed onto itself"),
])
def test_overlapping_source_is_read_first(source: str, shift: str) -> None:
    fn = jitted(source)
    for x in (np.arange(4.0).reshape(2, 2) if "T" in source else np.arange(5.0),) * 2 + (
            np.arange(9.0).reshape(3, 3) if "T" in source else np.arange(7.0),):
        assert_like_numpy(fn, x)


@given(x=arrays("float64", (6,), values=elements("float64", special=False)))
@settings(max_examples=20, deadline=None)
def test_copyto_in_a_row_loop(x: np.ndarray) -> None:
    """The way row code writes it: each row of `out` from a row of `x`, serial and parallel."""
    source = ("def f(out, x):\n    for i in range(out.shape[0]):\n        np.copyto(out[i], x[i] * 2.0)\n"
              "    return out\n")
    for parallel in (False, True):
        fn = jitted(source, parallel=parallel)
        assert_like_numpy(fn, np.zeros((2, 3)), x.reshape(2, 3))


def test_a_half_array_is_refused_naming_np_copyto() -> None:
    with pytest.raises(cuvil.CuvilTypeError, match=r":2: np\.copyto on a float16 array") as caught:
        jitted(COPY)(np.zeros(3, np.float16), np.arange(3))
    assert caught.value.lineno == 2


@pytest.mark.parametrize(("dst", "src", "error"), [
    (np.zeros(3, np.int64), np.arange(3.0), TypeError),  # same_kind
    (np.zeros(3), np.arange(4.0), ValueError),  # does not broadcast
    (np.zeros(3, np.int8), 300, OverflowError),  # a Python int by value
])
def test_errors_are_raised_at_the_users_line(dst, src, error) -> None:
    fn = jitted("def f(dst, src):\n    n = 1\n    np.copyto(dst, src)\n    return n\n")
    with pytest.raises(error) as caught:
        fn(dst, src)
    last = traceback.extract_tb(caught.tb)[-1]
    assert (last.filename, last.lineno) == (fn.py_func.__code__.co_filename, 3)
