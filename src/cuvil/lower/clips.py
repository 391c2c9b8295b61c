"""`np.clip` and `a.clip` in NumPy's result dtype and with NumPy's meaning, rewritten by the casts pass
(lower/library_results.py dispatches here):

    np.clip(int32_array, 0.0, 2.5)  →  np.clip(x.astype(np.float64), 0.0, 2.5)   # Numba clips in int32
    np.clip(f32_array, lo, nan)     →  np.minimum(np.maximum(x, lo), nan)        # Numba ignores a NaN bound
    np.clip(int8_array, 0, v)       →  np.clip(x, 0, clip_high(v, np.int8))      # NumPy 2's Python int bounds
    np.clip(x[i], lo, hi)           →  np.minimum(np.maximum(x[i], lo), hi)      # Numba: arrays only
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar
from .python_ints import needs_fit
from .reductions import is_none


class Clips:
    """Mixed into lower/casts.Casts (through LibraryResults), whose `types`, `numpy`, `intrinsic` and `_call`
    these use."""

    types: Types
    numpy: Callable[[], str]
    intrinsic: Callable[[str, str], str]

    def _call(self, node: cst.BaseExpression, dtype: str, array: bool) -> cst.BaseExpression:
        raise NotImplementedError

    def clip(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """The array in NumPy's result dtype first (analysis/numpy_rules.clip): Numba clips in the array's. A
        float result is `np.minimum(np.maximum(a, lo), hi)`, NumPy's own definition: Numba's clip ignores a NaN
        bound, where NumPy's gives NaN."""
        result = self.types.of(original)
        method = isinstance(updated.func, cst.Attribute) and self.types.calls.effect(original).name == ".clip"
        owner = original.func.value if method else original.args[0].value if original.args else None  # type: ignore[attr-defined]
        kind = self.types.of(owner) if owner is not None else None
        if isinstance(result, Scalar) and isinstance(kind, Scalar) and not kind.weak:
            return self._scalar_clip(original, updated, method, result.dtype)
        if not (isinstance(result, Array) and isinstance(kind, Array)):
            return updated
        floats = self._float_clip(original, updated, method, result.dtype)
        if floats is not None:
            return floats
        updated = self._int_bounds(original, updated, method, result.dtype)
        if result.dtype == kind.dtype:
            return updated
        if method:
            assert isinstance(updated.func, cst.Attribute)
            return updated.with_changes(func=updated.func.with_changes(
                value=self._call(updated.func.value, result.dtype, True)))
        first = updated.args[0]
        return updated.with_changes(args=[first.with_changes(value=self._call(first.value, result.dtype, True)),
                                          *updated.args[1:]])

    def _int_bounds(self, original: cst.Call, updated: cst.Call, method: bool, dtype: str) -> cst.Call:
        """A Python int bound of an integer clip as NumPy 2 takes it (runtime/elementwise.clip_low, clip_high):
        beyond the dtype's range on its own side it is dropped (`np.clip(int8_array, 0, 300)`), on the other it
        is NumPy's OverflowError (`a.clip(300, 400)`); Numba wrapped it (300 as 44)."""
        if np.dtype(dtype).kind not in "iu":
            return updated
        first = 0 if method else 1
        args = list(updated.args)
        for k, (old, new) in enumerate(zip(original.args, updated.args, strict=True)):
            side = {"a_min": 0, "min": 0, "a_max": 1, "max": 1}.get(old.keyword.value) if old.keyword \
                else k - first if first <= k < first + 2 else None
            fitted = self._int_bound(side, old.value, new.value, dtype) if side is not None else None
            if fitted is not None:
                args[k] = new.with_changes(value=fitted)
        return updated.with_changes(args=args)

    def _int_bound(self, side: int, original: cst.BaseExpression, updated: cst.BaseExpression,
                   dtype: str) -> cst.Call | None:
        """The lower (`side` 0) or upper bound of an integer clip fitted to `dtype`; None when it needs no fit."""
        if np.dtype(dtype).kind not in "iu" or not needs_fit(original, self.types.of(original), dtype):
            return None
        helper = self.intrinsic("cuvil.runtime.elementwise", ("clip_low", "clip_high")[side])
        return cst.Call(cst.Name(helper), [cst.Arg(updated), cst.Arg(cst.Attribute(cst.Name(self.numpy()),
                                                                                   cst.Name(dtype)))])

    def _scalar_clip(self, original: cst.Call, updated: cst.Call, method: bool, dtype: str) -> cst.BaseExpression:
        """`np.clip(x[i], lo, hi)` of a NumPy scalar (Numba's clip takes arrays only): NumPy's definition,
        `np.minimum(np.maximum(x, lo), hi)`, in the result's dtype, a `None` bound left out."""
        named = {"a_min": 1, "min": 1, "a_max": 2, "max": 2, "a": 0}
        operands: list[tuple[cst.BaseExpression, cst.BaseExpression] | None] = [None, None, None]
        if method:
            operands[0] = (cst.ensure_type(original.func, cst.Attribute).value,
                           cst.ensure_type(updated.func, cst.Attribute).value)
        for k, (old, new) in enumerate(zip(original.args, updated.args, strict=True)):
            at = named.get(old.keyword.value) if old.keyword else k + method
            if at is None or old.star or at > 2:
                return updated
            operands[at] = (old.value, new.value)
        value = operands[0]
        if value is None:
            return updated
        out = self._call(value[1], dtype, False) if getattr(self.types.of(value[0]), "dtype", None) != dtype \
            else value[1]
        numpy = cst.Name(self.numpy())
        for side, (bound, ufunc) in enumerate(zip(operands[1:], ("maximum", "minimum"))):
            if bound is None or is_none(bound[0]):
                continue
            kind = self.types.of(bound[0])
            if not isinstance(kind, Scalar):
                return updated  # an array bound: NumPy's result is an array, typed otherwise
            operand = self._int_bound(side, *bound, dtype) or (
                bound[1] if kind.dtype == dtype and not kind.weak else self._call(bound[1], dtype, False))
            out = cst.Call(cst.Attribute(numpy, cst.Name(ufunc)), [cst.Arg(out), cst.Arg(operand)])
        return out

    def _float_clip(self, original: cst.Call, updated: cst.Call, method: bool, dtype: str) -> cst.Call | None:
        """`np.clip(a, lo, hi)` / `a.clip(lo, hi)` of a float result, both bounds given by position, as
        `np.minimum(np.maximum(a, lo), hi)`, each operand in the result's dtype; None for any other form."""
        if np.dtype(dtype).kind != "f" or any(a.keyword is not None for a in updated.args):
            return None
        operands = [(cst.ensure_type(original.func, cst.Attribute).value, cst.ensure_type(updated.func,
                                                                                     cst.Attribute).value)] \
            if method else []
        operands += [(o.value, u.value) for o, u in zip(original.args, updated.args, strict=True)]
        if len(operands) != 3:
            return None
        kinds = [self.types.of(o) for o, _ in operands]
        if not all(isinstance(k, Array | Scalar) for k in kinds):
            return None  # a None bound, a value of a type the compiler does not know: Numba's clip
        a, lo, hi = (self._call(u, dtype, isinstance(k, Array)) if getattr(k, "dtype", None) != dtype or
                     (isinstance(k, Scalar) and k.weak) else u for (_, u), k in zip(operands, kinds, strict=True))
        numpy = cst.Name(self.numpy())
        inner = cst.Call(cst.Attribute(numpy, cst.Name("maximum")), [cst.Arg(a), cst.Arg(lo)])
        return cst.Call(cst.Attribute(numpy, cst.Name("minimum")), [cst.Arg(inner), cst.Arg(hi)])

