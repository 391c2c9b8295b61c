"""target="cuda" gives what target="cpu" gives, and both what plain Python gives: the same values, dtypes, shapes,
exceptions (type and message) and the same arguments afterwards (issue 36, class 6).

Two families a CUDA kernel used to get wrong where the CPU did not: numbers stored into a narrower integer array
(NumPy's setitem refuses one the dtype cannot hold; a kernel wrapped it), and 0-d arrays (copied to the device
as shape (1,), so returned as (1,) and read as a sequence in a kernel)."""

from __future__ import annotations

import functools
import math
import warnings
from typing import Any

import numpy as np
import pytest

import cuvil
from tests.helpers import define
from tests.lower.compare import differences

INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


@functools.cache
def _jitted(source: str, target: str) -> Any:
    return cuvil.jit(define(source, env={"np": np, "math": math}), target=target)


def _run(fn: Any, args: tuple) -> tuple[str, Any, tuple]:
    """outcome() of `fn`, with the arguments as the call left them."""
    args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kind, value = _call(fn, args)
    return kind, value, args


def _call(fn: Any, args: tuple) -> tuple[str, Any]:
    try:
        with np.errstate(all="ignore"):
            return "value", fn(*args)
    except Exception as exc:  # noqa: BLE001 (compared with the other targets)
        return "raise", (type(exc), str(exc))


def assert_targets_agree(source: str, *args: Any) -> None:
    python = _run(_jitted(source, "cpu").py_func, args)
    for target in ("cpu", "cuda"):
        got = _run(_jitted(source, target), args)
        where = f"target={target!r} on {args!r}"
        assert got[0] == python[0], f"{where}: Python gave {python[:2]}, got {got[:2]}"
        if python[0] == "raise":  # what a failing call wrote is unspecified on CUDA (nothing is copied back)
            assert got[1] == python[1], where
            continue
        problems = differences((python[1],), (got[1],), "result") if python[1] is not None else (
            [] if got[1] is None else [f"result: expected None, got {got[1]!r}"])
        assert not problems, f"{where}: {problems}"
        assert not differences(python[2], got[2], "args"), f"{where}: {differences(python[2], got[2], 'args')}"


def _edges(target: str, source: str) -> list[Any]:
    """Values of `source` at and beside the limits of `target` (and of `source` itself)."""
    t, s = np.iinfo(target), (np.iinfo(source) if np.dtype(source).kind in "iu" else None)
    ints = {int(t.min), int(t.max), int(t.min) - 1, int(t.max) + 1, -1, 7}
    if s is not None:
        return sorted(v for v in ints | {int(s.min), int(s.max)} if s.min <= v <= s.max)
    floats = [float(v) for v in sorted(ints)] + [2.5e19, -1e19, 9.3e18, math.nan, math.inf, -math.inf, 300.75]
    if t.min == 0 and t.bits >= 32:  # a NaN, an infinity or a float beyond uint32's (uint64's) range and int64's:
        floats = [v for v in floats if -2.0**63 <= v <= t.max]  # the CPU saturates where NumPy gives another
        # value (a C cast out of range, with NumPy's RuntimeWarning): left open, the CPU's difference, not CUDA's
    return floats


STORES = {
    "loop": "def f(o, x):\n    for i in range(len(x)):\n        o[i] = x[i]\n",
    "single": "def f(o, x):\n    o[1] = x[1]\n",
    "slice": "def f(o, x):\n    o[0:2] = x[1]\n",
}


@pytest.mark.parametrize("source", ("int64", "uint64", "float64"))
@pytest.mark.parametrize("target", INTS)
def test_narrow_store_in_a_loop(target, source):
    """Every integer array, every edge value of an int64, uint64 and float64 element: Python's OverflowError or
    ValueError where NumPy's setitem refuses the value, at the same element (the one before it is written)."""
    for value in _edges(target, source):
        assert_targets_agree(STORES["loop"], np.zeros(3, target), np.array([1, value, 2], source))


@pytest.mark.parametrize("form", ("single", "slice"))
@pytest.mark.parametrize("target", ("int8", "int16", "uint8", "uint16"))
def test_narrow_store_forms(form, target):
    for value in _edges(target, "int64") + [300.5, math.nan]:
        source = "float64" if isinstance(value, float) else "int64"
        assert_targets_agree(STORES[form], np.zeros(3, target), np.array([1, value, 2], source))


