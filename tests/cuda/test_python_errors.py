"""Python's errors on target="cuda" (issue 10's CUDA part): a kernel records an error code (and the values of
its message) and the launcher raises the CPU target's exception, with its message, at the user's line — from
single-thread kernels (codegen/cuda_checks.py) and from grid-stride kernels (codegen/parallel.py's checks),
the first failing iteration in Python's order. `overflow="wrap"` and `boundscheck=False` opt out."""

import inspect
import math
import traceback

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.codegen.cuda_checks import OUTCOMES
from tests.programs.test_programs import assert_same

INT64 = st.integers(-(2**63), 2**63 - 1)


# -- programs: single-thread kernels (a loop-carried value, or a check no condition describes) --------------

def gather_sum(x, idx, out):
    s = 0.0
    for i in range(len(idx)):
        s += x[idx[i]]
        out[i] = s
    return out


def horner(k, out):
    acc = 1
    for i in range(len(out)):
        acc = acc * k + 1
        out[i] = acc
    return out


def powers(k, out):
    for i in range(len(out)):
        out[i] = k ** i
    return out


def truncate(x, out):
    for i in range(len(x)):
        out[i] = int(x[i])
    return out


def sqrt_chain(x, out):
    s = 4.0
    for i in range(len(x)):
        s = math.sqrt(s - x[i])
        out[i] = s
    return out


def divide_down(k, out):
    acc = 0
    for i in range(len(out)):
        acc = acc + 100 // (k - i)
        out[i] = acc
    return out


def shifts(k, out):
    for i in range(len(out)):
        out[i] = k << i
    return out


def magnitudes(k, out):
    for i in range(len(out)):
        out[i] = abs(k) - i
    return out


def mixed_math(x, k, out):  # runtime/pymath.py's (value, error) computations, recorded (issue 36)
    for i in range(len(x)):
        out[i] = math.remainder(x[i], 2.0) + math.ldexp(x[i], k) + math.gcd(i, k, 6) + math.hypot(x[i], 1.0, 2.0)
    return out


def every_math(x, k, out):  # each of runtime/cuda_pymath.py's twins in a kernel (their PTX: tests/cuda/test_ptx.py)
    for i in range(len(x)):
        v = x[i]
        m, e = math.frexp(v)
        s = math.fmod(v, 2.0) + math.log(v, 2.0) + math.lcm(i, k) + math.factorial(k) + math.comb(k, i)
        s = s + math.perm(k, i) + math.perm(k) + math.isqrt(k) + math.ulp(v) + m + e
        s = s + math.floor(v) + math.ceil(v) + math.trunc(v) + math.lgamma(v) + math.exp2(v) + math.tan(v)
        out[i] = s + math.cos(v) + math.hypot(v) + math.hypot() + math.gcd() + math.lcm(k)
    return out


# -- programs: grid-stride kernels ------------------------------------------------------------------------

def gather(a, idx, out):
    for i in range(len(idx)):
        out[i] = a[idx[i]]
    return out


def roots(x, out):
    for i in range(len(x)):
        out[i] = math.sqrt(x[i])
    return out


def scaled(k, out):
    for i in range(len(out)):
        out[i] = k * (i + 1)
    return out


def inverse(k, out):
    for i in range(len(out)):
        out[i] = 1000 // (k - i)
    return out


def gammas(x, out):  # DOMAINS' two conditions, a pole's and an overflow's, tested first
    for i in range(len(x)):
        out[i] = math.gamma(x[i]) + math.sin(x[i])
    return out


SERIAL = (gather_sum, horner, powers, truncate, sqrt_chain, divide_down, shifts, magnitudes, mixed_math,
          every_math)
GRID = (gather, roots, scaled, inverse, gammas)
_GATHER = (np.ones(4), np.zeros(3, np.int64), np.zeros(3))
_INTS = (9, np.zeros(3, np.int64))
SAMPLES = {gather_sum: _GATHER, horner: _INTS, powers: _INTS, truncate: (np.ones(3), np.zeros(3, np.int64)),
           sqrt_chain: (np.zeros(3), np.zeros(3)), divide_down: _INTS, gather: _GATHER,
           roots: (np.ones(3), np.zeros(3)), scaled: _INTS, inverse: _INTS, shifts: _INTS,
           magnitudes: _INTS, mixed_math: (np.ones(3), 3, np.zeros(3)), every_math: (np.ones(3), 3, np.zeros(3)),
           gammas: (np.ones(3), np.zeros(3))}  # arguments that raise nothing
