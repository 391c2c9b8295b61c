"""`np.round(a, d)`, `np.around(a, d)`, `a.round(d)`, rewritten by the casts pass (lower/library_results.py
dispatches here) into runtime/rounding.py's helpers, which round in the array's dtype as NumPy does:

    np.round(float32_array, 1)  →  around(a, 1)          # Numba: in float64 (a float32 0.35 became 0.3)
    np.round(a, 1, out=o)       →  around_into(a, 1, o)
    np.round(bool_array, 2)     →  numpy_refuses(a, "Cannot cast ufunc 'multiply' output …")
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar
from .reductions import is_none, literal_int


class Roundings:
    """Mixed into lower/casts.Casts (through LibraryResults), whose `types` and `intrinsic` these use."""

    types: Types
    intrinsic: Callable[[str, str], str]
    arrays_into: bool  # the target is the CPU

    def _round(self, original: cst.Call, updated: cst.Call, method: bool) -> cst.BaseExpression | None:
        """`np.round(a, d)`, `np.around(a, d)`, `a.round(d)` → `around(a, d)` (runtime/rounding.py): NumPy's
        arithmetic in a's dtype (Numba's is float64's: a float32 0.35 rounded to 0.3); `out=` of a's dtype
        → `around_into(a, d, out)`; a half → `around_f16(h, d)`; a bool array with a decimals other than 0,
        NumPy's TypeError. CPU only; None for anything else (Numba's)."""
        if method:
            owner, kind = cst.ensure_type(updated.func, cst.Attribute).value, \
                self.types.of(cst.ensure_type(original.func, cst.Attribute).value)
            pairs = list(zip(original.args, updated.args, strict=True))
        elif updated.args and updated.args[0].keyword is None:
            owner, kind = updated.args[0].value, self.types.of(original.args[0].value)
            pairs = list(zip(original.args[1:], updated.args[1:], strict=True))
        else:
            return None
        named = {u.keyword.value: (o.value, u.value) for o, u in pairs if u.keyword is not None}
        given = [(o.value, u.value) for o, u in pairs if u.keyword is None]
        if not self.arrays_into or not isinstance(kind, Array | Scalar) or set(named) - {"decimals", "out"} \
                or len(given) + len(named) > 2 or len(given) == 2 and named:
            return None
        decimals = given[0][1] if given else named["decimals"][1] if "decimals" in named else cst.Integer("0")
        out = given[1] if len(given) == 2 else named.get("out")
        if out is not None and is_none(out[1]):
            out = None
        dtype = np.dtype(kind.dtype)
        if dtype.kind == "b":
            if out is not None or not isinstance(kind, Array) or literal_int(decimals) == 0:
                return None  # NumPy's rint: a float16 array, which compiled code does not compute whole
            digits = literal_int(decimals)
            if digits is None:
                return None
            ufunc = "divide" if digits < 0 else "multiply"
            message = (f"Cannot cast ufunc '{ufunc}' output from dtype('float64') to dtype('bool') with casting "
                       "rule 'same_kind'")  # NumPy's multiply (or divide) by 10**d into a bool array
            refuses = self.intrinsic("cuvil.runtime.elementwise", "numpy_refuses")
            return cst.Call(cst.Name(refuses), [cst.Arg(owner), cst.Arg(cst.SimpleString(repr(message)))])
        if dtype.kind not in "iufc":
            return None
        arguments = [cst.Arg(owner), cst.Arg(decimals)]
        if dtype.name == "float16":
            if not isinstance(kind, Scalar) or out is not None:
                return None  # a half array: lower/precision.py's refusal
            return cst.Call(cst.Name(self.intrinsic("cuvil.runtime.rounding", "around_f16")), arguments)
        if out is None:
            return cst.Call(cst.Name(self.intrinsic("cuvil.runtime.rounding", "around")), arguments)
        target = self.types.of(out[0])
        if not (isinstance(kind, Array) and isinstance(target, Array) and target.dtype == kind.dtype) \
                or dtype.kind not in "fc":
            return None  # an integer `out`: NumPy's divide into it refuses, or copies (Numba's own)
        return cst.Call(cst.Name(self.intrinsic("cuvil.runtime.rounding", "around_into")),
                        [*arguments, cst.Arg(out[1])])