@pytest.mark.parametrize("target", ("int8", "int16", "uint8"))
def test_narrow_store_of_computed_values(target):
    """A computed element (`x[i] * 2`), an update (`o[i] += x[i]`), a Python int made in the loop, a 2-D store."""
    programs = (
        "def f(o, x):\n    for i in range(len(x)):\n        o[i] = x[i] * 2\n",
        "def f(o, x):\n    for i in range(len(x)):\n        o[i] += x[i]\n",
        "def f(o, x):\n    for i in range(len(x)):\n        o[i] = i * x[0]\n",
    )
    for value in (100, 127, 128, 40000, -129):
        for source in programs:
            assert_targets_agree(source, np.zeros(3, target), np.array([value, value, 3]))
        assert_targets_agree("def f(o, x):\n    for i in range(len(x)):\n        o[1, i] = x[i]\n",
                             np.zeros((2, 3), target), np.array([value, value, 3]))


ZERO_D = (
    "def f(z, x):\n    return z + x\n",
    "def f(z, x):\n    return x * z\n",
    "def f(z, x):\n    return z[()] + x\n",
    "def f(z, x):\n    return np.where(x > 1, z, x)\n",
    "def f(z, x):\n    return z\n",
    "def f(z, x):\n    return z.copy()\n",
    "def f(z, x):\n    return z.astype(np.float32)\n",
    "def f(z, x):\n    return -z\n",
    "def f(z, x):\n    return z > 1\n",
    "def f(z, x):\n    return np.sqrt(z)\n",
    "def f(z, x):\n    y = np.empty_like(z)\n    y[()] = 3\n    return y\n",
    "def f(z, x):\n    z[()] = x[0]\n",
    "def f(z, x):\n    return z.sum()\n",
    "def f(z, x):\n    return z, x\n",
    "def f(z, x):\n    for i in range(len(x)):\n        x[i] = x[i] + z[()]\n",
)


@pytest.mark.parametrize("source", ZERO_D, ids=[s.splitlines()[-1].strip() for s in ZERO_D])
@pytest.mark.parametrize("dtype", ("float64", "int8"))
def test_zero_d_arrays(source, dtype):
    """A 0-d array as an operand beside 1-d and 2-d arrays, returned, copied, stored into: a 0-d array on every
    target (NumPy's shape (), never (1,))."""
    for x in (np.arange(3, dtype=dtype), np.arange(6, dtype=dtype).reshape(2, 3)):
        if "x[i]" in source and x.ndim > 1 or "x[0]" in source and x.ndim > 1:
            continue
        assert_targets_agree(source, np.array(2, dtype), x)


WHOLE_UPDATES = (
    ("def f(z, x):\n    x *= 2\n", 2),
    ("def f(z, x):\n    x += z\n", 2),
    ("def f(z, x):\n    z += 1\n    return z\n", 2),
    ("def f(z, x):\n    for k in range(2):\n        x -= z\n", 3),
)


@pytest.mark.parametrize("source, line", WHOLE_UPDATES, ids=[s.splitlines()[-1].strip() for s, _ in WHOLE_UPDATES])
def test_whole_array_update_is_the_cpus_or_refused_on_cuda(source, line):
    """`x *= 2` of a whole array that the lowering leaves as written: the CPU updates the caller's array; CUDA
    ran it on the host over a device copy (or on one thread over a local view) and lost the write. It is
    refused at its line until it is lowered to a kernel."""
    args = (np.array(2.0), np.arange(3.0))
    python = _run(_jitted(source, "cpu").py_func, args)
    cpu = _run(_jitted(source, "cpu"), args)
    assert (python[1] is None) == (cpu[1] is None)
    assert not differences((*python[2], *[python[1]] * (python[1] is not None)),
                           (*cpu[2], *[cpu[1]] * (cpu[1] is not None)), "cpu")
    with pytest.raises(cuvil.CuvilSyntaxError, match="in-place update of a whole array") as info:
        _jitted(source, "cuda")(*args)
    assert info.value.lineno == line


@pytest.mark.parametrize("source, line", [
    ("def f(x, o):\n    np.add(x, x, out=o)\n", 2),
    ("def f(x, o):\n    for i in range(2):\n        np.multiply(x, i, out=o)\n", 3)])
