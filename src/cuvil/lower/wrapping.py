"""NumPy's int64 `+ - *` as LLVM's wrapping instructions (runtime/wrapping.py says why Numba's are not): the casts
pass (lower/casts.py) mixes this in.

    t = a[i] + 1            →      t = add(a[i], 1)          # a an int64 array
    s += x[i] * y[i]        →      s = add(s, mul(x[i], y[i]))

Python ints keep Numba's operators (their overflow is checked, or proven impossible), except under
`overflow="wrap"`, where they wrap as NumPy's int64 does. NumPy's integer `**` is runtime/elementwise.power,
which squares with these.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Scalar, Type
from .again import repeatable

_FUNCTIONS = {"add": "add", "subtract": "sub", "multiply": "mul"}  # ufunc → runtime/wrapping.py's name
_INT64 = Scalar("int64")


class WrappingArithmetic:
    """Mixed into lower/casts.Casts, whose `types`, `intrinsic` and `python_ints_wrap` these use."""

    types: Types
    intrinsic: Callable[[str, str], str]
    python_ints_wrap: bool

    def _wrapping(self, ufunc: str, result: Type, left: cst.BaseExpression,
                  right: cst.BaseExpression) -> cst.Call | None:
        name = _FUNCTIONS.get(ufunc)
        wraps = result == _INT64 or self.python_ints_wrap and result == Scalar("int64", True)
        if name is None or not wraps:
            return None
        return cst.Call(cst.Name(self.intrinsic("cuvil.runtime.wrapping", name)),
                        [cst.Arg(left.with_changes(lpar=[], rpar=[])), cst.Arg(right.with_changes(lpar=[], rpar=[]))])

    def _wrapping_update(self, original: cst.AugAssign, target: cst.BaseAssignTargetExpression,
                         value: cst.BaseExpression, ufunc: str, result: Type) -> cst.Assign | None:
        """`s += v` of an int64 name or element: `s = add(s, v)`."""
        kind = self.types.of(original.target)
        if not (isinstance(kind, Scalar) and kind.dtype == "int64") \
                or not (isinstance(original.target, cst.Name) or repeatable(original.target)):
            return None
        call = self._wrapping(ufunc, result, target, value)
        return None if call is None else cst.Assign([cst.AssignTarget(target)], call)


def integer_power(ufunc: str, result: Type) -> str | None:
    """NumPy's integer `**` (Numba's own is wrong for a big exponent: 3 ** (2**63 - 1) of uint64 gave 2**64-1)."""
    integer = isinstance(result, Scalar) and not result.weak and np.dtype(result.dtype).kind in "iu"
    return "power" if ufunc == "power" and integer else None
