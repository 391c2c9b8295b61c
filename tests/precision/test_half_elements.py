"""Single elements of half arrays (`h[i]` of a float16 array or a bfloat16 tensor) in every use — an argument of
each NumPy function that takes a number, beside every other kind of number, returned, stored, compared,
`.item()`, float()/int()/bool(), in tuples — give NumPy's answer: its value, type and dtype (issue 36, class 5).

float16 is compared with NumPy running the plain function, bit for bit where the result is a half. bf16 has no
NumPy type; NumPy's rules are used for both halves (docs/semantics.md), so its reference is the plain function
run on the bf16 values held in float32, rounded to bf16 once where the float16 run gives a half (a bf16 array
result comes back as a bf16 tensor, a scalar as the np.float32 it equals). What compiled code cannot compute as
NumPy does (a half range: every step rounded in NumPy's order) is refused at the line, never a different number.
"""

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

torch = pytest.importorskip("torch")

H = np.array([1.5, 2.25, -3.0, np.nan, 0.0, 65504.0, 6e-08, -0.0], np.float16)
OTHERS = {"f32": np.array([1.1, -2.2], np.float32), "f64": np.array([1.1, -2.2]), "i8": np.array([3, -4], np.int8),
          "i32": np.array([7, -9], np.int32), "u8": np.array([200, 1], np.uint8), "b": np.array([True, False])}
NUMBERS = ("1", "1.5", "f32[0]", "f64[0]", "i8[0]", "i32[0]", "u8[0]", "b[0]", "h[1]")

# One use per row; `X` is h[0] and h[3] (NaN), `Y` each number of NUMBERS.
UNARY = [
    "X", "-X", "abs(X)", "np.abs(X)", "np.sqrt(X)", "np.exp(X)", "np.floor(X)", "np.round(X)", "np.isnan(X)",
    "np.isfinite(X)", "np.sign(X)", "float(X)", "bool(X)", "X.item()", "np.float32(X)", "np.float64(X)",
    "np.float16(X)", "X.astype(np.float32)", "X.astype(np.float64)", "np.full(3, X)", "np.full(2, X, np.float32)",
    "np.array(X)", "np.asarray(X)", "np.array((X, X))", "np.clip(X, 0, 2)", "np.clip(X, h[1], h[2])",
    "np.where(X > 1, X, h[1])", "np.where(X > 1, 2.0, X)", "np.geomspace(h[0], h[1], 4)", "(X, h[1])",
    "X == X", "X > 1", "X < h[1]", "np.maximum(X, 0)", "np.minimum(X, 1.5)",
]
BINARY = ["X + Y", "Y * X", "X / Y", "X > Y", "np.maximum(X, Y)", "np.array((X, Y))", "np.asarray((Y, X))",
          "np.where(X > 0, X, Y)", "np.clip(X, Y, 3)", "(X, Y)", "np.hypot(X, Y)", "np.power(X, Y)"]
FINITE = ["int(X)", "round(X)", "np.int8(X)", "np.int32(X)"]  # of h[0], h[1]: NaN is an error of its own
DTYPES = ["np.array((1.5, 2.5), np.float16)", "np.array((1.5, X), h.dtype)", "f32.astype(h.dtype)",
          "np.full(2, 1.5, h.dtype)", "np.zeros_like(f32, dtype=h.dtype)", "np.full_like(f32, X, h.dtype)"]
REFUSED = ["np.linspace(0.0, X, 4)", "np.linspace(X, h[1], 4)", "np.logspace(X, h[1], 4)",
           "np.arange(0.0, 2.0, 0.5, dtype=np.float16)", "np.linspace(0.0, 1.0, 4, dtype=np.float16)",
           "np.geomspace(1.0, 2.0, 4, dtype=np.float16)", "np.arange(3, dtype=h.dtype)",
           "np.asarray(f32, np.float16)", "np.array(f64, h.dtype)"]
STORES = [  # (setup, the statement, what is returned)
    ("o = np.zeros(2, np.float32)", "o[0] = X", "o"), ("o = np.zeros(2, np.float64)", "o[1] = X", "o"),
    ("o = np.zeros(2, np.int8)", "o[0] = h[1]", "o"), ("o = np.zeros(2, np.bool_)", "o[0] = X", "o"),
    ("o = np.zeros(2, h.dtype)", "o[0] = X", "o"), ("o = np.zeros(2, h.dtype)", "o[0] = f64[0]", "o"),
    ("s = 0.0", "s += X", "s"), ("s = f32[0]", "s += X", "s"),
]


def _sources() -> list[str]:
    out = [e.replace("X", v) for e in UNARY for v in ("h[0]", "h[3]")]
    out += [e.replace("X", "h[0]").replace("Y", y) for e in BINARY for y in NUMBERS]
    out += [e.replace("X", "h[1]") for e in FINITE + DTYPES]
    return [f"def f(h, f32, f64, i8, i32, u8, b):\n    return {e}\n" for e in dict.fromkeys(out)]


STORE_SOURCES = [f"def f(h, f32, f64, i8, i32, u8, b):\n    {setup}\n    {stmt.replace('X', 'h[0]')}\n"
                 f"    return {back}\n" for setup, stmt, back in STORES]