def test_ufunc_out_is_refused_on_cuda(source, line):
    """`np.add(x, y, out=o)` the lowering leaves as written ran on the host, whose NumPy raised its raw
    'return arrays must be of ArrayType' for the device array: refused at the line, with what to write."""
    args = (np.arange(3.0), np.zeros(3))
    with pytest.raises(cuvil.CuvilSyntaxError, match="out= array") as info:
        _jitted(source, "cuda")(*args)
    assert info.value.lineno == line
    written = source.replace("np.add(x, x, out=o)", "o[:] = x + x").replace(
        "np.multiply(x, i, out=o)", "o[:] = x * i")  # what the refusal says to write
    assert_targets_agree(written, *args)


_PUT = "def put(o, i, v):\n    o[i] = v\n\ndef f(o, x):\n    for i in range(3):\n        put(o, i, x[i])\n"
CALLEES = {  # a callee (a device function on CUDA) doing what Python or NumPy checks: name → (source, args)
    "narrow store": (_PUT, (np.zeros(3, np.int8), np.array([1, 200, 3]))),
    "float store": (_PUT, (np.zeros(3, np.int16), np.array([1.0, np.nan, 3.0]))),
    "Python int product": ("def put(o, i, v):\n    o[i] = v * 4\n\ndef f(o, x):\n    for i in range(3):\n"
                           "        put(o, i, 2**62)\n", (np.zeros(3, np.int64), np.zeros(3))),
    "math domain": ("def root(v):\n    return math.sqrt(v)\n\ndef f(o, x):\n    for i in range(3):\n"
                    "        o[i] = root(x[i])\n", (np.zeros(3), np.array([1.0, -1.0, 4.0]))),
}


@pytest.mark.parametrize("name", list(CALLEES))
def test_checked_operation_in_a_callee_is_refused_on_cuda(name):
    """A device function has no error slot: where the CPU raises Python's or NumPy's error, the callee computed
    another value (int8 200 stored as -56, 2**64 as 0, sqrt(-1) as nan). Refused at the callee's line."""
    source, args = CALLEES[name]
    python, cpu = _run(_jitted(source, "cpu").py_func, args), _run(_jitted(source, "cpu"), args)
    assert python[0] == cpu[0] == "raise" and python[1][0] is cpu[1][0]  # (Cuvil's int64 words for an int)
    with pytest.raises(cuvil.CuvilSyntaxError, match="a function called from a CUDA kernel cannot report") as info:
        _jitted(source, "cuda")(*args)
    assert info.value.lineno == 2


WRAPPING = (  # NumPy's int64 arithmetic wraps; LLVM folded what Numba marked `nsw` (runtime/wrapping.py)
    "def f(o, x):\n    for i in range(x.shape[0]):\n        o[i] = x[i] + 1 > x[i]\n",
    "def f(o, x):\n    for i in range(x.shape[0]):\n        o[i] = (x[i] * 2) // 2 == x[i]\n",
    "def f(o, x):\n    o[:] = x + (-9223372036854775808) < 0\n",
    "def f(o, x):\n    s = x[0]\n    for i in range(x.shape[0]):\n        s += x[i]\n        o[i] = s > x[i]\n",
)


@pytest.mark.parametrize("source", WRAPPING)
def test_int64_overflow_wraps_on_both_targets(source):
    x = np.array([2**63 - 1, -(2**63), -1, 0, 2**62], np.int64)
    assert_targets_agree(source, np.zeros(5, np.bool_), x)


ELEMENT_REDUCTIONS = (  # a reduction per iteration of a host loop, stored into an element: the temporary holding
    # it is assigned in a single-thread kernel before it is read, never taken from the previous iteration
    "def f(x, o):\n    for i in range(x.shape[0]):\n        o[i] = np.sum(x[:i])\n",
    "def f(x, o):\n    for i in range(x.shape[0]):\n        o[i] = x[i:].max()\n",
    "def f(x, o):\n    for i in range(1, x.shape[0]):\n        o[i] = np.sum(x[:i] * 2.0)\n",
)


@pytest.mark.parametrize("source", ELEMENT_REDUCTIONS, ids=[s.splitlines()[-1].strip() for s in ELEMENT_REDUCTIONS])
@pytest.mark.parametrize("n", (1, 3, 40))
def test_reduction_stored_into_an_element_in_a_loop(source, n):
    x = np.linspace(-1.0, 2.0, n)
    assert_targets_agree(source, x, np.zeros(n))
