"""Kernels on half-precision arrays (issue 12): without a policy each result is NumPy's (or torch eager's) float16
/ bfloat16, bit for bit; with `precision="fp16" | "bf16"` the result is the float32 computation rounded once
at the store. Each is called three times: first call, guard hit, guard miss (another shape)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cuvil
from tests.helpers import define


def bits(a) -> np.ndarray:
    if isinstance(a, torch.Tensor):
        return a.view(torch.int16).numpy().view(np.uint16)
    return np.asarray(a).view(np.uint16)


def to_bf16(values: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(values, np.float32)).to(torch.bfloat16)


def round_bf16(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16 as torch rounds, back as float32."""
    return to_bf16(values).float().numpy()


ENV = {"np": np, "cuvil": cuvil}
HALVES = hnp.arrays(np.float16, st.integers(1, 40), elements=st.floats(-300, 300, width=16))

POLY = """
def poly(x):
    return x * x + 3.0 * x - 1.5
"""

AXPY = """
def axpy(a, x, y):
    for i in range(len(x)):
        y[i] += a * x[i]
    return y
"""

SCALE = """
def scale(x, out):
    for i in range(len(x)):
        out[i] = x[i] * 0.1 + x[i] / 3.0
    return out
"""


@settings(max_examples=25, deadline=None)
@given(HALVES)
def test_numpy_float16_arithmetic_equals_numpy(x):
    fn = cuvil.jit(define(POLY, env=ENV))
    for arg in (x, x[::-1].copy(), np.concatenate([x, x])):  # first call, guard hit, guard miss (shape)
        got, want = fn(arg), fn.py_func(arg)
        assert got.dtype == want.dtype == np.float16 and got.shape == want.shape
        assert np.array_equal(bits(got), bits(want))


@settings(max_examples=25, deadline=None)
@given(HALVES, st.floats(-4, 4, width=16))
def test_float16_in_place_update_equals_numpy(x, a):
    fn = cuvil.jit(define(AXPY, env=ENV))
    for arg in (x, x[::-1].copy(), np.concatenate([x, x])):
        y, expected = arg.copy(), arg.copy()
        out = fn(a, arg, y)
        fn.py_func(a, arg, expected)
        assert out is not None and out.dtype == np.float16
        assert np.array_equal(bits(y), bits(expected))  # written in place, into the caller's array
        assert np.array_equal(bits(out), bits(expected))


def test_float16_values_written_into_float32_and_back():
    fn = cuvil.jit(define(SCALE, env=ENV))
    x = np.linspace(-70000, 70000, 101).astype(np.float32).astype(np.float16)  # inf at both ends
    for out in (np.empty(101, np.float16), np.empty(101, np.float32)):
        want = fn.py_func(x, out.copy())
        got = fn(x, out.copy())
        assert got.dtype == want.dtype
        assert np.array_equal(got.view(np.uint8), want.view(np.uint8))


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float32, st.integers(1, 40), elements=st.floats(-100, 100, width=32)))
def test_torch_bfloat16_eager_semantics(values):
    """precision=None on bf16 tensors: torch eager's values (each operation rounded to bf16)."""
    fn = cuvil.jit(define(POLY, env=ENV))
    x = to_bf16(values)
    for arg in (x, x.flip(0).contiguous(), torch.cat([x, x])):
        got = fn(arg)
        want = arg * arg + 3.0 * arg - 1.5
        assert isinstance(got, torch.Tensor) and got.dtype == torch.bfloat16 and got.shape == want.shape
        assert np.array_equal(bits(got), bits(want))


