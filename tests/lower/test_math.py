"""runtime/vmath.py against the bounds lower/math.py documents, and the loops it is for vectorizing.

Hypothesis draws float32 bit patterns (every pattern equally likely: NaNs, subnormals, both zeros) and float64
values (its own bias to edge cases), checked against NumPy's result and the exact one; a seeded bulk sample
covers each function's interesting range densely. All 2**32 float32 inputs run with CUVIL_MATH_EXHAUSTIVE=1
(`nox -s fuzz`).
"""

from __future__ import annotations

import math
import os
import re

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuvil.lower import math as lower_math
from cuvil.runtime import vmath, vmath_coefficients
from tests.lower import ulp

F32_KEYS = [k for k in ulp.FUNCTIONS if k[1] == "float32"]
F64_KEYS = [k for k in ulp.FUNCTIONS if k[1] == "float64"]
RANGES = {"exp": (-110.0, 100.0), "log": (0.0, 4.0), "tanh": (-10.0, 10.0),
          "erf": (-7.0, 7.0), "sigmoid": (-100.0, 100.0)}
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-45, -1e-45, 1.1754944e-38, 3.4028235e38,
            -3.4028235e38, 88.72283, 88.72284, -87.33655, -103.97208, -88.72284, 5e-324, 2.2250738585072014e-308,
            709.782712893384, 709.7827128933841, -745.1332191019411, -709.78, 0.8, -0.8, 1.0000001, 3.92, 6.0]


def check(name: str, x: np.ndarray) -> None:
    bound = lower_math.BOUNDS[(name, x.dtype.name)].bound
    y = ulp.ours(name, x)
    worst, at = ulp.distance(y, ulp.numpy_result(name, x))
    assert worst <= bound.vs_numpy, f"{name}({x[at]!r}) = {y[at]!r}: {worst} from NumPy's"
    if x.dtype == np.float64 and not ulp.LONG_DOUBLE_EXACT:
        return  # no exact reference finer than float64 on this platform
    if name == "sigmoid":  # NumPy's formula is 0 once exp(-x) overflows; the exact value is not
        keep = ~(x < (-88.72 if x.dtype == np.float32 else -709.78))
        x, y = x[keep], y[keep]
    if x.size:
        worst, at = ulp.ulps(y, ulp.exact(name, x))
        assert worst <= bound.vs_exact, f"{name}({x[at]!r}) = {y[at]!r}: {worst} ulp from exact"


@pytest.mark.parametrize("name", [k[0] for k in F32_KEYS])
@given(bits=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=64))
def test_float32_bit_patterns_within_bound(name, bits):
    x = np.concatenate([np.array(bits, np.uint32).view(np.float32), np.array(SPECIALS, np.float32)])
    check(name, x)


@pytest.mark.parametrize("name", [k[0] for k in F64_KEYS])
@given(values=st.lists(st.floats(width=64) | st.integers(0, 2**64 - 1).map(
    lambda b: float(np.array(b, np.uint64).view(np.float64))), min_size=1, max_size=32))
def test_float64_values_within_bound(name, values):
    check(name, np.array(values + SPECIALS, np.float64))


@pytest.mark.parametrize("key", ulp.FUNCTIONS, ids="-".join)
def test_bulk_sample_within_bound(key):
    """2**18 seeded inputs through each function's interesting range, plus the 128 neighbours of each threshold
    (where a branch or clamp changes) in the function's own dtype."""
    name, dtype = key
    rng = np.random.default_rng(7)
    lo, hi = RANGES[name]
    x = rng.uniform(lo, hi, 1 << 18).astype(dtype)
    if dtype == "float64" and name == "erf":
        x = x[:4096]  # mpmath, one value at a time
    near = neighbours([0.8, 1.0, 3.92, 3.95, 4.0, 6.0, 9.1, 87.33, 88.72, 103.97, 709.78, 745.13], dtype)
    check(name, np.concatenate([x, near, -near]))


def neighbours(edges, dtype, k=64):
    """The 2k floats of `dtype` around each (positive) edge."""
    bits = np.array(edges, dtype).view(np.uint32 if dtype == "float32" else np.uint64)
    return (bits[:, None].astype(np.int64) + np.arange(-k, k)).astype(bits.dtype).view(dtype).ravel()


