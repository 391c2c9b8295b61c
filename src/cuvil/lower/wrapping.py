"""NumPy's int64 `+ - *` as LLVM's wrapping instructions (runtime/wrapping.py says why Numba's are not): the casts
pass (lower/casts.py) mixes this in. CPU only: a CUDA kernel is compiled with no `nsw` at all.

    t = a[i] + 1            →      t = add(a[i], 1)          # a an int64 array
    s += x[i] * y[i]        →      s = add(s, mul(x[i], y[i]))

Python ints keep Numba's operators (their overflow is checked, or proven impossible), except under
`overflow="wrap"`, where they wrap as NumPy's int64 does; not in an index, where a wrapped value is beyond any
array (and the bounds checks' hoisting reads the plain operator). With `parallel=True` a name's own `s += v`
stays as written: it is how Cuvil's plan and Numba's parfors know a reduction. NumPy's integer `**` is
runtime/elementwise.power, which squares with these.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Scalar, Type
from .again import repeatable

_FUNCTIONS = {"add": "add", "subtract": "sub", "multiply": "mul"}  # ufunc → runtime/wrapping.py's name
_INT64 = Scalar("int64")


@dataclasses.dataclass(frozen=True)
class Wrapping:
    numpy_ints: bool = False  # the CPU target
    python_ints: bool = False  # overflow="wrap"
    updates: bool = False  # a name's `s += v` too (not with parallel=True)


class WrappingArithmetic:
    """Mixed into lower/casts.Casts, whose `types`, `intrinsic` and `wrapping` these use."""

    types: Types
    intrinsic: Callable[[str, str], str]
    wrapping: Wrapping
    indices = 0  # how deep in subscripts' indices the rewrite is

    def visit_SubscriptElement(self, node: cst.SubscriptElement) -> None:
        self.indices += 1

    def leave_SubscriptElement(self, original: cst.SubscriptElement,
                               updated: cst.SubscriptElement) -> cst.SubscriptElement:
        self.indices -= 1
        return updated

    def _wrapping(self, ufunc: str, result: Type, left: cst.BaseExpression,
                  right: cst.BaseExpression) -> cst.Call | None:
        name = _FUNCTIONS.get(ufunc)
        wraps = self.wrapping.numpy_ints and (result == _INT64 or self.wrapping.python_ints and not self.indices
                                              and result == Scalar("int64", True))
        if name is None or not wraps:
            return None
        return cst.Call(cst.Name(self.intrinsic("cuvil.runtime.wrapping", name)),
                        [cst.Arg(left.with_changes(lpar=[], rpar=[])), cst.Arg(right.with_changes(lpar=[], rpar=[]))])

    def _wrapping_update(self, original: cst.AugAssign, target: cst.BaseAssignTargetExpression,
                         value: cst.BaseExpression, ufunc: str, result: Type) -> cst.Assign | None:
        """`s += v` of an int64 name or element: `s = add(s, v)`."""
        kind = self.types.of(original.target)
        name = isinstance(original.target, cst.Name)
        if not (isinstance(kind, Scalar) and kind.dtype == "int64") or name and not self.wrapping.updates \
                or not (name or repeatable(original.target)):
            return None
        call = self._wrapping(ufunc, result, target, value)
        return None if call is None else cst.Assign([cst.AssignTarget(target)], call)


def integer_power(ufunc: str, result: Type) -> str | None:
    """NumPy's integer `**` (Numba's own is wrong for a big exponent: 3 ** (2**63 - 1) of uint64 gave 2**64-1)."""
    integer = isinstance(result, Scalar) and not result.weak and np.dtype(result.dtype).kind in "iu"
    return "power" if ufunc == "power" and integer else None