@functools.cache
def _jitted(source: str) -> Any:
    return cuvil.jit(define(source, env={"np": np, "math": math}))


def _call(fn: Any, h: Any) -> tuple[str, Any]:
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "value", fn(h, *OTHERS.values())
    except Exception as exc:  # noqa: BLE001 (compared with the other side)
        return "raise", (type(exc), str(exc))


def _same(expected: Any, got: Any, path: str = "result") -> list[str]:
    """compare.differences, and bit for bit where NumPy's result is a half."""
    if isinstance(expected, tuple) and isinstance(got, tuple) and len(expected) == len(got):
        return [p for k, (e, g) in enumerate(zip(expected, got)) for p in _same(e, g, f"{path}[{k}]")]
    problems = differences(expected, got, path)
    if not problems and getattr(expected, "dtype", None) == np.float16:
        e, g = np.asarray(expected), np.asarray(got)
        if not np.array_equal(e.view(np.uint16), g.view(np.uint16)) and not np.array_equal(e, g, equal_nan=True):
            problems.append(f"{path}: {g!r} is not NumPy's {e!r} bit for bit")
    return problems


@pytest.mark.parametrize("source", _sources() + STORE_SOURCES, ids=lambda s: s.split("\n", 1)[1].strip())
def test_float16_element_is_numpys(source):
    fn = _jitted(source)
    expected, got = _call(fn.py_func, H.copy()), _call(fn, H.copy())
    assert expected[0] == got[0] == "value" or got == expected, f"expected {expected}, got {got}"
    if expected[0] == "value":
        assert not _same(expected[1], got[1]), _same(expected[1], got[1])


def _bf16(values: Any) -> Any:
    return torch.tensor(np.asarray(values, np.float32)).to(torch.bfloat16)


def _bf16_reference(fn: Any, held: np.ndarray) -> tuple[str, Any]:
    """The plain function on the bf16 values held in float32, rounded to bf16 once where a float16 run of the
    same function gives a half: a bf16 tensor for an array, the np.float32 it equals for a number."""
    with np.errstate(over="ignore"):  # 65504 rounds to bf16's 65536, beyond float16
        as_half = _call(fn, held.astype(np.float16))
    kind, value = _call(fn, held)
    if kind == "raise" or as_half[0] == "raise":
        return kind, value

    def shaped(half: Any, wide: Any) -> Any:
        if isinstance(half, tuple):
            return tuple(shaped(a, b) for a, b in zip(half, wide))
        if isinstance(half, np.ndarray) and half.dtype == np.float16:
            return _bf16(wide)
        if isinstance(half, np.float16):
            return np.float32(_bf16(wide).float().item())
        return wide

    return kind, shaped(as_half[1], value)


@pytest.mark.parametrize("source", _sources() + STORE_SOURCES, ids=lambda s: s.split("\n", 1)[1].strip())
def test_bf16_element_is_numpys_rule_rounded_to_bf16(source):
    if "np.float16" in source or "h.dtype" in source:
        pytest.skip("np.float16 names fp16 itself, not the bf16 of the function; h.dtype is a torch dtype")
    h = _bf16(H)
    held = h.float().numpy()
    fn = _jitted(source)
    expected, got = _bf16_reference(fn.py_func, held), _call(fn, h)
    assert expected[0] == got[0] == "value" or got == expected, f"expected {expected}, got {got}"
    if expected[0] == "value":
        assert not _bf16_differences(expected[1], got[1], "result"), _bf16_differences(expected[1], got[1], "result")


def _bf16_differences(e: Any, g: Any, path: str) -> list[str]:
    """An array result comes back as a torch tensor (a torch argument came in): a bf16 one where the reference
    is bf16, else the reference's dtype; the rest as compare.differences sees it."""
    if isinstance(e, tuple) and isinstance(g, tuple) and len(e) == len(g):
        return [p for k, (a, b) in enumerate(zip(e, g)) for p in _bf16_differences(a, b, f"{path}[{k}]")]
    if isinstance(e, torch.Tensor | np.ndarray) or isinstance(g, torch.Tensor):
        if not isinstance(g, torch.Tensor):
            return [f"{path}: expected a tensor like {e!r}, got {g!r}"]
        if isinstance(e, torch.Tensor):
            return [f"{path}: expected {e!r}, got {g!r}"] if g.dtype != e.dtype or not torch.equal(
                g.isnan(), e.isnan()) or not torch.equal(g.nan_to_num(), e.nan_to_num()) else []
        return differences(e, g.numpy(), path)
    return differences(e, g, path)


@pytest.mark.parametrize("use", REFUSED)
@pytest.mark.parametrize("storage", ("float16", "bfloat16"))
def test_half_range_is_refused_at_its_line(use, storage):
    source = f"def f(h, f32, f64, i8, i32, u8, b):\n    return {use.replace('X', 'h[0]')}\n"
    if storage == "bfloat16" and ("np.float16" in use or "h.dtype" in use):
        pytest.skip("np.float16 in a bf16 function is refused on its own; h.dtype is a torch dtype")
    h = H.copy() if storage == "float16" else _bf16(H)
    with pytest.raises(cuvil.CuvilTypeError, match="with a (float16|bfloat16) (result|dtype)") as info:
        _jitted(source)(h, *OTHERS.values())
    assert info.value.lineno == 2