EXACT_SPECIALS = [
    ("exp", -np.inf, 0.0), ("exp", np.inf, np.inf), ("exp", np.nan, np.nan), ("exp", 0.0, 1.0), ("exp", -0.0, 1.0),
    ("exp", 1000.0, np.inf), ("exp", -1000.0, 0.0),
    ("log", 0.0, -np.inf), ("log", -0.0, -np.inf), ("log", -1.0, np.nan), ("log", -np.inf, np.nan),
    ("log", np.inf, np.inf), ("log", np.nan, np.nan), ("log", 1.0, 0.0),
    ("tanh", np.inf, 1.0), ("tanh", -np.inf, -1.0), ("tanh", -0.0, -0.0), ("tanh", 0.0, 0.0), ("tanh", np.nan, np.nan),
    ("tanh", 20.0, 1.0), ("tanh", -20.0, -1.0),
    ("erf", np.inf, 1.0), ("erf", -np.inf, -1.0), ("erf", -0.0, -0.0), ("erf", 0.0, 0.0), ("erf", np.nan, np.nan),
    ("erf", 10.0, 1.0),
    ("sigmoid", np.inf, 1.0), ("sigmoid", -np.inf, 0.0), ("sigmoid", np.nan, np.nan), ("sigmoid", 0.0, 0.5),
    ("sigmoid", -1000.0, 0.0),
]


@pytest.mark.parametrize(("name", "value", "expected", "dtype"), [
    (name, value, expected, dtype) for name, value, expected in EXACT_SPECIALS for dtype in ("float32", "float64")
    if (name, dtype) in lower_math.BOUNDS])
def test_special_values_exactly(name, value, expected, dtype):
    got = ulp.ours(name, np.array([value], dtype))[0]
    assert got.dtype == np.dtype(dtype)
    if math.isnan(expected):
        assert math.isnan(got)
    else:
        assert got == expected and math.copysign(1, got) == math.copysign(1, expected)


def test_subnormals_as_numpy():
    """exp into the subnormals rounds once (two scale factors), log of a subnormal scales it up first."""
    x32 = np.float32(np.arange(-103.9, -87.4, 0.37))
    assert ulp.distance(ulp.ours("exp", x32), np.exp(x32))[0] <= 3
    assert (ulp.ours("exp", x32) > 0).all() and (ulp.ours("exp", x32) < np.finfo(np.float32).tiny).all()
    tiny = np.array([1e-45, 3e-42, 1e-39], np.float32)
    assert ulp.distance(ulp.ours("log", tiny), np.log(tiny))[0] <= 1
    tiny64 = np.array([5e-324, 1e-310, 2e-308])
    assert ulp.distance(ulp.ours("log", tiny64), np.log(tiny64))[0] <= 1
    assert ulp.distance(ulp.ours("exp", np.array([-745.0, -720.5, -708.9])), np.exp([-745.0, -720.5, -708.9]))[0] <= 1


def test_wrong_dtype_is_a_typing_error():
    """A float64 never runs through float32 arithmetic unnoticed: the printer must cast first."""
    @numba.njit
    def f(x):
        return vmath.exp_f32(x)

    with pytest.raises(numba.core.errors.TypingError, match="exp_f32"):
        f(1.0)


def test_cody_waite_splits_are_exact():
    """k * LN2_HI must be exact for every k the range reduction meets (|k| <= 152 / 1077)."""
    hi32, hi64 = float(vmath_coefficients.LN2_HI32), float(vmath_coefficients.LN2_HI64)
    assert (hi32 * 2**16).is_integer() and (hi64 * 2**32).is_integer()
    assert abs(hi32 + float(vmath_coefficients.LN2_LO32) - math.log(2)) < 1e-13
    assert hi64 + float(vmath_coefficients.LN2_LO64) == math.log(2)


@pytest.mark.skipif(os.environ.get("CUVIL_MATH_EXHAUSTIVE") != "1", reason="all 2**32 inputs: nox -s fuzz")
@pytest.mark.parametrize("name", [k[0] for k in F32_KEYS])
def test_every_float32_input_within_bound(name):
    for chunk in range(256):
        start = chunk << 24
        x = np.arange(start, start + (1 << 24), dtype=np.uint64).astype(np.uint32).view(np.float32)
        check(name, x)


@pytest.mark.skipif(os.environ.get("CUVIL_MATH_EXHAUSTIVE") != "1", reason="large float64 sample: nox -s fuzz")
@pytest.mark.parametrize("name", [k[0] for k in F64_KEYS])
def test_large_float64_sample_within_bound(name):
    rng = np.random.default_rng(int(os.environ.get("CUVIL_FUZZ_SEED", "1")))
    lo, hi = RANGES[name]
    n = 1 << 12 if name == "erf" else 1 << 22
    for _ in range(8):
        parts = [rng.integers(0, 2**64, n, dtype=np.uint64).view(np.float64), rng.uniform(lo, hi, n),
                 np.exp(rng.uniform(-740, 709, n)) * rng.choice([-1.0, 1.0], n)]
        check(name, np.concatenate(parts))