_JITTED: dict = {}


def jitted(fn, target, **options):
    key = (fn, target, tuple(sorted(options.items())))
    if key not in _JITTED:
        _JITTED[key] = cuvil.jit(fn, target=target, **options)
    return _JITTED[key]


def outcome(fn, args):
    """The result, or the exception's type, message and the line of this file it was raised at."""
    try:
        return "result", fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    except Exception as exc:  # noqa: BLE001
        lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == __file__]
        return type(exc), str(exc), lines[-1]


def line_of(fn, statement):
    """The line of `statement` in fn's source (where Python raises)."""
    source, first = inspect.getsourcelines(fn)
    return first + next(k for k, text in enumerate(source) if text.strip() == statement)


def assert_as_cpu(fn, *args, at=None, **options):
    """target="cuda" on the simulator gives what the CPU target gives: the same result, or the same exception
    with the same message, raised at the user's line `at` (the CPU target's traceback ends in Numba)."""
    cpu = outcome(jitted(fn, "cpu", **options), args)
    gpu = outcome(jitted(fn, "cuda", **options), args)
    if cpu[0] == "result" and gpu[0] == "result":
        assert_same(cpu[1], gpu[1])
    else:
        assert gpu[:2] == cpu[:2]
        assert at is None or gpu[2] == line_of(fn, at)
    return gpu


def test_the_programs_run_where_this_file_says():
    """Each SERIAL program is a single-thread kernel, each GRID program a grid-stride kernel, with checks."""
    for fn, args in SAMPLES.items():
        g = jitted(fn, "cuda")
        g(*args)
        kernel = g.source(stage="kernel")
        assert (", (1, 1))(" in kernel) == (fn in SERIAL), fn.__name__
        assert ("_rt.grid(" in kernel) == (fn in GRID), fn.__name__
        assert "_record_error" in kernel or "_ck." in kernel, fn.__name__


@pytest.mark.parametrize(("fn", "args", "expected", "at"), [
    (gather_sum, (np.arange(5.0), np.array([0, 1, 7, 2]), np.zeros(4)),
     (IndexError, "index 7 is out of bounds for axis 0 with size 5"), "s += x[idx[i]]"),
    (gather_sum, (np.arange(5.0), np.array([0, -6]), np.zeros(2)),
     (IndexError, "index -6 is out of bounds for axis 0 with size 5"), "s += x[idx[i]]"),
    (horner, (2**40, np.zeros(3, np.int64)), (OverflowError, None), "acc = acc * k + 1"),
    (powers, (3, np.zeros(50, np.int64)), (OverflowError, None), "out[i] = k ** i"),
    (truncate, (np.array([1.5, np.nan]), np.zeros(2, np.int64)), (ValueError, "cannot convert float NaN to integer"),
     "out[i] = int(x[i])"),
    (truncate, (np.array([-np.inf]), np.zeros(1, np.int64)),
     (OverflowError, "cannot convert float infinity to integer"), "out[i] = int(x[i])"),
    (truncate, (np.array([1e19]), np.zeros(1, np.int64)), (OverflowError, None), "out[i] = int(x[i])"),
    (sqrt_chain, (np.array([0.0, 1.0, 9.0]), np.zeros(3)), (ValueError, "math domain error"),
     "s = math.sqrt(s - x[i])"),
    (gather, (np.arange(5.0), np.array([0, 9, 2, 5, 8]), np.zeros(5)),
     (IndexError, "index 9 is out of bounds for axis 0 with size 5"), "out[i] = a[idx[i]]"),
    (roots, (np.array([1.0, 4.0, -1.0, -2.0]), np.zeros(4)), (ValueError, "math domain error"),
     "out[i] = math.sqrt(x[i])"),
    (scaled, (2**62, np.zeros(4, np.int64)), (OverflowError, None), "out[i] = k * (i + 1)"),
    (shifts, (3, np.zeros(64, np.int64)), (OverflowError, None), "out[i] = k << i"),
    (shifts, (-1, np.zeros(65, np.int64)), (OverflowError, None), "out[i] = k << i"),
    (magnitudes, (-(2**63), np.zeros(2, np.int64)), (OverflowError, None), "out[i] = abs(k) - i"),
    (gammas, (np.array([0.5, -2.0, 172.0]), np.zeros(3)), (ValueError, "math domain error"),
     "out[i] = math.gamma(x[i]) + math.sin(x[i])"),
    (gammas, (np.array([0.5, 172.0, -2.0]), np.zeros(3)), (OverflowError, "math range error"),
     "out[i] = math.gamma(x[i]) + math.sin(x[i])"),
    (gammas, (np.array([0.5, np.inf]), np.zeros(2)), (ValueError, "math domain error"),
     "out[i] = math.gamma(x[i]) + math.sin(x[i])"),
    (mixed_math, (np.array([1.0, np.inf]), 3, np.zeros(2)), (ValueError, "math domain error"),
     "out[i] = math.remainder(x[i], 2.0) + math.ldexp(x[i], k) + math.gcd(i, k, 6) + math.hypot(x[i], 1.0, 2.0)"),
    (mixed_math, (np.array([1.0, 1e300]), 100, np.zeros(2)), (OverflowError, "math range error"),
     "out[i] = math.remainder(x[i], 2.0) + math.ldexp(x[i], k) + math.gcd(i, k, 6) + math.hypot(x[i], 1.0, 2.0)"),
])
def test_a_kernel_raises_what_the_cpu_target_raises(fn, args, expected, at):
    gpu = assert_as_cpu(fn, *args, at=at)
    assert gpu[0] is expected[0]
    if expected[1] is not None:
        assert gpu[1] == expected[1]
    else:
        assert gpu[1].startswith("int64 overflow: Python would give an int wider than 64 bits")


