"""Types the compiler must give, found untested by mutation testing (session 13's sample of the type modules,
`--every 30 --offset 15`): each test fails on the mutant named in it. Every result is compared with NumPy's or
Python's exactly: class, dtype, shape and value; each function is called for a first call, a guard hit and a
guard miss.

- `Rules.update` 12: `s += v` of a NumPy scalar typed without its value (a float32 sum became a Python float);
- `Rules.math` 4: `math.frexp`'s exponent typed as a float;
- `NumpyRules.method` 19, 49, 109: a reduction's positional axis (`a.sum(0)`), `ravel`/`flatten`'s dtype,
  `a.clip(lo, hi)`'s bounds; `NumpyRules.clip` 1: `np.clip`;
- `NumpyRules.reduction` 65: `cumsum`'s dtype; `Scalar.__str__` 16: a Python complex's name;
- `Rules.subscript` 25: a tuple's item by a negative literal (which was not typed at all: a silent wrap-around);
- `unify` 33: a variable of two NumPy scalar types;
- `NumpyRules.matmul` 4, 34: the dtype and rank of `a @ b` (tests/lower/test_matmul_operator_types.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define
from tests.lower.compare import assert_like_numpy, jitted

SOURCES = {
    "float32 sum": ("def f(a, v):\n    s = np.float32(0.0)\n    s += v\n    s += a[0]\n    return s\n",
                    [(np.ones(3, np.float32), 1.5), (np.full(3, 2.0, np.float32), -0.25),
                     (np.ones(3, np.float16), 1.5)]),
    "int8 wraps": ("def f(a, v):\n    t = np.int8(100)\n    t += a[0]\n    return t\n",
                   [(np.array([100], np.int8), 0), (np.array([27], np.int8), 0), (np.array([100], np.int16), 0)]),
    "positional axis": ("def f(a, v):\n    return a.sum(0) * 2, a.max(1) + v\n",
                        [(np.arange(6, dtype=np.int8).reshape(2, 3), 1), (np.ones((2, 3), np.int8), 2),
                         (np.ones((2, 3), np.float32), 1)]),
    "ravel": ("def f(a, v):\n    return a.ravel() + v, a.flatten() * v\n",
              [(np.arange(6, dtype=np.int8).reshape(2, 3), 1), (np.ones((2, 3), np.int8), 3),
               (np.ones((2, 3), np.uint16), 1)]),
    "clip method": ("def f(a, v):\n    return a.clip(0, v)\n",
                    [(np.arange(-3, 3, dtype=np.int8), 2.5), (np.arange(4, dtype=np.int8), 1.5),
                     (np.arange(4, dtype=np.int32), 0.5)]),
    "cumsum": ("def f(a, v):\n    return np.cumsum(a) * v, a.cumprod(), np.cumsum(a, axis=1)\n",
               [(np.arange(1, 7, dtype=np.int8).reshape(2, 3), 2), (np.ones((2, 3), np.int8), 3),
                (np.ones((2, 3), np.float32), 2)]),
    "np.clip": ("def f(a, v):\n    return np.clip(a, 0, v) * 2\n",
                [(np.arange(-3, 3, dtype=np.int8), 2.5), (np.arange(4, dtype=np.int8), 1.5),
                 (np.arange(4, dtype=np.int32), 0.5)]),
}


@pytest.mark.parametrize("name", list(SOURCES))
def test_results_have_numpys_types(name):
    source, calls = SOURCES[name]
    f = jitted(source)
    for args in calls:  # first call, guard hit (other values), guard miss (another dtype)
        assert_like_numpy(f, *args)


def test_frexp_gives_an_int_exponent():
    f = cuvil.jit(define("def f(x):\n    m, e = math.frexp(x)\n    return e + 1, m * 2\n", env={"math": math}))
    for x in (3.5, -0.1, 1e300):  # the same type each time: hits
        got, want = f(x), f.py_func(x)
        assert [type(v) for v in got] == [type(v) for v in want] == [int, float]
        assert got == want


def test_frexp_exponent_arithmetic_is_checked_as_a_python_int():
    """e * 2**62 beyond int64: Python's big int, so OverflowError (a float exponent would not be checked)."""
    f = cuvil.jit(define("def f(x):\n    m, e = math.frexp(x)\n    return e * 2**62\n", env={"math": math}))
    assert f(0.75) == f.py_func(0.75) == 0
    for x in (3.5, 100.0):  # exponents 2 and 7: beyond int64
        with pytest.raises(OverflowError):
            f(x)
        assert f.py_func(x) >= 2**63


