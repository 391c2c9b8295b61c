"""What Cuvil knows about NumPy, `math` and builtin calls and array methods: ONE table.

Every stage that must know what a call does besides computing its value reads it here — the alias analysis
(may the result view an argument?), the dependence analysis (which arguments does it write? may it raise? must
its calls run in order?), the shape analysis and code generation — so no module keeps a private list of "pure"
or "allocating" names that could disagree with this one (a race once got past the dependence test that way).

A call that is not in the table, and not a function Cuvil compiles itself (those are analysed transitively), is
`UNKNOWN`: it may write every array it receives, return a view of any of them, raise, and depend on order.

This module imports only NumPy: the front end reads it before Numba or libcst is needed.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .math_errors import DOMAINS, MATH_RAISES, math_name  # noqa: F401 (one library: read from here)
from .replaced import HELPERS

SELF = "self"  # the array a method is called on
_AXIS_REDUCTIONS = ("var", "std", "mean", "max", "min", "median")  # runtime/axis_reductions.py's <name>_axes


@dataclasses.dataclass(frozen=True)
class Arg:
    """An argument of a call: by position and/or by keyword (`out` is the ufuncs' position `nin` or `out=`)."""

    position: int | None = None
    keyword: str | None = None


@dataclasses.dataclass(frozen=True)
class Entry:
    name: str  # "numpy.add", "math.sqrt", "len", or ".fill" for a method
    writes: tuple[Arg | str, ...] = ()  # arguments written in place (SELF for a method's array)
    views: tuple[Arg | str, ...] = ()  # arguments the result may be a view of; otherwise it is fresh
    raises: str | None = None  # None (never), or a reason: see RAISES
    ordered: bool = False  # consecutive calls must run in program order (print, random numbers)
    kind: str = ""  # what the result is, for the type, shape and lowering rules: see KINDS


# Why a call may raise. "empty" and "dims" are checks a parallel loop can evaluate before the call (the
# argument is empty; a dim is negative); "opaque" cannot be checked from outside the call.
RAISES = {
    "empty": "a reduction without identity of an empty array raises ValueError",
    "domain": "a math function outside its domain or range raises ValueError or OverflowError (DOMAINS)",
    "int": "Python int arithmetic whose result does not fit in int64 raises OverflowError (OVERFLOWS)",
    "dims": "a dim that may be negative raises ValueError",
    "division": "a Python number's division by zero raises ZeroDivisionError (DIVISIONS)",
    "span": "a range whose stop - start does not fit in int64 raises OverflowError (SPANS)",
    "opaque": "may raise in ways Cuvil cannot test before the call",
}


def shown(name: str) -> str:
    """The function a user wrote, for a Cuvil helper that stands for it (messages name what the user wrote):
    runtime/pymath.py's for `math` calls, library/replaced.py's, and the helpers along axes (`var_axes`,
    `argmax_axis` …) for NumPy's; any other name as it is."""
    module, _, helper = name.rpartition(".")
    if module == "cuvil.runtime.pymath":
        return math_name(helper)
    if module == "cuvil.runtime.axis_reductions" and helper.endswith("_axes") or \
            module == "cuvil.runtime.axes" and helper.endswith("_axis"):
        return {"norm_axis": "numpy.linalg.norm"}.get(helper, "numpy." + helper[:-5])
    return HELPERS.get(name, name)

# Python's int arithmetic on int64 (runtime/pyint.py: `add(a, b, True)` tests for overflow): the operation
# without its check, once the test is known false.
OVERFLOWS = {"add": "{a} + {b}", "sub": "{a} - {b}", "mul": "{a} * {b}", "neg": "-{a}"}

# `range(a, b, ...)` over a span beyond int64, which Numba counts wrapped (runtime/pyint.range_stop): the
# condition (no arithmetic in it can wrap), CPython's count being what compiled code cannot hold.
SPAN_MESSAGE = ("range() holds more integers than int64 can count: compiled code counts a loop's iterations in "
                "int64 (Python does not); split the range in two")
SPANS = {"range_stop": "{a} < 0 and {b} > 9223372036854775807 + {a} or {b} < 0 and {a} > 9223372036854775807 + {b}"}

# `//`, `%`, `/` and divmod() of Python numbers (runtime/pyint.py, lower/zerodivision.py): CPython's
# ZeroDivisionError message (Python 3.11) when the divisor is 0, and the operation when it is not; `py_float_*`
# when an operand is a float.
DIVISIONS = {
    "py_floordiv": ("integer division or modulo by zero", "{a} // {b}"),
    "py_mod": ("integer modulo by zero", "{a} % {b}"),
    "py_truediv": ("division by zero", "{a} / {b}"),
    "py_float_floordiv": ("float floor division by zero", "{a} // {b}"),
    "py_float_mod": ("float modulo", "{a} % {b}"),
    "py_float_truediv": ("float division by zero", "{a} / {b}"),
    "py_divmod": ("integer division or modulo by zero", "divmod({a}, {b})"),
    "py_float_divmod": ("float divmod()", "divmod({a}, {b})"),
}

# lower/division_into.py's integer division into an existing array (its first argument, also its value)
INTO = tuple(f"cuvil.runtime.division_into.{n}_into" for n in ("floor_divide", "remainder", "fmod", "left_shift",
                                                                  "right_shift"))
UPDATES = tuple(f"cuvil.runtime.division_into.{n}_update" for n in ("floor_divide", "remainder"))  # `t //= v`

# The check helpers that take the user's line as `at=<line>` (lower/located.py) and raise with it, for the
# dispatcher to raise their error at that line (runtime/where.py).
LOCATED = frozenset({"cuvil.runtime.checks.index", "cuvil.runtime.checks.list_index",
                     "cuvil.runtime.inplace.inplace_value",
                     "cuvil.runtime.inplace.ufunc_out", "cuvil.runtime.intrinsics.ufunc_out",
                     "cuvil.runtime.intrinsics.py_pow", "cuvil.runtime.intrinsics.pow_exponent",
                     "cuvil.runtime.intrinsics.math_pow", *(f"cuvil.runtime.library_checks.{n}" for n in (
                         "one_element", "nonnegative_dims", "reshapes", "fits_into", "scale", "arange_step",
                         "arange_float_step", "unpacks", "sequence_into_element", "truth")),
                     "cuvil.runtime.intrinsics.inplace_value", "cuvil.runtime.big_ints.beyond_int64",
                     "cuvil.runtime.histograms.histogram", "cuvil.runtime.products.cross", "cuvil.runtime.tiles.tile",
                     "cuvil.runtime.copies.copyto",
                     *(f"cuvil.runtime.axes.{n}" for n in ("cumsum_axis", "cumprod_axis", "sort_axis", "argsort_axis",
                                                           "roll_axis", "norm_axis", "sort_in_place", "argmax_axis",
                                                           "argmin_axis")),
                     "cuvil.runtime.products.int_dot", "cuvil.runtime.products.int_matmul",
                     *(f"cuvil.runtime.axis_reductions.{n}_axes" for n in _AXIS_REDUCTIONS),
                     "cuvil.runtime.statistics.percentile", "cuvil.runtime.statistics.quantile",
                     "cuvil.runtime.masks.mask_read", "cuvil.runtime.masks.mask_store", "cuvil.runtime.items.item_at",
                     *(f"cuvil.runtime.ranges.{n}" for n in ("arange", "linspace", "linspace_step")),
                     *(f"cuvil.runtime.elementwise.{n}" for n in (
                         "broadcast_shape", "numpy_refuses", "python_int_as", "python_float_as", "numpy_int_as",
                         "clip_low", "clip_high")),
                     *(f"cuvil.runtime.pymath.{n}" for n in (*DOMAINS, *MATH_RAISES)), *INTO, *UPDATES,
                     *(f"cuvil.runtime.pyint.{n}" for n in (*OVERFLOWS, "arm_checked", "power", "lshift", "rshift",
                                                            "floordiv",
                                                            "absolute", "to_int", "round_int", "round_int_ndigits",
                                                            "as_index", "range_stop",
                                                            *DIVISIONS))})

UNKNOWN = Entry("<unknown>", writes=("*",), views=("*",), raises="opaque", ordered=True)
"""A call Cuvil knows nothing about; "*" stands for every array argument."""

_A0 = Arg(0)


def _ufunc_entries() -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for name in dir(np):
        value = getattr(np, name)
        if isinstance(value, np.ufunc):
            outputs = tuple(Arg(value.nin + k, "out" if k == 0 else None) for k in range(value.nout))
            out[f"numpy.{name}"] = Entry(f"numpy.{name}", writes=outputs, kind="ufunc")
    return out


def _entries(names: str, **fields: object) -> dict[str, Entry]:
    return {n: Entry(n, **fields) for n in names.split()}  # type: ignore[arg-type]


def _numpy(names: str, **fields: object) -> dict[str, Entry]:
    return _entries(" ".join(f"numpy.{n}" for n in names.split()), **fields)


def _methods(names: str, **fields: object) -> dict[str, Entry]:
    return _entries(" ".join(f".{n}" for n in names.split()), **fields)


KINDS = {
    "ufunc": "elementwise: NumPy resolves the dtype, operands broadcast",
    "allocate": "a fresh array of the shape its first argument gives",
    "like": "a fresh array (or a view, see views) of its first argument's shape",
    "view": "a view of the array it is called on or given",
    "cast": "a dtype constructor: a number, or an array, of that dtype",
    "sum": "a reduction in the dtype's sum type (small ints widen to int64, unsigned to uint64)",
    "mean": "a reduction in floating point (ints give float64)",
    "extreme": "a reduction in the array's own dtype (min, max)",
    "index": "a reduction to an int64 index or count",
    "logical": "a reduction to a bool",
}

_TABLE: dict[str, Entry] = {
    # allocation: fresh memory; a negative dim raises
    **_numpy("empty zeros ones full", raises="dims", kind="allocate"),
    **_numpy("empty_like zeros_like ones_like full_like copy array", kind="like"),
    **_numpy("arange linspace eye identity"),
    # results that may share memory with an argument
    **_numpy("asarray ascontiguousarray", views=(_A0,), kind="like"),
    **_numpy("asfortranarray ravel transpose squeeze expand_dims atleast_1d atleast_2d atleast_3d diagonal real "
             "imag swapaxes moveaxis flip fliplr flipud broadcast_to", views=(_A0,), kind="view"),
    **_numpy("reshape", views=(_A0,), raises="opaque", kind="view"),
    # reductions and other pure functions with fresh results
    **_numpy("sum prod nansum nanprod cumsum cumprod", writes=(Arg(3),), kind="sum"),
    **_numpy("mean std var nanmean nanstd nanvar", writes=(Arg(3),), kind="mean"),
    **_numpy("average nanmedian percentile quantile median", kind="mean"),
    **_numpy("any all", kind="logical"),
    **_numpy("count_nonzero", kind="index"),
    **_numpy("diff"),
    **_numpy("ptp", kind="extreme"),
    **_numpy("min max amin amax", writes=(Arg(2),), raises="empty", kind="extreme"),
    **_numpy("argmin argmax", writes=(Arg(2),), raises="empty", kind="index"),
    **_numpy("nanmin nanmax", raises="empty", kind="extreme"),
    **_numpy("nanargmin nanargmax", raises="empty", kind="index"),
    **_numpy("round around", writes=(Arg(2),)),
    **_numpy("clip take", writes=(Arg(3),)),
    **_numpy("where isclose allclose array_equal sort argsort nonzero flatnonzero unique searchsorted digitize "
             "histogram bincount interp convolve correlate trapz trapezoid polyval outer kron vdot inner tril "
             "triu roll repeat tile concatenate stack hstack vstack column_stack dstack append insert delete "
             "cross"),
    **_numpy("dot", writes=(Arg(2),), raises="opaque"),
    **_numpy("linalg.norm linalg.solve linalg.inv linalg.det linalg.eig linalg.eigh linalg.svd "
             "linalg.qr linalg.cholesky linalg.lstsq linalg.pinv linalg.matrix_power linalg.slogdet linalg.cond",
             raises="opaque"),
    # in place
    **_numpy("copyto place putmask put fill_diagonal", writes=(_A0,)),
    # stateful: the order of calls decides the result
    **_numpy("random.random random.rand random.randn random.randint random.uniform random.normal random.seed "
             "random.choice random.permutation random.standard_normal random.exponential random.poisson "
             "random.binomial", ordered=True),
    **_numpy("random.shuffle", writes=(_A0,), ordered=True),
    # math: scalars only. lower/math_calls.py calls runtime/pymath.py's helpers where CPython raises (below)
    **_entries(" ".join(f"math.{n}" for n in dir(math) if not n.startswith("_"))),
    **_entries("math.fmod math.remainder math.ldexp math.isqrt math.factorial math.comb math.perm math.gcd math.lcm "
               "math.modf math.cbrt math.isclose", raises="opaque"),
    # builtins
    **_entries("len abs int float bool complex round range"),
    **_entries("min max sum divmod pow", raises="opaque"),
    **_entries("print", ordered=True),
    **_entries(" ".join(f"cuvil.runtime.printing.{n}" for n in (  # text by object mode (lower/prints.py)
        "float32_text float16_text complex64_text int_str number_str number_repr number_format value_str value_repr "
        "value_format").split()), ordered=True),
    # array methods
    **_methods("copy", kind="like"),
    **_methods("astype flatten argsort nonzero dot conj conjugate round clip item"),
    **_methods("sum prod cumsum cumprod", kind="sum"),
    **_methods("mean std var", kind="mean"),
    **_methods("any all", kind="logical"),
    **_methods("min max", raises="empty", kind="extreme"),
    **_methods("argmin argmax", raises="empty", kind="index"),
    **_methods("view ravel transpose squeeze swapaxes T real imag", views=(SELF,), kind="view"),
    **_methods("reshape", views=(SELF,), raises="opaque", kind="view"),
    **_methods("fill sort put partition itemset", writes=(SELF,)),
    # dtype constructors: casts of numbers (and arrays)
    **_numpy("bool_ int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 complex64 "
             "complex128 intp uintp", kind="cast"),
    # Cuvil's own helpers in generated code: NumPy's elementwise meaning (runtime/elementwise.py), Python's
    # power (runtime/intrinsics.py), NumPy's in-place updates (runtime/inplace.py)
    **_entries("cuvil.runtime.elementwise.signed_unsigned_cmp"),  # lower/exact_comparisons.py
    **_entries("cuvil.runtime.elementwise.round_integer"),  # lower/builtin_calls.py
    **_entries("cuvil.runtime.elementwise.true_divide cuvil.runtime.elementwise.floor_divide "
               "cuvil.runtime.elementwise.remainder cuvil.runtime.elementwise.divmod_ "
               "cuvil.runtime.elementwise.left_shift cuvil.runtime.elementwise.right_shift"),
    **_entries("cuvil.runtime.elementwise.power cuvil.runtime.elementwise.broadcast_shape", raises="opaque"),
    **_entries(" ".join(HELPERS), raises="opaque"),  # NumPy's own, where Numba's differs (library/replaced.py)
    **_entries("cuvil.runtime.big_ints.beyond_int64", raises="opaque"),  # an int outside int64 (lower/big_ints.py)
    **_entries("cuvil.runtime.elementwise.python_int_as cuvil.runtime.elementwise.python_float_as",
               raises="opaque"),  # a Python number fitted to an array's dtype before a loop (lower/element.py)
    **_entries("cuvil.runtime.elementwise.float_as_unsigned"),  # NumPy's C cast into uint32/64 (lower/python_ints.py)
    **_entries("cuvil.runtime.elementwise.clip_low cuvil.runtime.elementwise.clip_high",
               raises="opaque"),  # np.clip's Python int bounds (lower/library_results.py)
    **_entries(" ".join(f"cuvil.runtime.vmath.{f}" for f in ("maximum minimum maximum_nonan minimum_nonan "
                                                              "exp_f32 exp_f64 log_f32 log_f64 tanh_f32 "
                                                              "tanh_f64 erf_f32 erf_f64 sigmoid_f32 "
                                                              "sigmoid_f64").split())),
    **_entries("cuvil.runtime.reorder.add_any_order"),
    **_entries("cuvil.runtime.axes.cumsum_axis cuvil.runtime.axes.cumprod_axis cuvil.runtime.axes.sort_axis "
               "cuvil.runtime.axes.argsort_axis "
               "cuvil.runtime.axes.roll_axis cuvil.runtime.axes.norm_axis", raises="opaque"),  # np.cumprod(a, axis=k),
    # np.sort, np.argsort, np.roll, np.linalg.norm
    **_entries("cuvil.runtime.wrapping.add cuvil.runtime.wrapping.sub cuvil.runtime.wrapping.mul"),  # NumPy's int64
    # + - *, wrapping (lower/wrapping.py): pure, raise nothing
    **_entries("cuvil.runtime.axes.sort_in_place", writes=(Arg(0),), raises="opaque"),  # a.sort(axis=k)
    **_entries("cuvil.runtime.items.item_at", raises="opaque"),  # a.item(k) (lower/pyscalars.py)
    **_entries("cuvil.runtime.masks.mask_read", raises="opaque"),  # a[m] of a 2-D or deeper mask (lower/masks.py)
    **_entries("cuvil.runtime.masks.mask_store", writes=(Arg(0),), raises="opaque"),  # a[m] = v
    **_entries("cuvil.runtime.axes.argmax_axis cuvil.runtime.axes.argmin_axis", raises="opaque"),
    **_entries(" ".join(f"cuvil.runtime.axis_reductions.{n}_axes" for n in _AXIS_REDUCTIONS),
               raises="opaque"),  # np.var(a, axis=k), np.mean(a, axis=(0, 1)) … (runtime/axis_reductions.py)
    **_entries("cuvil.runtime.folds.python_sum cuvil.runtime.folds.python_any cuvil.runtime.folds.python_all"),
    # sum(a), max(a), min(a), any(a), all(a) of an array (lower/builtin_calls.py)
    **_entries("cuvil.runtime.folds.python_max cuvil.runtime.folds.python_min", raises="opaque"),
    **_entries("cuvil.runtime.statistics.var cuvil.runtime.statistics.std "
               "cuvil.runtime.statistics.median"),  # np.var(a): nan for an empty a (np.median: or a NaN in it)
    **_entries("cuvil.runtime.statistics.percentile cuvil.runtime.statistics.quantile",
               raises="opaque"),  # np.percentile(a, q): NumPy's IndexError for an empty a
    **_entries("cuvil.runtime.products.int_dot cuvil.runtime.products.int_matmul", raises="opaque"),
    **_entries("cuvil.runtime.ranges.arange", raises="opaque"),  # np.arange with float arguments
    **_entries("cuvil.runtime.ranges.linspace cuvil.runtime.ranges.linspace_step", raises="opaque"),  # np.linspace
    **_entries("cuvil.runtime.rounding.around cuvil.runtime.rounding.around_f16"),  # np.round in the dtype
    **_entries("cuvil.runtime.rounding.around_into", writes=(Arg(2),), views=(Arg(2),), raises="opaque"),
    **_entries("cuvil.runtime.intrinsics.py_pow cuvil.runtime.intrinsics.pow_exponent "
               "cuvil.runtime.intrinsics.math_pow", raises="opaque"),
    # lower/library_raises.py's checks before a statement Numba's library would fail in its own words
    **_entries(" ".join(f"cuvil.runtime.library_checks.{n}" for n in (
                                   "one_element", "reshapes", "fits_into", "scale", "arange_step",
                                   "arange_float_step", "unpacks", "sequence_into_element", "truth")),
               raises="opaque"),
    **_entries("cuvil.runtime.library_checks.nonnegative_dims", raises="dims"),
    **_entries("cuvil.runtime.messages.dims"),
    **_entries("cuvil.runtime.checks.index cuvil.runtime.checks.list_index", raises="opaque"),
    **_entries(" ".join(INTO), writes=(Arg(0),), views=(Arg(0),), raises="opaque"),
    **_entries(" ".join(UPDATES), writes=(Arg(0),), views=(Arg(0),), raises="opaque"),
    # lower/indirect.py's test before a loop: reads its arguments, writes none, cannot raise
    **_entries("cuvil.runtime.checks.within cuvil.runtime.checks.outside cuvil.runtime.parallel.overlaps "
               "cuvil.runtime.parallel.whole_rows cuvil.runtime.parallel.chunk_bounds"),
    **_entries(" ".join(f"cuvil.runtime.half.{f}" for f in ("f16_to_f32 bf16_to_f32 f16 bf16 round_f16 "
                                                             "round_bf16").split())),
    **_entries(" ".join(f"cuvil.runtime.pymath.{n}" for n in DOMAINS), raises="domain"),
    **_entries(" ".join(f"cuvil.runtime.pymath.{n}" for n in MATH_RAISES), raises="opaque"),
    **_entries("cuvil.runtime.pymath.round_ndigits cuvil.runtime.pymath.int_float_cmp cuvil.runtime.pymath.ulp "
               "cuvil.runtime.pymath.frexp cuvil.runtime.pymath.hypot cuvil.runtime.pymath.floor_float "
               "cuvil.runtime.pymath.ceil_float"),
    # `//`, `%`, `/` of Python numbers with CPython's ZeroDivisionError message: what the operators are
    **_entries(" ".join(f"cuvil.runtime.pyint.{n}" for n in DIVISIONS), raises="division"),
    **_entries(" ".join(f"cuvil.runtime.pyint.{n}" for n in OVERFLOWS), raises="int"),
    # these also raise ValueError (a negative shift or exponent, int(nan)):
    # a parallel loop cannot test them beforehand
    **_entries(" ".join(f"cuvil.runtime.pyint.{n}" for n in ("power lshift floordiv absolute to_int "
                                                             "round_int round_int_ndigits as_index").split()),
               raises="opaque"),
    **_entries("cuvil.runtime.pyint.range_stop", raises="span"),  # tested before a parallel loop, as "int"
    **_entries("cuvil.runtime.inplace.inplace_value", views=(Arg(1),), raises="opaque"),
    **_entries("cuvil.runtime.inplace.unshared", views=(Arg(1),)),
    **_entries("cuvil.runtime.inplace.ufunc_out", views=(Arg(0),), raises="opaque"),
    **_ufunc_entries(),  # last: `np.abs`, `np.maximum`, … are ufuncs, with `out`
}


OUT = "out"  # whatever the entry says, a keyword argument `out=` is written


def lookup(qualname: str) -> Entry:
    """The entry of a function by its qualified name (`numpy.linalg.norm`, `math.sqrt`, `len`); `UNKNOWN`."""
    return _TABLE.get(qualname, UNKNOWN)


def method(name: str) -> Entry:
    """The entry of an array method (or attribute, like `.T`) by name; `UNKNOWN`."""
    return _TABLE.get(f".{name}", UNKNOWN)


def named(*kinds: str) -> frozenset[str]:
    """The short names (`sum`, `zeros`) of NumPy functions and array methods of these kinds (see KINDS)."""
    return frozenset(e.name.rsplit(".", 1)[-1] for e in _TABLE.values() if e.kind in kinds
                     and (e.name.startswith(("numpy.", ".")) and e.name.count(".") <= 1))


def is_pure(entry: Entry) -> bool:
    """Calling it twice is indistinguishable from calling it once (for evaluating an operand twice)."""
    return not entry.writes and entry.raises is None and not entry.ordered