def test_minus_one_shifted_by_63_is_pythons_minus_2_to_the_63():
    """It fits in int64 (the CPU target's pyint.lshift raises OverflowError for any shift of 63: reported)."""
    out = jitted(shifts, "cuda")(-1, np.zeros(64, np.int64))
    assert out[63] == -(2**63) and out.tolist() == shifts(-1, [0] * 64)


@pytest.mark.parametrize("fn", [divide_down, inverse])
def test_an_integer_division_by_zero_raises_pythons_zero_division_error(fn):
    """CPython's message, at the user's line (the CPU target's serial loops give Numba's own message,
    "integer division by zero": reported to the lead)."""
    gpu = outcome(jitted(fn, "cuda"), (3, np.zeros(6, np.int64)))
    plain = outcome(fn, (3, np.zeros(6, np.int64)))
    assert gpu == plain == (ZeroDivisionError, "integer division or modulo by zero", plain[2])


def test_the_first_failing_iteration_names_the_message_among_many_threads():
    """Every third thread of 300 fails; the message is the first's (index 300 at i=1), as in Python."""
    a = np.arange(300.0)
    idx = np.where(np.arange(300) % 3 == 1, np.arange(300) + 299, 0)
    gpu = assert_as_cpu(gather, a, idx, np.zeros(300), at="out[i] = a[idx[i]]")
    assert gpu[:2] == (IndexError, "index 300 is out of bounds for axis 0 with size 300")


@settings(max_examples=25, deadline=None)
@given(k=INT64, n=st.integers(0, 6))
def test_python_int_arithmetic_in_kernels_is_cpythons_or_overflow_error(k, n):
    """horner (single thread) and scaled (grid): the CPU target's answer, never a wrapped number."""
    for fn in (horner, scaled):
        gpu = assert_as_cpu(fn, k, np.zeros(n, np.int64))
        if gpu[0] == "result":
            assert gpu[1].tolist() == fn(k, [0] * n)


@settings(max_examples=20, deadline=None)
@given(idx=st.lists(st.integers(-8, 8), max_size=6))
def test_bounds_in_kernels_raise_at_pythons_first_failing_index(idx):
    """gather_sum (single thread) and gather (grid): the CPU target's result, or its IndexError for the first
    index out of bounds in Python's order (among several failing ones too)."""
    a, index = np.arange(5.0), np.array(idx, np.int64)
    for fn in (gather_sum, gather):
        at = "s += x[idx[i]]" if fn is gather_sum else "out[i] = a[idx[i]]"
        assert_as_cpu(fn, a, index, np.zeros(len(idx)), at=at)


@settings(max_examples=20, deadline=None)
@given(x=st.lists(st.floats(-2.0, 10.0) | st.sampled_from([np.nan, np.inf, -np.inf, 1e19, -1e19]),
                  min_size=1, max_size=5))
