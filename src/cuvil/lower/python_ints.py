"""A Python int meeting a NumPy integer of another width: NumPy 2 (NEP 50) converts it to that dtype first and
refuses one the dtype cannot hold (`int8_array + 300`, `int8_array[0] = 300`: OverflowError "Python integer
300 out of bounds for int8"), where Numba wraps it. The conversion is runtime/elementwise.python_int_as; an
integer literal the dtype holds needs none (a check that cannot fail would still keep a parallel loop serial).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.types import Scalar, Type


def weak_int(t: Type) -> bool:
    return isinstance(t, Scalar) and t.weak and t.dtype == "int64"


def needs_fit(node: cst.BaseExpression, kind: Type, dtype: str) -> bool:
    """Whether `node`, of type `kind`, must be converted to the integer `dtype` through the check."""
    return weak_int(kind) and np.dtype(dtype).kind in "iu" and dtype != "int64" and not _literal_fits(node, dtype)


def fitted(node: cst.BaseExpression, dtype: str, numpy: str, intrinsic: Callable[[str, str], str]) -> cst.Call:
    name = intrinsic("cuvil.runtime.elementwise", "python_int_as")
    return cst.Call(cst.Name(name), [cst.Arg(node), cst.Arg(cst.Attribute(cst.Name(numpy), cst.Name(dtype)))])


def _literal_fits(node: cst.BaseExpression, dtype: str) -> bool:
    negative = isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus)
    literal = node.expression if negative else node  # type: ignore[attr-defined]
    if not isinstance(literal, cst.Integer):
        return False
    value = -int(literal.evaluated_value) if negative else int(literal.evaluated_value)
    info = np.iinfo(dtype)
    return int(info.min) <= value <= int(info.max)
