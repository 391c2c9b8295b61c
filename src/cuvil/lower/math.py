"""Which compiled transcendental a lowered loop calls for `exp log tanh erf sigmoid` (issue 9 §7), and how a
float max/min reduction is written so that it vectorizes. The functions live in runtime/vmath.py; this module
only names them (lowering does not import the runtime).

Numba compiles `np.exp(x[i])` in a loop to a libm call per element, which LLVM never vectorizes (pip's
llvmlite has no SVML). runtime/vmath.py has polynomial and rational forms it does vectorize: 2.4-30x faster
than those calls, and alone within 2.2x of NumPy's own SIMD loops (faster for erf and sigmoid), before the
passes over memory that fusion saves (bench/vmath.md). They are used by default where their error from the
exact result is within NumPy's own tolerance (`DEFAULT_ULP`), so they are used with or without `fastmath`.

Errors, in ulp of the result (BOUNDS, asserted by tests/lower/test_math.py):
- `vs_numpy`: the largest distance, in representable numbers, from NumPy's own result for the same input
  (np.exp, np.log, np.tanh on the same dtype; `1 / (1 + np.exp(-x))` for sigmoid; CPython's math.erf,
  rounded, for erf, as NumPy has none).
- `vs_exact`: |ours - exact| / ulp(exact), exact = the float64 result (float32), or the x87 long double
  result, mpmath for erf (float64). `numpy_exact` is NumPy's own error by the same measure, for comparison.
  sigmoid's exact error is over the inputs where NumPy's formula does not overflow exp(-x) (x > -88.72 in
  float32, x > -709.78 in float64): below, NumPy (and this) give 0 where the exact value is tiny.
- float32 figures are the largest over all 2**32 inputs (`CUVIL_MATH_EXHAUSTIVE=1`, in `nox -s fuzz`).
  float64 ones are measurements, not proofs: the largest errors seen over 80M inputs per function (random
  bit patterns; uniform, log-uniform and near-threshold ranges; 80K for erf, whose exact value is mpmath's)
  were exp 0.975, log 0.857, tanh 1.056, erf 1.08, sigmoid 2.483 ulp; the bounds asserted leave a margin.

| function  | dtype   | vs NumPy | vs exact | NumPy vs exact |
|-----------|---------|----------|----------|----------------|
| exp       | float32 | 3        | 0.99     | 2.54           |
| exp       | float64 | 1        | 1.1      | 0.72           |
| log       | float32 | 4        | 0.85     | 3.83           |
| log       | float64 | 1        | 0.9      | 0.63           |
| tanh      | float32 | 3        | 2.62     | 1.37           |
| tanh      | float64 | 1        | 1.1      | 1.19           |
| erf       | float32 | 1        | 1.25     | 0.5            |
| erf       | float64 | 1        | 1.2      | 0.83           |
| sigmoid   | float32 | 4        | 2.49     | 3.68           |
| sigmoid   | float64 | 4        | 2.6      | 2.52           |

Reductions along an axis: `m = maximum_nonan(m, v)` with a NaN count beside it (`nan += v != v`; NaN wins at
the end) is LLVM's maxnum with `nnan nsz`, one vmaxps per 16 float32, and vectorizes with the count: 0.30
against 0.42 ms for the row maxima of 4096×1024 float32 on one core, where `m = maximum(m, v)` (llvm.maximum:
NaN and signed-zero ordering in the loop) was the fastest form before; `max(m, v)`, `v if v > m else m` and
`if v > m: m = v` stay scalar (0.56 ns/element). Which zero a max of +0 and -0 returns is unspecified, as in
NumPy (whose reductions return either, by position). Numba's parfor refuses these as prange reductions: a
whole-array reduction keeps `max(m, v)`.
"""

from __future__ import annotations

import dataclasses

MODULE = "cuvil.runtime.vmath"
DEFAULT_ULP = 4  # NumPy's own float32 exp/log are 2.5 and 3.8 ulp from exact; its tests allow 4


@dataclasses.dataclass(frozen=True)
class Bound:
    vs_numpy: int
    vs_exact: float
    numpy_exact: float


@dataclasses.dataclass(frozen=True)
class Entry:
    function: str
    bound: Bound

    def __post_init__(self) -> None:
        assert self.bound.vs_exact <= DEFAULT_ULP, f"{self.function} is outside NumPy's own tolerance"


_SUFFIX = {"float32": "f32", "float64": "f64"}

BOUNDS: dict[tuple[str, str], Entry] = {
    ("exp", "float32"): Entry("exp_f32", Bound(3, 0.99, 2.54)),
    ("exp", "float64"): Entry("exp_f64", Bound(1, 1.1, 0.72)),
    ("log", "float32"): Entry("log_f32", Bound(4, 0.85, 3.83)),
    ("log", "float64"): Entry("log_f64", Bound(1, 0.9, 0.63)),
    ("tanh", "float32"): Entry("tanh_f32", Bound(3, 2.62, 1.37)),
    ("tanh", "float64"): Entry("tanh_f64", Bound(1, 1.1, 1.19)),
    ("erf", "float32"): Entry("erf_f32", Bound(1, 1.25, 0.5)),
    ("erf", "float64"): Entry("erf_f64", Bound(1, 1.2, 0.83)),
    ("sigmoid", "float32"): Entry("sigmoid_f32", Bound(4, 2.49, 3.68)),
    ("sigmoid", "float64"): Entry("sigmoid_f64", Bound(4, 2.6, 2.52)),
}


def implementation(name: str, dtype: str) -> tuple[str, str] | None:
    """(module, function) the printer imports and calls per element for `name` ("exp", "log", "tanh", "erf",
    "sigmoid") computed in `dtype`; None: print the plain NumPy (or math) call."""
    entry = BOUNDS.get((name, dtype))
    return (MODULE, entry.function) if entry else None


def reduction(op: str, dtype: str) -> tuple[str, str] | None:
    """(module, function) for the update `m = f(m, v)` of a float `max`, `min` or `sum` reduction whose loop
    LLVM may vectorize (`dtype` is the accumulator's); None otherwise."""
    if dtype not in _SUFFIX or op not in ("max", "min", "sum"):
        return None
    if op == "sum":  # any order: NumPy's sums promise none (runtime/reorder.py)
        return "cuvil.runtime.reorder", "add_any_order"
    # NaN-blind and fast; the reduction counts NaNs beside it (lower/reductions.py, runtime/vmath.py)
    return MODULE, "maximum_nonan" if op == "max" else "minimum_nonan"