@pytest.mark.parametrize("precision", ["bf16", "fp32"])
@settings(max_examples=20, deadline=None)
@given(hnp.arrays(np.float32, st.integers(1, 40), elements=st.floats(-100, 100, width=32)))
def test_bf16_policy_computes_in_float32_and_rounds_once(precision, values):
    fn = cuvil.jit(define(POLY, env=ENV), precision=precision)
    x = to_bf16(values)
    for arg in (x, x.flip(0).contiguous(), torch.cat([x, x])):
        got = fn(arg)
        f = arg.float().numpy()
        want = round_bf16(f * f + np.float32(3.0) * f - np.float32(1.5))
        assert got.dtype == torch.bfloat16
        assert np.array_equal(got.float().numpy().view(np.uint32), want.view(np.uint32))


@settings(max_examples=20, deadline=None)
@given(HALVES, st.floats(-4, 4, width=32))
def test_fp16_policy_axpy_rounds_once_per_store(x, a):
    fn = cuvil.jit(define(AXPY, env=ENV), precision="fp16")
    a = np.float32(a)
    for arg in (x, x[::-1].copy(), np.concatenate([x, x])):
        y = arg.copy()
        want = (arg.astype(np.float32) + a * arg.astype(np.float32)).astype(np.float16)
        fn(a, arg, y)
        assert np.array_equal(bits(y), bits(want))


def test_policy_accumulates_in_float32_and_returns_float32():
    fn = cuvil.jit(define("""
        def total(x):
            s = 0.0
            for i in range(len(x)):
                s += x[i]
            return s
        """), precision="fp16")
    x = np.full(4096, 0.1, np.float16)
    got = fn(x)
    assert type(got) is np.float32
    assert got == np.float32(np.sum(x.astype(np.float32), dtype=np.float32)) or abs(got - 409.5) < 0.1
    assert abs(float(got) - 4096 * float(np.float16(0.1))) < 1e-2  # a float16 accumulator stops at 256


def test_annotation_keeps_an_fp32_accumulator_without_a_policy():
    fn = cuvil.jit(define("""
        def total(x):
            acc: cuvil.fp32 = 0.0
            for i in range(len(x)):
                acc += x[i]
            return acc
        """, env=ENV))
    x = np.full(4096, 0.1, np.float16)
    got = fn(x)
    assert type(got) is np.float32 and abs(float(got) - 4096 * float(np.float16(0.1))) < 1e-2
    assert fn.py_func(x) == np.float32(fn.py_func(x))  # the plain function runs too


def test_explicit_casts_round_like_numpy_and_torch():
    fn = cuvil.jit(define("""
        def casts(x, a, b):
            for i in range(len(x)):
                a[i] = cuvil.fp16(x[i] * 3.0)
                b[i] = cuvil.bf16(x[i] * 3.0)
            return a, b
        """, env=ENV))
    x = np.random.default_rng(1).standard_normal(50).astype(np.float32)
    a, b = fn(x, np.empty(50, np.float32), np.empty(50, np.float32))
    assert np.array_equal(a, (x * np.float32(3.0)).astype(np.float16).astype(np.float32))
    assert np.array_equal(b, round_bf16(x * np.float32(3.0)))
    pa, pb = fn.py_func(x, np.empty(50, np.float32), np.empty(50, np.float32))
    assert np.array_equal(a, pa) and np.array_equal(b, pb)


def test_half_allocations_fill_with_the_right_bits():
    fn = cuvil.jit(define("""
        def fills(x):
            return np.ones_like(x), np.zeros_like(x), np.full_like(x, 2.5), np.empty_like(x).shape
        """, env=ENV))
    for x in (np.arange(5, dtype=np.float16), to_bf16(np.arange(5, dtype=np.float32))):
        ones, zeros, full, shape = fn(x)
        assert ones.dtype == zeros.dtype == full.dtype == x.dtype and shape == (5,)
        assert (ones == 1).all() and (zeros == 0).all() and (full == 2.5).all()


def test_whole_array_operations_the_lowering_leaves_are_refused_at_the_line():
    fn = cuvil.jit(define("""
        def dot(x):
            return np.dot(x, x)
        """, env=ENV))
    with pytest.raises(cuvil.CuvilTypeError, match="np.dot on a float16 array") as info:
        fn(np.ones(3, np.float16))
    assert info.value.lineno == fn.py_func.__code__.co_firstlineno + 1


