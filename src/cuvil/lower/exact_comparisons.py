"""Comparisons of exact values where Numba converts both sides to a float first (the casts pass, lower/casts.py,
mixes this in): a Python int with a Python float, as CPython compares them; a signed integer with a uint64, as
NumPy does."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar, Type


class ExactComparisons:
    """Mixed into lower/casts.Casts, whose `types` and `intrinsic` these use."""

    types: Types
    intrinsic: Callable[[str, str], str]

    def _exact_comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression | None:
        """A Python int against a Python float compares exact values, as CPython does (2**53 + 1 > 2.0**53);
        Numba converts the int to a float first. `int_float_cmp(i, f)` (runtime/pymath.py) is the sign of
        i - f, nan when f is: compared with 0.0, it answers every operator as CPython does. Not needed when
        the conversion is exact: an int literal below 2**53, or a float literal below 2**53 (a rounded int
        stays on its side of it)."""
        sides = [original.left, original.comparisons[0].comparator]
        kinds = [self.types.of(s) for s in sides]
        mixed = self._signed_unsigned(kinds, updated)
        if mixed is not None:
            return mixed
        if sorted(map(str, kinds)) != ["float", "int"]:
            return None
        literal = sides[0] if isinstance(sides[0], cst.Integer | cst.Float) else \
            sides[1] if isinstance(sides[1], cst.Integer | cst.Float) else None
        if literal is not None and abs(float(literal.evaluated_value)) < 2.0**53:
            return None
        i, f = (0, 1) if kinds[0] == Scalar("int64", True) else (1, 0)
        new = [updated.left, updated.comparisons[0].comparator]
        bare = [n.with_changes(lpar=[], rpar=[]) for n in new]
        sign = cst.Call(cst.Name(self.intrinsic("cuvil.runtime.pymath", "int_float_cmp")),
                        [cst.Arg(bare[i]), cst.Arg(bare[f])])
        zero = cst.Float("0.0")
        left, right = (sign, zero) if i == 0 else (zero, sign)  # f < i  <=>  0 < sign(i - f)
        target = updated.comparisons[0].with_changes(comparator=right)
        return updated.with_changes(left=left, comparisons=[target])

    def _signed_unsigned(self, kinds: list[Type], updated: cst.Comparison) -> cst.BaseExpression | None:
        """A signed integer (a Python int too) against a uint64 compares values, as NumPy does; their common
        type is float64, Numba's too, where 2**63 - 1 == 2**63. `signed_unsigned_cmp(s, u)`
        (runtime/elementwise.py) is the exact sign of s - u, compared with 0; for arrays the Plan left whole
        (inside a tuple, say), an int8 array of signs."""
        if not all(isinstance(k, Scalar | Array) for k in kinds):
            return None
        dtypes = [k.dtype for k in kinds]  # type: ignore[union-attr]
        if "uint64" not in dtypes or not any(np.dtype(d).kind == "i" for d in dtypes):
            return None
        s = 0 if np.dtype(dtypes[0]).kind == "i" else 1
        new = [n.with_changes(lpar=[], rpar=[]) for n in (updated.left, updated.comparisons[0].comparator)]
        sign = cst.Call(cst.Name(self.intrinsic("cuvil.runtime.elementwise", "signed_unsigned_cmp")),
                        [cst.Arg(new[s]), cst.Arg(new[1 - s])])
        zero = cst.Integer("0")
        left, right = (sign, zero) if s == 0 else (zero, sign)  # u < s  <=>  0 < sign(s - u)
        target = updated.comparisons[0].with_changes(comparator=right)
        return updated.with_changes(left=left, comparisons=[target])
