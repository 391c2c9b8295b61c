"""The dispatcher: arguments of each kind, results of the callers' kind, user-facing errors, options."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import cuvil
from cuvil.runtime import dispatcher
from tests.helpers import define

SAXPY = """
    def saxpy(a, x, y, out):
        for i in range(len(x)):
            out[i] = a * x[i] + y[i]
        return out
    """


def test_torch_tensors_go_in_zero_copy_and_come_back_as_tensors():
    fn = cuvil.jit(define(SAXPY))
    x, y = torch.arange(5, dtype=torch.float64), torch.ones(5, dtype=torch.float64)
    out = torch.empty(5, dtype=torch.float64)
    result = fn(2.0, x, y, out)
    assert isinstance(result, torch.Tensor)
    assert torch.equal(out, 2.0 * x + y)  # written through the zero-copy view
    assert result.data_ptr() == out.data_ptr()


def test_tensor_that_requires_grad_is_read_without_copy():
    fn = cuvil.jit(define("""
        def total(x):
            s = 0.0
            for v in x:
                s += v
            return s
        """))
    x = torch.ones(4, requires_grad=True)
    assert fn(x) == 4.0
    same = cuvil.jit(define("""
        def same(x):
            return x[1:]
        """))
    with pytest.warns(cuvil.CuvilWarning, match="require grad"):  # autograd never sees compiled code
        view = same(x)  # a copy would come back at an address of its own
    assert isinstance(view, torch.Tensor) and view.data_ptr() == x.data_ptr() + x.element_size()
    x.data[2] = 5.0  # and a view sees the tensor's later writes
    assert view[1] == 5.0


def test_kwargs_and_defaults():
    fn = cuvil.jit(define("""
        def affine(x, scale=2.0, shift=1.0):
            return x * scale + shift
        """))
    assert fn(3.0) == 7.0
    assert fn(3.0, shift=0.0) == 6.0
    assert fn(x=1.0, scale=3.0) == 4.0


SAXPY_JIT = cuvil.jit(define(SAXPY))


@given(arrays(np.float64, st.integers(0, 30), elements=st.floats(-1e6, 1e6)), st.floats(-10, 10))
def test_numpy_results_equal_python(x, a):
    fn = SAXPY_JIT
    expected = fn.py_func(a, x, x[::-1].copy(), np.empty_like(x))
    np.testing.assert_allclose(fn(a, x, x[::-1].copy(), np.empty_like(x)), expected, rtol=1e-12)


def test_parallel_results_equal_serial():
    fn = define("""
        def pairwise(p, out):
            for i in range(p.shape[0]):
                for j in range(p.shape[0]):
                    d = 0.0
                    for k in range(p.shape[1]):
                        t = p[i, k] - p[j, k]
                        d += t * t
                    out[i, j] = math.sqrt(d)
            return out
        """, env={"math": math})
    p = np.random.default_rng(1).random((50, 3))
    parallel = cuvil.jit(fn, parallel=True)
    assert "numba.prange" in parallel.source()
    np.testing.assert_allclose(parallel(p, np.empty((50, 50))), fn(p, np.empty((50, 50))), rtol=1e-12)


def test_disable_jit_runs_python(monkeypatch):
    monkeypatch.setenv("CUVIL_DISABLE_JIT", "1")
    fn = cuvil.jit(define(SAXPY))
    assert fn.py_func is fn.__wrapped__
    out = fn(2.0, np.ones(2), np.ones(2), np.empty(2))
    assert out.tolist() == [3.0, 3.0]
    assert cuvil.explain(fn).compiles == []


def test_typing_error_points_at_the_users_line_not_numba():
    fn = cuvil.jit(define("""
        def f(a):
            s = 0.0
            s = s + a
            t = s + "x"
            return t
        """))
    with pytest.raises(cuvil.CuvilTypeError) as info:
        fn(1.0)
    err = info.value
    assert (err.filename, err.lineno) == (fn.py_func.__code__.co_filename, 4)
    assert err.text.strip() == 't = s + "x"'
    assert err.__cause__ is None and err.__suppress_context__
    assert "File " not in str(err) and "numba" not in str(err).lower().split("\n")[0]


def test_typing_error_in_a_helper_points_into_the_helper():
    helper = define("""
        def helper(x):
            return x.missing_attribute
        """)
    fn = cuvil.jit(define("""
        def f(a):
            return helper(a) + 1.0
        """, env={"helper": helper}))
    with pytest.raises(cuvil.CuvilTypeError) as info:
        fn(1.0)
    assert (info.value.filename, info.value.lineno) == (helper.__code__.co_filename, 2)


@pytest.mark.parametrize(("arg", "words"), [
    ([1.0, 2.0], "argument 'x' is a list; pass a NumPy array"),
    ("abc", "argument 'x' is a str"),
    (np.array(["a", "b"]), "argument 'x' has dtype <U1"),
    (np.array([1, None], dtype=object), "argument 'x' has dtype object"),
    (np.arange(3, dtype=">f8"), "non-native byte order"),
    (torch.ones(3, device="meta"), "torch tensor on meta"),
    ({"a": 1}, "argument 'x' is a dict"),
])
def test_bad_arguments_are_named(arg, words):
    fn = cuvil.jit(define("""
        def first(x):
            return x[0]
        """))
    with pytest.raises(cuvil.CuvilTypeError) as info:
        fn(arg)
    assert words in str(info.value)
    assert info.value.argument == "x"


def test_python_exceptions_of_the_program_pass_through():
    fn = cuvil.jit(define("""
        def div(a, b):
            return a // b
        """))
    with pytest.raises(ZeroDivisionError):
        fn(1, 0)


def test_int_to_negative_int_power_raises_instead_of_answering_zero():
    fn = cuvil.jit(define("""
        def power(b, e):
            return b ** e
        """))
    assert fn(2, 10) == 1024 and fn(2.0, -1) == 0.5
    with pytest.raises(ValueError, match="negative integer"):
        fn(2, -1)  # Numba alone returns 0 here


def test_explain_records_the_first_compile_with_stage_timings():
    """A compile from nothing is a cache "miss" that times every stage; a second dispatcher over the same function
    finds the module in memory, and once memory is forgotten, on the disk: neither runs the front stages again."""
    fn = cuvil.jit(define(SAXPY.replace("def saxpy(", "def saxpy_explained(")))
    start = time.perf_counter()
    fn(2.0, np.ones(3), np.ones(3), np.empty(3))
    elapsed = time.perf_counter() - start
    fn(2.0, np.ones(3), np.ones(3), np.empty(3))
    events = cuvil.explain(fn).compiles
    assert len(events) == 1
    event = events[0]
    assert (event.cache, event.reason) == ("miss", "first call")
    assert tuple(event.seconds) == ("parse", "normalize", "analyze", "codegen", "backend")
    assert all(s > 0.0 for s in event.seconds.values()) and event.total <= elapsed
    assert event.signature == "(float64, array(float64, 1d, C), array(float64, 1d, C), array(float64, 1d, C))"
    assert "saxpy_explained" in str(cuvil.explain(fn)) and " miss " in str(cuvil.explain(fn))
    again = cuvil.jit(fn.py_func)
    again(2.0, np.ones(3), np.ones(3), np.empty(3))
    dispatcher._memory.clear()  # a new process in effect: only the disk cache knows the module
    third = cuvil.jit(fn.py_func)
    third(2.0, np.ones(3), np.ones(3), np.empty(3))
    for jitted, where in ((again, "memory"), (third, "disk")):
        (hit,) = cuvil.explain(jitted).compiles
        assert hit.cache == where
        assert hit.seconds["parse"] == hit.seconds["normalize"] == hit.seconds["analyze"] == 0.0
        assert hit.seconds["backend"] > 0.0
    assert cuvil.stats()["saxpy_explained"]["compiles"] == 3
    assert cuvil.stats()["saxpy_explained"]["cache_hits"] == 2


def test_source_stages():
    fn = cuvil.jit(define("""
        def f(a):
            for i, x in enumerate(a):
                if 0 < x < 2:
                    return i
            return -1
        """))
    assert "for i in range(len(a)):  # L2" in fn.source("normalized")
    assert "B0 <-" in fn.source("cfg")
    assert "@numba.njit(nogil=True, cache=True)" in fn.source("kernel")
    with pytest.raises(ValueError, match="stage must be one of"):
        fn.source("llvm")


def test_jit_of_a_jitted_function_recompiles_the_python_function():
    fn = cuvil.jit(define(SAXPY))
    again = cuvil.jit(fn, boundscheck=True)
    assert again.py_func is fn.py_func
    with pytest.raises(IndexError):
        again(1.0, np.ones(3), np.ones(2), np.empty(3))


@pytest.mark.parametrize("source", [
    "def power(b):\n    return b ** 0.5\n",
    "def power(b):\n    e = 1.0 / 3.0\n    return b ** e\n",
])
def test_negative_base_to_a_fractional_power_raises_instead_of_nan(source):
    fn = cuvil.jit(define(source))
    assert fn(4.0) == fn.py_func(4.0)
    assert isinstance(fn.py_func(-8.0), complex)  # Python's answer has no float type
    with pytest.raises(ValueError, match="fractional power"):
        fn(-8.0)  # Numba alone returns nan
