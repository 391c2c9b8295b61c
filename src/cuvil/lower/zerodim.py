"""Operations on 0-d arrays as NumPy computes them: on the element, giving a NumPy scalar.

NumPy's `a + 1`, `a // b`, `a ** b`, `-a`, `a < b` and `np.sqrt(a)` on 0-d arrays are its scalar operations:
`a // 0` is 0 with a RuntimeWarning and `int8 + int8` wraps in int8. Numba reads a 0-d array in arithmetic as a
number of its own kind (an int8 widened to int64, `//` by zero raising ZeroDivisionError). Written as `a[()]`,
the element, a NumPy scalar, every later pass (casts, checks) gives it NumPy's meaning, as it does for `x[i]`.
The array itself (returned, passed on, indexed, updated in place) is left as it is.
"""

from __future__ import annotations

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array


class ZeroDim(cst.CSTTransformer):
    def __init__(self, types: Types):
        super().__init__()
        self.types = types
        self.zero = {name for name, t in types.names.items() if isinstance(t, Array) and t.ndim == 0}

    def element(self, node: cst.BaseExpression) -> cst.BaseExpression:
        if not (isinstance(node, cst.Name) and node.value in self.zero):
            return node
        index = [cst.SubscriptElement(cst.Index(cst.Tuple([])))]
        return cst.Subscript(node.with_changes(lpar=[], rpar=[]), index, lpar=node.lpar, rpar=node.rpar)

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        return updated.with_changes(left=self.element(updated.left), right=self.element(updated.right))

    def leave_UnaryOperation(self, original: cst.UnaryOperation, updated: cst.UnaryOperation) -> cst.BaseExpression:
        return updated.with_changes(expression=self.element(updated.expression))

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        targets = [t.with_changes(comparator=self.element(t.comparator)) for t in updated.comparisons]
        return updated.with_changes(left=self.element(updated.left), comparisons=targets)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not self.zero:
            return updated
        name = self.types.calls.effect(original).name
        ufunc = name.startswith("numpy.") and isinstance(getattr(np, name[len("numpy."):], None), np.ufunc)
        if not ufunc and name != "cuvil.runtime.intrinsics.py_pow":  # `a ** b`, rewritten before this pass
            return updated
        return updated.with_changes(args=[a.with_changes(value=self.element(a.value)) if a.keyword is None else a
                                          for a in updated.args])
