"""target="cuda" on the kernels it exists for: elementwise loops and whole-array expressions, reductions,
exceptions a kernel records, and three calls per argument kind (first call, guard hit, guard miss)."""

import math
import traceback
import warnings

import numpy as np
import pytest

import cuvil
from tests.programs.test_programs import assert_same

N = 300  # a few blocks of the simulator's threads


def gelu(x, out):
    for i in range(len(x)):
        v = x[i]
        out[i] = 0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v * v * v)))
    return out


def saxpy(a, x, y, out):
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]
    return out


def expression(x, y):
    return np.exp(-x) * 2.0 + y * y


def total(x):
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


def largest(x):
    m = -np.inf
    for i in range(len(x)):
        m = max(m, x[i])
    return m


def smallest(x):
    m = np.inf
    for i in range(len(x)):
        m = min(m, x[i])
    return m


def count_positive(x):
    c = 0
    for i in range(len(x)):
        if x[i] > 0:
            c += 1
    return c


def mean(x):
    return np.mean(x)


def row_softmax(x, out):
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(1, x.shape[1]):
            m = max(m, x[i, j])
        s = 0.0
        for j in range(x.shape[1]):
            e = math.exp(x[i, j] - m)
            out[i, j] = e
            s += e
        for j in range(x.shape[1]):
            out[i, j] = out[i, j] / s
    return out


def divide(out, d):
    for i in range(len(out)):
        out[i] = 1000 // (i - d)
    return out


def accumulate(a, x):
    for i in range(len(x)):
        a[i] += x[i]
    return a


def rng(dtype=np.float64, n=N):
    return np.random.default_rng(0).standard_normal(n).astype(dtype)


def check(fn, *args, rtol=1e-6):
    expected = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    actual = cuvil.jit(fn, target="cuda")(*args)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=1e-6)
    return actual


def test_gelu_float32():
    x = rng(np.float32)
    check(gelu, x, np.empty_like(x), rtol=1e-5)


def test_saxpy_writes_in_place_and_returns_the_callers_array():
    x, y, out = rng(), rng() + 1, np.zeros(N)
    result = cuvil.jit(saxpy, target="cuda")(2.0, x, y, out)
    assert result is out
    np.testing.assert_allclose(out, 2.0 * x + y)


def test_a_whole_array_expression_becomes_a_kernel():
    f = cuvil.jit(expression, target="cuda")
    x, y = rng(), rng()
    np.testing.assert_allclose(f(x, y), expression(x, y), rtol=1e-12)
    assert "@cuda.jit" in f.source("cuda") and "cuda.grid(1)" in f.source("cuda")


@pytest.mark.parametrize("fn", [total, largest, smallest, mean])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_reductions_within_tolerance_of_the_serial_order(fn, dtype):
    x = rng(dtype)
    got = cuvil.jit(fn, target="cuda")(x)
    assert got == pytest.approx(fn(x), rel=1e-5 if dtype == np.float32 else 1e-12)


def test_integer_reduction_is_exact():
    x = np.random.default_rng(1).integers(-5, 5, N)
    assert cuvil.jit(count_positive, target="cuda")(x) == count_positive(x)
    assert cuvil.jit(total, target="cuda")(x) == total(x)


def test_reductions_use_block_reduction_and_atomics():
    f = cuvil.jit(total, target="cuda")
    f(rng())
    source = f.source("cuda")
    assert "cuda.shared.array(256" in source and "cuda.atomic.add(" in source


def test_row_softmax():
    x = rng(np.float32, 8 * 16).reshape(8, 16)
    out = check(row_softmax, x, np.empty_like(x), rtol=1e-5)
    np.testing.assert_allclose(out.sum(axis=1), 1.0, rtol=1e-5)


def test_zero_division_in_a_kernel_raises_at_the_users_line():
    f = cuvil.jit(divide, target="cuda")
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero") as info:
        f(np.zeros(64, np.int64), 5)
    last = traceback.extract_tb(info.tb)[-1]
    assert last.filename == __file__ and last.lineno == divide.__code__.co_firstlineno + 2
    np.testing.assert_array_equal(f(np.zeros(4, np.int64), 7), divide(np.zeros(4, np.int64), 7))


def test_index_error_at_the_users_line():
    def shifted(x, out):
        for i in range(len(out)):
            out[i] = x[i + 1]
        return out

    f = cuvil.jit(shifted, target="cuda", boundscheck=True)
    with pytest.raises(IndexError) as info:
        f(np.zeros(4), np.zeros(4))
    assert traceback.extract_tb(info.tb)[-1].lineno == shifted.__code__.co_firstlineno + 2


def test_serial_code_on_arrays_warns_with_its_lines():
    def prefix(a):
        out = np.empty(len(a))
        acc = 0.0
        for i in range(len(a)):
            acc += a[i]
            out[i] = acc
        return out

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", cuvil.PerformanceWarning)
        got = cuvil.jit(prefix, target="cuda")(np.arange(5.0))
    np.testing.assert_array_equal(got, np.cumsum(np.arange(5.0)))
    messages = [str(w.message) for w in caught if issubclass(w.category, cuvil.PerformanceWarning)]
    first = prefix.__code__.co_firstlineno
    assert any(f"L{first + 2}" in m and "one GPU thread" in m for m in messages), messages


@pytest.mark.parametrize(("target", "value"), [("uint64", np.int64(2**53 + 1)), ("uint64", np.int64(-5)),
                                               ("uint32", np.float64(-2.0)), ("uint64", np.float32(np.nan))])
def test_an_unsigned_update_by_a_signed_value_is_numpys(target, value):
    """NumPy computes uint64 + int64 in float64 and stores the float by the host's C cast
    (runtime/cuda_device.float_as_unsigned, the twin of the CPU's)."""
    x = np.full(N, value)
    with np.errstate(invalid="ignore"):
        expected = accumulate(np.zeros(N, target), x)
    got = cuvil.jit(accumulate, target="cuda")(np.zeros(N, target), x)
    assert got.dtype == expected.dtype and np.array_equal(got, expected), (got[:2], expected[:2])


@pytest.mark.parametrize("kind", ["numpy", "scalar", "torch_cpu"])
def test_three_calls_per_argument_kind(kind):
    """First call compiles, the same kind again hits the guard, another dtype misses it and compiles."""
    torch = pytest.importorskip("torch") if kind == "torch_cpu" else None

    def scale(x, a):
        out = np.empty_like(x)
        for i in range(len(x)):
            out[i] = x[i] * a
        return out

    f = cuvil.jit(scale, target="cuda")
    make = {"numpy": lambda d: (np.arange(6, dtype=d), 2.0),
            "scalar": lambda d: (np.arange(6.0), d(3)),
            "torch_cpu": lambda d: (torch.arange(6, dtype=torch.float64 if d is np.float64 else torch.float32),
                                    2.0)}[kind]
    first, other = (np.float64, np.float32) if kind != "scalar" else (float, int)
    for d, compiles in ((first, 1), (first, 1), (other, 2)):
        args = make(d)
        got = f(*args)
        expected = scale(*[a.numpy() if torch is not None and isinstance(a, torch.Tensor) else a for a in args])
        got_np = got.numpy() if torch is not None and isinstance(got, torch.Tensor) else got
        assert_same(expected, got_np)
        assert len(f.compile_events) == compiles
