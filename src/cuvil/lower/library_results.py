"""NumPy library calls whose Numba implementation gives another dtype or kind than NumPy's, rewritten by the
casts pass (lower/casts.py mixes this in) so the result is NumPy's:

    np.std(float32_array)      →  np.float32(std(x))           # Numba: float64 (std var median percentile …);
                                                               # NumPy's nan for an empty x (runtime/statistics.py),
                                                               # and for np.median(x) with a NaN in x;
                                                               # np.percentile(x, q), np.quantile: NumPy's
                                                               # IndexError for an empty x
    np.ptp(bool_array)         →  numpy_refuses(x, "numpy boolean subtract, …")   # Numba: a number or a crash
    np.clip(int32_array, 0.0, 2.5)  →  np.clip(x.astype(np.float64), 0.0, 2.5)    # lower/clips.py
    np.cumsum(3)               →  np.cumsum(np.full(1, 3))     # NumPy: array([3]); Numba: 3
    np.float32(array)          →  array.astype(np.float32)     # Numba: no such constructor
    a.swapaxes(0, 1)           →  np.swapaxes(a, 0, 1)         # Numba: no such method
    np.cumprod(a, axis=1)      →  cumprod_axis(a, 1)           # Numba: no axis (runtime/axes.py)
    np.argsort(a2d)            →  argsort_axis(a2d, -1)        # Numba: 1-D only; also np.sort(a, axis=0)
    a.sort(axis=0)             →  sort_in_place(a, 0)          # Numba: the method takes no axis
    np.argmax(a, axis=0)       →  argmax_axis(a, 0)            # Numba: ZeroDivisionError for an empty axis
    np.dot(int_a, int_b)       →  int_dot(a, b)                # Numba: BLAS only (also a.dot(b); a @ b: int_matmul)
    np.var(a, axis=1, ddof=1)  →  var_axes(a, 1, 1, False)     # Numba: no axis (runtime/axis_reductions.py)
    np.max(a, axis=(0, 2))     →  max_axes(a, (0, 2), False)   # Numba: no tuple of axes (also mean, min)
    np.median(a, axis=0)       →  median_axes(a, 0, False)     # Numba: no axis

The result types are analysis/numpy_rules.py's; what Numba returns anyway (int64, float64, bool, complex128
scalars) is left alone.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Refused, Scalar, ufunc_result
from .clips import Clips
from .linspaces import Linspaces
from .norms import norm_along
from .python_ints import fitted_copy
from .reductions import is_none, literal_int
from .replaced import replaced
from .roundings import Roundings

# Numba computes these in float64 (its ptp in int64 or float64) and returns that: NumPy's dtype is the array's
_WIDENED = frozenset("std var median nanstd nanvar nanmedian average percentile quantile nanpercentile "
                     "nanquantile ptp trace linalg.norm linalg.det nanmean".split())
_SUBTRACTING = frozenset("ptp percentile quantile nanpercentile nanquantile".split())  # refused for bools
_BOXED = ("float64", "int64", "bool", "complex128")  # what Numba returns anyway
# NumPy functions along an axis where Numba lacks one (runtime/axes.py): its helper, and the axis NumPy takes when
# none is given, where Numba's differs (argsort of a 2-D array: the last axis; Numba's argsort is 1-D only)
_ALONG = {"cumsum": ("cumsum_axis", None), "cumprod": ("cumprod_axis", None), "sort": ("sort_axis", None),
          "argsort": ("argsort_axis", -1)}
# NumPy reductions Numba takes no tuple of axes for (var and std: no axis at all), by runtime/axis_reductions.py's
# helper, and the keywords besides `axis` and `keepdims` each takes
_OVER_AXES = {"var": ("var_axes", ("ddof",)), "std": ("std_axes", ("ddof",)), "mean": ("mean_axes", ()),
              "max": ("max_axes", ()), "amax": ("max_axes", ()), "min": ("min_axes", ()), "amin": ("min_axes", ()),
              "median": ("median_axes", ())}
_DTYPE_CASTS = frozenset("int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 complex64 complex128 "
                         "bool_".split())


class LibraryResults(Clips, Linspaces, Roundings):
    """Mixed into lower/casts.Casts, whose `types`, `numpy`, `intrinsic` and `_call` these use."""

    types: Types
    numpy: Callable[[], str]
    intrinsic: Callable[[str, str], str]
    arrays_into: bool  # the target is the CPU

    def _call(self, node: cst.BaseExpression, dtype: str, array: bool) -> cst.BaseExpression:
        raise NotImplementedError

    def library_call(self, original: cst.Call, updated: cst.Call, name: str) -> cst.BaseExpression | None:
        """The rewritten call, or None where NumPy's and Numba's answers agree."""
        if name == "numpy.copyto":
            updated = fitted_copy(original, updated, self.types, self.numpy, self.intrinsic)
        own = replaced(name, updated, self.intrinsic) if self.arrays_into else None
        if own is not None:  # Cuvil's own helper: Numba's cannot give NumPy's answer (lower/replaced.py)
            return own
        positional = [a for a in updated.args if a.keyword is None]
        short = name[6:] if name.startswith("numpy.") else name[1:] if name.startswith(".") else ""
        if short in _OVER_AXES and (name.startswith("numpy.") or short in ("var", "std", "mean", "max", "min")):
            over = self._over_axes(original, updated, short, name.startswith("."))
            if over is not None:
                return over
        if name == "numpy.linalg.norm" and self.arrays_into:
            norm = norm_along(original, updated, self.types, self.intrinsic)
            if norm is not None:
                return norm
        if short in _WIDENED:
            return self._widened(original, updated, short)
        if short == "clip":
            return self.clip(original, updated)
        if name in ("numpy.cumsum", "numpy.cumprod") and positional and original.args[0].keyword is None \
                and isinstance(self.types.of(original.args[0].value), Scalar):
            # NumPy's cumulative sum of a number is a one-element array (Numba's, the number)
            one = cst.Call(cst.Attribute(cst.Name(self.numpy()), cst.Name("full")),
                           [cst.Arg(cst.Integer("1")), updated.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)])
            return updated.with_changes(args=[updated.args[0].with_changes(value=one), *updated.args[1:]])
        if name == "numpy.roll" and self.arrays_into:
            return self._roll(original, updated)
        if short in _ALONG and (name.startswith("numpy.") or short != "sort"):
            return self._along_axis(original, updated, short, name.startswith("."))
        if name == ".sort" and updated.args:  # `a.sort(k)` sorts in place along k: Numba's method takes no axis
            return self._sort_in_place(original, updated)
        if short in ("argmax", "argmin"):
            return self._arg_extreme(original, updated, short, name.startswith("."))
        if name == "numpy.arange":
            return self._arange(original, updated)
        if name == "numpy.linspace":
            return self.linspace(original, updated)
        if short == "prod":
            return self._prod_dtype(original, updated, name.startswith("."))
        if name in ("numpy.round", "numpy.around", ".round"):
            return self._round(original, updated, name == ".round")
        if name in ("numpy.dot", ".dot") and len(updated.args) == (1 if name == ".dot" else 2) \
                and all(a.keyword is None for a in updated.args):
            operands = [(cst.ensure_type(original.func, cst.Attribute).value,
                         cst.ensure_type(updated.func, cst.Attribute).value)] if name == ".dot" else []
            operands += [(o.value, u.value) for o, u in zip(original.args, updated.args, strict=True)]
            return self.integer_product([o for o, _ in operands], [u for _, u in operands], True)
        if name == ".swapaxes" and isinstance(original.func, cst.Attribute) \
                and isinstance(self.types.of(original.func.value), Array) and len(positional) == len(updated.args):
            owner = cst.ensure_type(updated.func, cst.Attribute).value  # Numba has np.swapaxes, not the method
            return cst.Call(cst.Attribute(cst.Name(self.numpy()), cst.Name("swapaxes")),
                            [cst.Arg(owner), *(a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in updated.args)])
        if name.startswith("numpy.") and short in _DTYPE_CASTS and len(updated.args) == 1 \
                and updated.args[0].keyword is None and isinstance(self.types.of(original.args[0].value), Array):
            return self._call(updated.args[0].value, np.dtype(short).name, True)  # Numba: no np.float32(array)
        return None

    def _roll(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression | None:
        """`np.roll(a, k, axis=j)` with an integer shift and axis: runtime/axes.roll_axis (Numba's takes no axis;
        without one, or `axis=None`, Numba's flattened roll is NumPy's)."""
        named = {a.keyword.value: a.value for a in updated.args if a.keyword is not None}
        given = [a.value for a in updated.args if a.keyword is None]
        if set(named) - {"shift", "axis"} or any(a.star for a in updated.args):
            return None
        values = dict(zip(("a", "shift", "axis"), given)) | named
        if set(values) != {"a", "shift", "axis"} or is_none(values["axis"]):
            return None
        originals = dict(zip(("a", "shift", "axis"), (a.value for a in original.args if a.keyword is None))) | {
            a.keyword.value: a.value for a in original.args if a.keyword is not None}
        if not all(isinstance(self.types.of(originals[k]), Scalar) and "int" in str(
                getattr(self.types.of(originals[k]), "dtype", "")) for k in ("shift", "axis")):
            return None  # a tuple of shifts or axes: Numba refuses it in its words
        helper = cst.Name(self.intrinsic("cuvil.runtime.axes", "roll_axis"))
        return cst.Call(helper, [cst.Arg(values["a"]), cst.Arg(values["shift"]), cst.Arg(values["axis"])])

    def _along_axis(self, original: cst.Call, updated: cst.Call, short: str, method: bool) -> cst.BaseExpression | None:
        """`np.cumprod(a, axis=k)`, `np.sort(a, axis=k)`, `np.argsort(a)` of a 2-D array …: runtime/axes.py, which
        does what Numba lacks; `axis=None` is the flattened array's, Numba's own."""
        helper, default = _ALONG[short]
        found = self._array_and_axis(original, updated, method)
        if found is None or len(found[2]) > 1:
            return None  # dtype=, kind=, out=: Numba refuses those in its words
        owner, kind, rest = found
        if not rest and (default is None or kind.ndim < 2):
            return None  # Numba's own: the flattened product, the last axis sorted, a 1-D argsort
        axis = rest[0].value if rest else cst.UnaryOperation(cst.Minus(), cst.Integer(str(-(default or 0))))
        numpy = cst.Name(self.numpy())
        if is_none(axis):
            flat = cst.Call(cst.Attribute(numpy, cst.Name("ravel")), [cst.Arg(owner)])
            return cst.Call(cst.Attribute(numpy, cst.Name(short)), [cst.Arg(flat)])
        return cst.Call(cst.Name(self.intrinsic("cuvil.runtime.axes", helper)), [cst.Arg(owner), cst.Arg(axis)])

    def _over_axes(self, original: cst.Call, updated: cst.Call, short: str, method: bool) -> cst.BaseExpression | None:
        """`np.var(a, axis=k, ddof=d, keepdims=b)`, `a.std(k)` with any axis, `np.mean(a, axis=(0, 1))`,
        `a.max(axis=(0, 2))` … with a tuple of axes → `var_axes(a, k, d, b)`, `mean_axes(a, (0, 1), b)`
        (runtime/axis_reductions.py); None for anything else (no axis, `dtype=`, `out=`, a keepdims not literal).
        CPU only."""
        helper, extra = _OVER_AXES[short]
        found = self._array_and_axis(original, updated, method, ("axis", "keepdims", *extra))
        if found is None or not self.arrays_into or found[1].ndim == 0:
            return None
        owner, _, rest = found
        pairs = list(zip(original.args if method else original.args[1:], rest, strict=True))
        named = {u.keyword.value: (o.value, u.value) for o, u in pairs if u.keyword is not None}
        given = [(o.value, u.value) for o, u in pairs if u.keyword is None]
        if len(given) > 1 or (given and "axis" in named) or not (given or "axis" in named):
            return None
        seen, axis = given[0] if given else named["axis"]
        keep = named.get("keepdims", (None, cst.Name("False")))[1]
        if is_none(axis) or not (isinstance(keep, cst.Name) and keep.value in ("True", "False")):
            return None
        if isinstance(axis, cst.Tuple):
            if not axis.elements or not all(literal_int(e.value) is not None for e in axis.elements):
                return None
        elif extra or short == "median":  # var, std, median: one axis, an int
            if not (isinstance(at := self.types.of(seen), Scalar) and np.dtype(at.dtype).kind in "iu"):
                return None
        else:
            return None  # mean, max, min of one axis: Numba's own, or lower/arrays.py's loops
        arguments = [owner, axis, *(named[e][1] if e in named else cst.Integer("0") for e in extra), keep]
        call = cst.Call(cst.Name(self.intrinsic("cuvil.runtime.axis_reductions", helper)),
                        [cst.Arg(v) for v in arguments])
        result = self.types.of(original)
        if isinstance(result, Scalar) and not result.weak and result.dtype not in _BOXED:
            return self._call(call, result.dtype, False)  # Numba returns a float32 as a Python float
        return call

    def _prod_dtype(self, original: cst.Call, updated: cst.Call, method: bool) -> cst.BaseExpression | None:
        """`np.prod(a, dtype=d)`, `a.prod(dtype=d)` → `d(np.prod(a.astype(d)))`: NumPy casts each element and
        multiplies in d, which Numba's prod does not take; with an axis or anything else, Numba's own."""
        if method:
            owner, kind = cst.ensure_type(updated.func, cst.Attribute).value, \
                self.types.of(cst.ensure_type(original.func, cst.Attribute).value)
        elif updated.args and updated.args[0].keyword is None:
            owner, kind = updated.args[0].value, self.types.of(original.args[0].value)
        else:
            return None
        rest = updated.args if method else updated.args[1:]
        result = self.types.of(original)
        if not isinstance(kind, Array) or not isinstance(result, Scalar) or len(rest) != 1 \
                or rest[0].keyword is None or rest[0].keyword.value != "dtype":
            return None
        product = cst.Call(cst.Attribute(cst.Name(self.numpy()), cst.Name("prod")),
                           [cst.Arg(self._call(owner, result.dtype, True))])
        return product if result.dtype in _BOXED else self._call(product, result.dtype, False)  # Numba: int64

    def _array_and_axis(self, original: cst.Call, updated: cst.Call, method: bool, keywords: tuple[str, ...] = (
            "axis",)) -> tuple[cst.BaseExpression, Array, list[cst.Arg]] | None:
        """The array a call along an axis works on (`a.f(…)`, or `np.f(a, …)` by position), its type, and the
        arguments after it; None when it is not an array or another keyword than `keywords` is given."""
        if method:
            owner = cst.ensure_type(updated.func, cst.Attribute).value
            kind = self.types.of(cst.ensure_type(original.func, cst.Attribute).value)
        elif updated.args and updated.args[0].keyword is None:
            owner, kind = updated.args[0].value, self.types.of(original.args[0].value)
        else:
            return None
        rest = list(updated.args if method else updated.args[1:])
        if not isinstance(kind, Array) or any(a.keyword is not None and a.keyword.value not in keywords for a in rest):
            return None
        return owner, kind, rest

    def _arange(self, original: cst.Call, updated: cst.Call) -> cst.Call | None:
        """`np.arange(start, stop, step)` with a Python float among them (or `dtype=`, 4th by position) →
        `arange(start, stop, step, dtype)` (runtime/ranges.py): NumPy's values, not Numba's `start + i * step`."""
        numbers = [a for a in updated.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in updated.args if a.keyword is not None}
        result = self.types.of(original)
        if not 1 <= len(numbers) <= 4 or set(keywords) - {"dtype"} or not isinstance(result, Array):
            return None
        kinds = [self.types.of(a.value) for a in original.args if a.keyword is None][:3]
        if not all(isinstance(k, Scalar) and k.weak and k.dtype in ("int64", "float64", "bool") for k in kinds) \
                or not any(k.dtype == "float64" for k in kinds):  # type: ignore[union-attr]
            return None  # Python ints only: Numba's values are exact; NumPy scalars: their own arithmetic
        values = [a.value for a in numbers[:3]]
        start, stop, step = (cst.Integer("0"), values[0], cst.Integer("1")) if len(values) == 1 else \
            (values[0], values[1], cst.Integer("1")) if len(values) == 2 else values
        dtype = cst.Attribute(cst.Name(self.numpy()), cst.Name(result.dtype))
        helper = self.intrinsic("cuvil.runtime.ranges", "arange")
        return cst.Call(cst.Name(helper), [cst.Arg(v.with_changes(lpar=[], rpar=[])) for v in (start, stop, step)]
                        + [cst.Arg(dtype)])

    def integer_product(self, original: list[cst.BaseExpression], updated: list[cst.BaseExpression],
                        dot: bool) -> cst.Call | None:
        """`np.dot(a, b)`, `a.dot(b)`, `a @ b` of integer or bool arrays of 1 or 2 dims:
        runtime/products.py (Numba's are BLAS only: floats); None for anything else."""
        kinds = [self.types.of(o) for o in original]
        if not self.arrays_into or not all(isinstance(k, Array) and k.ndim in (1, 2) for k in kinds):
            return None  # CUDA: its own matmul (runtime/cuda_matmul.py)
        if np.result_type(*(np.dtype(k.dtype) for k in kinds)).kind not in "biu":  # type: ignore[union-attr]
            return None
        helper = self.intrinsic("cuvil.runtime.products", "int_dot" if dot else "int_matmul")
        return cst.Call(cst.Name(helper), [cst.Arg(u.with_changes(lpar=[], rpar=[])) for u in updated])

    def _arg_extreme(self, original: cst.Call, updated: cst.Call, short: str, method: bool) -> cst.Call | None:
        """`np.argmax(a, axis=k)`, `a.argmin(k)` → `argmax_axis(a, k)` (runtime/axes.py): NumPy's ValueError for
        an empty axis, where Numba's divides by its length; without an axis (or with `out=`, `keepdims=`),
        Numba's own."""
        found = self._array_and_axis(original, updated, method)
        if found is None or len(found[2]) != 1 or is_none(found[2][0].value):
            return None
        helper = self.intrinsic("cuvil.runtime.axes", f"{short}_axis")
        return cst.Call(cst.Name(helper), [cst.Arg(found[0]), cst.Arg(found[2][0].value)])

    def _sort_in_place(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression | None:
        """`a.sort(axis=k)`, `a.sort(k)` → `sort_in_place(a, k)` (runtime/axes.py); `kind=`/`order=` stay Numba's
        refusal, `a.sort()` Numba's own (the last axis), `axis=None` NumPy's TypeError that Numba refuses."""
        found = self._array_and_axis(original, updated, True)
        if found is None or len(found[2]) != 1 or is_none(found[2][0].value):
            return None
        return cst.Call(cst.Name(self.intrinsic("cuvil.runtime.axes", "sort_in_place")),
                        [cst.Arg(found[0]), cst.Arg(found[2][0].value)])

    def _widened(self, original: cst.Call, updated: cst.Call, short: str) -> cst.BaseExpression:
        """`np.std(float32_array)` is a float32 in NumPy; Numba computes it, and returns it, in float64 (its
        `np.ptp` of uint8 is a float): cast to NumPy's dtype. `np.ptp` and `np.percentile` of bools are
        NumPy's TypeError."""
        method = self.types.calls.effect(original).name.startswith(".")
        owner = original.func.value if method and isinstance(original.func, cst.Attribute) else \
            original.args[0].value if original.args else None
        kind = self.types.of(owner) if owner is not None else None
        rest = updated.args if method else updated.args[1:]
        if short in ("var", "std") and isinstance(kind, Array) and (method or updated.args) \
                and all(a.keyword is None for a in updated.args[:0 if method else 1]) \
                and [a.keyword.value if a.keyword else None for a in rest] in ([], ["ddof"]):
            # of an empty array: NumPy's nan; `ddof=`, which Numba's do not take
            operand = cst.ensure_type(updated.func, cst.Attribute).value if method else updated.args[0].value
            updated = cst.Call(cst.Name(self.intrinsic("cuvil.runtime.statistics", short)),
                               [cst.Arg(operand), *(cst.Arg(a.value) for a in rest)])
        if short == "median" and not method and isinstance(kind, Array) and len(updated.args) == 1 \
                and updated.args[0].keyword is None:  # NaN anywhere: NumPy's nan (Numba's sorts it aside)
            updated = cst.Call(cst.Name(self.intrinsic("cuvil.runtime.statistics", "median")), [updated.args[0]])
        if short in ("percentile", "quantile") and not method and isinstance(kind, Array) and kind.dtype != "bool" \
                and len(updated.args) == 2 and all(a.keyword is None for a in updated.args) and self.arrays_into:
            # of an empty array: NumPy's IndexError (Numba's failed an assertion)
            updated = cst.Call(cst.Name(self.intrinsic("cuvil.runtime.statistics", short)), list(updated.args))
        if short in _SUBTRACTING and isinstance(kind, Array | Scalar) and kind.dtype == "bool" and owner is not None:
            refused = ufunc_result("subtract", [kind, kind], python=False)  # NumPy subtracts: its words for bools
            message = refused.message if isinstance(refused, Refused) else "numpy boolean subtract"
            refuses = self.intrinsic("cuvil.runtime.elementwise", "numpy_refuses")
            operand = updated.func.value if method and isinstance(updated.func, cst.Attribute) else \
                updated.args[0].value
            return cst.Call(cst.Name(refuses), [cst.Arg(operand), cst.Arg(cst.SimpleString(repr(message)))])
        result = self.types.of(original)
        if isinstance(result, Scalar) and not result.weak and result.dtype not in _BOXED:
            return self._call(updated, result.dtype, False)
        if isinstance(result, Array) and short in ("percentile", "quantile") and result.dtype != "float64":
            return self._call(updated, result.dtype, True)  # per q of a float32 array: Numba's are float64
        return updated