def test_clip_with_a_missing_bound_keeps_the_arrays_type():
    f = jitted("def f(a, v):\n    return np.clip(a, None, v) * 2, a.clip(v, None) + 1\n")
    for a, v in ((np.arange(-3, 3, dtype=np.int8), 1), (np.arange(4, dtype=np.int8), 2),
                 (np.arange(4.0, dtype=np.float32), 1.5)):
        assert_like_numpy(f, a, v)


def test_python_numbers_print_by_their_python_names():
    from cuvil.analysis.types import Scalar
    assert [str(Scalar(d, True)) for d in ("int64", "float64", "bool", "complex128")] == \
        ["int", "float", "bool", "complex"]
    assert [str(Scalar(d)) for d in ("int64", "float32", "complex128")] == ["int64", "float32", "complex128"]


@pytest.mark.parametrize("k", [-3, -2, -1, 0, 1, 2])
def test_a_tuple_item_by_a_negative_literal_has_its_type(k):
    """`t[-2]` of a tuple of several types was untyped (only `t[2]` was read), so `t[-2] * 2**62` went
    unchecked and wrapped (0 for Python's 2**64); `Rules.subscript` 25 (the bound of negative indices)."""
    f = cuvil.jit(define(f"def f(n, x):\n    t = (n, x, n * 2)\n    return t[{k}] * 2**62\n"))
    for n in (0, 1, 2):  # 0: fits; 1: fits as a float, not as an int; 2: beyond int64 either way
        want = f.py_func(n, 0.5)
        if isinstance(want, int) and not -2**63 <= want < 2**63:
            with pytest.raises(OverflowError):
                f(n, 0.5)
        else:
            got = f(n, 0.5)
            assert type(got) is type(want) and got == want


def test_a_dtype_name_shadowed_by_a_global_is_the_global():
    """`np.zeros(n, int)` in a module where `int` is `np.int8` is int8 (`_dtype_name` 14: the builtin read)."""
    f = cuvil.jit(define("def f(n):\n    return np.zeros(n, int) + 1, np.ones(n, dtype=float)\n",
                         env={"np": np, "int": np.int8, "float": np.float32}))
    for n in (3, 4, 0):
        assert_like_numpy(f, n)


def test_a_variable_of_two_numpy_scalar_types_has_the_promoted_type():
    """docs/semantics.md's one-type rule: `s` holds an int8 on one path and an int16 on the other, so it is an
    int16 on both (`unify` 33)."""
    f = jitted("def f(a, b, c):\n    if c:\n        s = a[0]\n    else:\n        s = b[0]\n    return s * 2\n")
    a, b = np.array([10], np.int8), np.array([-1000], np.int16)
    for c in (True, False, True):
        got, want = f(a, b, c), f.py_func(a, b, c)
        assert type(got) is np.int16 and got == want


RESHAPES = [(6,), (2, 3), (3, 2), (1, 6), (2, 1, 3), (6, 1)]


@settings(max_examples=12, deadline=None)
@given(before=st.sampled_from(RESHAPES[:3]), after=st.sampled_from(RESHAPES),
       form=st.sampled_from(["a.reshape({t})", "a.reshape({args})", "np.reshape(a, {t})"]),
       dtype=st.sampled_from(["int8", "float32"]))
def test_a_reshape_has_the_rank_it_is_given(before, after, form, dtype):
    """`a.reshape(...)` as a method was typed with the rank of `a` (the view rule came first), so `b[0]` of a
    reshaped 1-d array was typed a scalar and the lowered code was refused: every rank to every rank, the shape
    as a tuple or as arguments, the method and the function; the result indexed and computed with."""
    call = form.format(t=after, args=", ".join(map(str, after)))
    f = jitted(f"def f(a):\n    b = {call}\n    return b[0] * 2, b.ndim\n")
    a = np.arange(6, dtype=dtype).reshape(before)
    assert_like_numpy(f, a)
    assert_like_numpy(f, a[::-1].copy())  # a guard hit