def _loop_ir(function, dtype, parallel=False):
    @numba.njit(parallel=parallel)
    def run(x, out):
        for i in numba.prange(x.size):
            out[i] = function(x[i])

    x = np.linspace(-3, 3, 64).astype(dtype)
    run(x, np.empty_like(x))
    return "\n".join(run.inspect_llvm().values())


@pytest.mark.parametrize("key", ulp.FUNCTIONS, ids="-".join)
def test_loop_vectorizes(key):
    """The loop body becomes vector arithmetic, with no call left: neither to libm nor to the kernel, which
    would keep it scalar."""
    name, dtype = key
    ir = _loop_ir(getattr(vmath, lower_math.BOUNDS[key].function), dtype)
    assert max(_vector_multiplies(ir), default=0) >= 2, f"no vector multiply for {key}"
    assert not re.search(r"call .*@(exp|log|tanh|erf)f?\(", ir)
    assert "vmath" not in "".join(re.findall(r"call [^\n]*", ir))


def _vector_multiplies(ir):
    """The lane counts of the vector float multiplies in some LLVM IR."""
    return [int(n) for n in re.findall(r"fmul (?:\w+ )*<(\d+) x (?:float|double)>", ir)]


@pytest.mark.parametrize("key", ulp.FUNCTIONS, ids="-".join)
def test_same_results_in_a_fastmath_caller(key):
    """The kernels keep their own (strict) flags when inlined into a `fastmath=True` loop: NaN checks and the
    Cody-Waite reduction are not folded away."""
    function = getattr(vmath, lower_math.BOUNDS[key].function)

    @numba.njit(fastmath=True)
    def run(x, out):
        for i in range(x.size):
            out[i] = function(x[i])

    x = np.concatenate([np.linspace(-120, 120, 4001), SPECIALS]).astype(key[1])
    out = np.empty_like(x)
    run(x, out)
    assert out.tobytes() == ulp.ours(key[0], x).tobytes()


@pytest.mark.parametrize("function", [vmath.exp_f32, vmath.tanh_f32])
def test_parallel_loop_vectorizes(function):
    assert max(_vector_multiplies(_loop_ir(function, "float32", parallel=True)), default=0) >= 2


def _reduce(fn):
    @numba.njit
    def run(x):
        m = x[0]
        for i in range(x.size):
            m = fn(m, x[i])
        return m

    return run


_MAX, _MIN = _reduce(vmath.maximum), _reduce(vmath.minimum)


@given(values=st.lists(st.floats(width=32), min_size=1, max_size=200), dtype=st.sampled_from(["float32", "float64"]))
def test_max_min_reductions_are_numpys(values, dtype):
    """NaN anywhere wins, as in np.max; otherwise the same value (a zero's sign may differ: NumPy's depends on
    the order of equal elements, llvm.maximum takes +0 over -0)."""
    x = np.array(values, dtype)
    for got, want in ((_MAX(x), np.max(x)), (_MIN(x), np.min(x))):
        assert (math.isnan(got) and math.isnan(want)) or got == want


@pytest.mark.parametrize("fn", [vmath.maximum, vmath.minimum])
def test_max_reduction_vectorizes(fn):
    run = _reduce(fn)
    run(np.ones(8, np.float32))
    ir = run.inspect_llvm(run.signatures[0])
    assert re.search(r"<(?:[4-9]|\d\d) x float> @llvm\.(maximum|minimum)", ir) or "vector.reduce.fm" in ir


def test_implementation_choice():
    module = vmath.__name__
    assert lower_math.implementation("exp", "float32") == (module, "exp_f32")
    assert lower_math.implementation("sigmoid", "float64") == (module, "sigmoid_f64")
    assert lower_math.implementation("tanh", "float32") == (module, "tanh_f32")
    assert lower_math.implementation("tanh", "float64") == (module, "tanh_f64")
    for name, dtype in [("sin", "float32"), ("exp", "int64"), ("exp", "float16")]:
        assert lower_math.implementation(name, dtype) is None
    assert lower_math.reduction("max", "float32") == (module, "maximum_nonan")  # NaNs counted beside it
    assert lower_math.reduction("min", "float64") == (module, "minimum_nonan")
    assert lower_math.reduction("sum", "float64") == ("cuvil.runtime.reorder", "add_any_order")
    assert lower_math.reduction("sum", "int64") is None and lower_math.reduction("max", "int32") is None
    assert lower_math.reduction("prod", "float32") is None


def test_every_kernel_is_within_numpys_tolerance():
    for entry in lower_math.BOUNDS.values():
        assert callable(getattr(vmath, entry.function))
        assert entry.bound.vs_exact <= lower_math.DEFAULT_ULP
    with pytest.raises(AssertionError, match="outside NumPy's own tolerance"):
        lower_math.Entry("tanh_f32", lower_math.Bound(9, 6.6, 1.37))
