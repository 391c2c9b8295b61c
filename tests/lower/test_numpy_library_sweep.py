"""Every often-used NumPy function Cuvil accepts whose implementation is Numba's (or Cuvil's own in its place,
library/replaced.py), against NumPy on each dtype: the same values, dtype, shape and exception type, for plain
values, values on edges (repeats, zeros), NaN and ±inf, and empty arrays. Compiled code may refuse a call
loudly instead (a CuvilTypeError at the line: Numba has no implementation for that dtype), never give another
answer. Found by this table and fixed: np.trapezoid (uint8 pairs wrapped in NumPy, not in Numba; float32 came
back float64), np.correlate of bools (int8, NumPy: bool), np.cross of bools (NumPy's TypeError),
np.linalg.pinv / inv / solve of float32 (NumPy computes in float64: a singular float32 matrix's pinv was 1e7s)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import cuvil
from tests.lower.compare import differences, jitted, outcome

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex128"]
KINDS = {"plain": [3, -1, 0, 2, 2, 7], "edges": [0, 1, 1, 2, 5, 5], "special": [1.5, np.nan, -np.inf, 0, np.inf, 2],
         "empty": []}
CALLS = [
    "np.sort(a)", "np.argsort(a)", "a.argsort()", "np.unique(a)", "np.cumsum(a)", "np.cumprod(a)", "np.diff(a)",
    "np.nonzero(a)", "np.flatnonzero(a)", "np.bincount(a)", "np.searchsorted(b, a)", "np.digitize(a, b)",
    "np.convolve(a, b)", "np.correlate(a, b)", "np.interp(a, b, b)", "np.outer(a, b)", "np.kron(a, b)",
    "np.vdot(a, b)", "np.inner(a, b)", "np.polyval(a, b)", "np.cross(a[:3], b[:3])", "np.trapezoid(a)",
    "np.trapezoid(a, b)", "np.roll(a, 2)", "np.repeat(a, 2)", "np.tile(a, 2)", "np.concatenate((a, b))",
    "np.append(a, b)", "np.corrcoef(a)", "np.cov(a)", "np.median(a)", "np.isclose(a, b)", "np.array_equal(a, b)",
    "np.allclose(a, b)", "np.where(a)", "np.count_nonzero(a)", "np.ptp(a)", "np.average(a)", "np.linalg.norm(a)",
    "np.stack((a, b))", "np.delete(a, 1)", "np.insert(a, 1, 5)", "np.tril(np.outer(a, b))", "np.histogram(a, 3)",
    "np.searchsorted(b, a, side='right')", "np.digitize(a, b, right=True)", "np.bincount(a, minlength=9)",
    "np.bincount(a, weights=b)", "np.diff(a, 2)", "np.interp(a, b, b, left=-1.0, right=9.0)", "np.histogram(a, b)",
    "np.percentile(a, 50)", "np.polyval(a, 2.5)",
]
LINALG = ["np.linalg.solve(a, b[:, 0])", "np.linalg.solve(a, b)", "np.linalg.inv(a)", "np.linalg.det(a)",
          "np.linalg.eigvals(a)", "np.linalg.eigh(a)", "np.linalg.svd(a)", "np.linalg.qr(a)", "np.linalg.cholesky(a)",
          "np.linalg.pinv(a)", "np.linalg.matrix_power(a, 3)", "np.linalg.lstsq(a, b[:, 0])", "np.linalg.norm(a)",
          "np.linalg.matrix_rank(a)", "np.linalg.slogdet(a)", "np.trace(a)", "np.dot(a, b)", "a @ b",
          "np.corrcoef(a, b)", "np.cov(a, b)", "np.cumsum(a)", "np.diff(a)", "np.sort(a)", "np.unique(a)"]
MATRICES = {"regular": [[2, 1, 0], [1, 3, 1], [0, 1, 4]], "singular": [[1, 2, 0], [2, 4, 0], [0, 0, 0]]}
KNOWN = {  # (call, dtype, kind): what differs still, and why it is left (a test that starts passing fails here)
    ("np.cov(a)", "complex128", "empty"): "the imaginary part of an empty complex cov: NumPy nan, Numba 0",
    ("np.ptp(a)", "bool", "empty"): "NumPy's ValueError for the empty array comes before its bool TypeError",
    ("np.percentile(a, 50)", "bool", "empty"): "NumPy's IndexError for the empty array comes before its TypeError",
    **{("np.bincount(a, weights=b)", t, "empty"): "NumPy's bincount of nothing is int64 even with weights"
       for t in ("int8", "uint8", "int32", "int64")},
}


def _array(dtype: str, kind: str) -> np.ndarray | None:
    values = KINDS[kind]
    if kind == "special" and dtype[0] in "biu":
        return None  # no NaN in an integer
    with np.errstate(all="ignore"):
        return np.array(values, float).astype(dtype) if dtype != "bool" else np.array(values, float) > 0


def _agrees(fn, a: np.ndarray, b: np.ndarray) -> str | None:
    """None where compiled code gives NumPy's answer or refuses loudly; else what differs."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected, got = outcome(fn.py_func, a, b), outcome(fn, a, b)
    if got[0] == "raise" and issubclass(got[1][0], cuvil.CuvilTypeError):
        return None  # refused at the line: no implementation for these dtypes
    if expected[0] == "raise" or got[0] == "raise":
        same = expected[0] == got[0] and expected[1][0] is got[1][0]
        return None if same else f"expected {expected}, got {got}"
    problems = differences(expected[1], got[1], "result")
    return "; ".join(problems) or None


@pytest.mark.parametrize("call", CALLS)
def test_numba_library_functions_agree_with_numpy(call: str) -> None:
    fn = jitted(f"def f(a, b):\n    return {call}\n")
    wrong = []
    for dtype in DTYPES:
        for kind in KINDS:
            a = _array(dtype, kind)
            if a is None:
                continue
            b = np.sort(_array(dtype, "edges" if kind != "empty" else "empty"))
            found = _agrees(fn, a, b)
            if (found is not None) != ((call, dtype, kind) in KNOWN):
                wrong.append(f"{dtype}/{kind}: {found or 'agrees now: take it off KNOWN'}")
    assert not wrong, f"{call}:\n  " + "\n  ".join(wrong)


@pytest.mark.parametrize("call", LINALG)
def test_linear_algebra_agrees_with_numpy(call: str) -> None:
    """Square matrices, regular and singular (NumPy's LinAlgError where it raises), of four dtypes."""
    fn = jitted(f"def f(a, b):\n    return {call}\n")
    wrong = []
    for dtype in ("int64", "float32", "float64", "complex128"):
        b = np.array(MATRICES["regular"], dtype)
        for kind, values in MATRICES.items():
            found = _agrees(fn, np.array(values, dtype), b)
            if found is not None:
                wrong.append(f"{dtype}/{kind}: {found}")
    assert not wrong, f"{call}:\n  " + "\n  ".join(wrong)