def test_conversions_and_math_in_kernels_raise_as_on_the_cpu(x):
    xs = np.array(x)
    assert_as_cpu(truncate, xs, np.zeros(len(xs), np.int64))
    assert_as_cpu(roots, xs, np.zeros(len(xs)))


def _code(g):
    """The generated kernels and launcher, without the module's imports."""
    return g.source(stage="kernel").split("\n\n\n", 1)[1]


def test_overflow_wrap_opts_out_on_cuda_too():
    """No int check in the kernels (the simulator computes with Python's ints, so the wrap-around itself is
    seen on a GPU only: bench/gpu_check.sh runs these tests there)."""
    for fn in (horner, powers, scaled):
        g = jitted(fn, "cuda", overflow="wrap")
        assert_same(g(3, np.zeros(5, np.int64)), fn(3, np.zeros(5, np.int64)))
        assert "OverflowError" not in _code(g) and "_ck." not in _code(g), fn.__name__
        checked = jitted(fn, "cuda")
        assert_same(checked(3, np.zeros(5, np.int64)), fn(3, np.zeros(5, np.int64)))
        assert "OverflowError" in _code(checked)


def test_boundscheck_false_opts_out_on_cuda_too():
    for fn in (gather_sum, gather):
        g = jitted(fn, "cuda", boundscheck=False)
        assert_same(g(np.arange(5.0), np.array([0, 1, 2]), np.zeros(3)), fn(np.arange(5.0), np.array([0, 1, 2]),
                                                                            np.zeros(3)))
        assert "_record_error" not in _code(g) and "index(" not in _code(g), fn.__name__
        checked = jitted(fn, "cuda")
        checked(np.arange(5.0), np.array([0, 1, 2]), np.zeros(3))
        assert "index(" in _code(checked)


def _twin_outcome(name, *args):
    """runtime/cuda_checks.py's recording twin on one simulated thread: its value, or the exception its
    recorded code stands for (OUTCOMES)."""
    from numba import cuda

    from cuvil.runtime import cuda_checks, cuda_runtime

    twin = getattr(cuda_checks, name)
    slots = cuda_runtime.error_slots()
    out = cuda.to_device(np.zeros(1, np.int64))

    @cuda.jit
    def one(slots, out, a, b):
        out[0] = twin(slots, 1, a, b) if len(args) == 2 else twin(slots, 1, a)

    one[1, 1](slots, out, *args, *((0,) * (2 - len(args))))
    code = cuda_runtime.first_error(slots)
    return OUTCOMES[name][code - 1] if code else ("result", int(out.copy_to_host()[0]))


def _cpu_outcome(name, *args):
    import numba

    from cuvil.runtime import pyint

    helper = getattr(pyint, name)
    call = numba.njit(lambda a, b: helper(a, b)) if len(args) == 2 else numba.njit(lambda a: helper(a))
    try:
        return "result", int(call(*args))
    except Exception as exc:  # noqa: BLE001
        return type(exc).__name__, str(exc)


@settings(max_examples=25, deadline=None)
@example(a=-1, b=63).via("-2**63 fits")
@example(a=-2, b=63).via("(-2)**63 fits")
@example(a=2, b=63).via("2**63 does not")
@example(a=-(2**63), b=-1).via("-2**63 // -1, abs(-2**63)")
@example(a=0, b=-1).via("0 ** -1, a negative shift")
@example(a=5, b=0).via("// 0")
@given(a=INT64 | st.integers(-3, 3), b=st.integers(-2, 70) | INT64)
def test_recording_twins_fail_where_the_cpu_helpers_raise(a, b):
    """`**`, `<<`, `//`, abs() of Python ints: the CPU helper's value, or the exception it raises."""
    for name, args in (("power", (a, b % 70 if b > 0 else b)), ("lshift", (a, b)), ("floordiv", (a, b)),
                       ("absolute", (a,))):
        expected = _cpu_outcome(name, *args)
        if name == "floordiv" and expected[0] == "ZeroDivisionError":  # Numba's message; Python's is the twin's
            expected = ("ZeroDivisionError", "integer division or modulo by zero")
        if name == "lshift" and args == (-1, 63):  # fits; the CPU helper raises (reported)
            expected = ("result", -(2**63))
        assert _twin_outcome(name, *args) == expected, (name, args)