@pytest.mark.parametrize("expression", ["np.count_nonzero(x > 1)", "x[x > 1]", "np.nonzero(x == 1)[0]",
                                        "(x > 1) if x.size else (x < 1)"])
def test_comparisons_the_lowering_leaves_are_refused_at_the_line(expression):
    """They compared the bits: np.count_nonzero(x > 1) of float16 [1.5, -2.25, 300] was 3 (NumPy: 2)."""
    fn = cuvil.jit(define(f"def whole(x):\n    return {expression}\n", env=ENV))
    for x in (np.array([1.5, -2.25, 300], np.float16), to_bf16(np.array([1.5, -2.25, 300], np.float32))):
        with pytest.raises(cuvil.CuvilTypeError, match="Comparison on a (float16|bfloat16) array") as info:
            fn(x)
        assert info.value.lineno == fn.py_func.__code__.co_firstlineno + 1


def test_mixed_halves_and_contradicting_policy_are_refused_naming_the_argument():
    add = cuvil.jit(define("""
        def add(x, y):
            return x[0] + y[0]
        """, env=ENV))
    with pytest.raises(cuvil.CuvilTypeError, match="'y' is bfloat16 while others are float16") as info:
        add(np.ones(2, np.float16), to_bf16(np.ones(2, np.float32)))
    assert info.value.argument == "y"
    strict = cuvil.jit(add.py_func, precision="fp16")
    with pytest.raises(cuvil.CuvilTypeError, match="precision='fp16'"):
        strict(to_bf16(np.ones(2, np.float32)), to_bf16(np.ones(2, np.float32)))


def test_guard_tells_float16_from_bfloat16_and_uint16():
    fn = cuvil.jit(define("""
        def first(x):
            return x[0] * 2
        """, env=ENV))
    h = np.array([1.5, 2], np.float16)
    assert fn(h) == np.float16(3.0) and type(fn(h)) is np.float16
    assert fn(h.view(np.uint16)) == 2 * 15872  # the same bits as integers: another variant
    b = fn(to_bf16(np.array([1.5, 2], np.float32)))
    assert type(b) is np.float32 and b == 3.0
    assert len(fn.compile_events) == 3


def test_a_helper_called_on_half_elements_is_typed_and_rounds_like_numpy():
    fn = cuvil.jit(define("""
        def helper(v):
            return v * 2.1

        def apply(x):
            out = np.empty_like(x)
            for i in range(len(x)):
                out[i] = helper(x[i])
            return out
        """, env=ENV))
    x = np.linspace(-9, 9, 33).astype(np.float16)
    for arg in (x, x[::2].copy(), x[:5].copy()):
        assert np.array_equal(bits(fn(arg)), bits(fn.py_func(arg)))


def test_a_tuple_of_half_arrays_is_refused_naming_the_argument():
    fn = cuvil.jit(define("def first(t):\n    return t[0][0]\n", env=ENV))
    with pytest.raises(cuvil.CuvilTypeError, match="argument 't' is a tuple holding half-precision arrays"):
        fn((np.ones(2, np.float16), np.ones(2, np.float16)))


@settings(max_examples=25, deadline=None)
@given(HALVES)
def test_small_integer_powers_of_halves_round_once_like_numpy(x):
    """NumPy computes a float16 `x ** 3` as one float32 power rounded once; the lowering's x * x * x would round
    after each product."""
    fn = cuvil.jit(define("def powers(x):\n    return x ** 3 - x ** 2 + x ** 4\n", env=ENV))
    for arg in (x, x[::-1].copy(), np.concatenate([x, x])):
        with np.errstate(all="ignore"):
            want = fn.py_func(arg)
        got = fn(arg)
        assert got.dtype == np.float16 and np.array_equal(bits(got), bits(want))
