"""`isinstance(x, C)` of a number, decided when compiling: every variant knows whether `x` is a Python number or
a NumPy scalar, and of which dtype, so the call becomes `True` or `False` with CPython's answer.

Numba's own isinstance is not CPython's for these: `isinstance(True, int)` is False there (a bool is an int in
Python), `isinstance(np.int64(1), int)` True (NumPy's ints are not Python's), and an abstract NumPy class
(`np.floating`, `np.integer`) fails inside Numba. An array is never a number; whether it is an `np.ndarray` is
left to Numba: a torch tensor is an array to the compiled code but not an `np.ndarray` to Python.
"""

from __future__ import annotations

import builtins

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar
from ..cfg.effects import Calls

_PYTHON = {"int64": 0, "float64": 0.0, "bool": False, "complex128": 0j}  # a weak scalar's Python class
_BUILTINS = frozenset({"int", "float", "bool", "complex", "object"})


def decided(call: cst.Call, types: Types) -> cst.Name | None:
    """`True` or `False` for `isinstance(number, classes)`; None where it is not known here."""
    if len(call.args) != 2 or any(a.keyword is not None or a.star for a in call.args):
        return None
    kind = types.of(call.args[0].value)
    if not isinstance(kind, Scalar | Array):
        return None
    classes = _classes(call.args[1].value, types.calls)
    if classes is None:
        return None
    if isinstance(kind, Array):  # an ndarray or a tensor: never a number, whichever (np.ndarray: not known here)
        numbers = all(issubclass(c, np.generic) or c in (int, float, bool, complex) for c in classes)
        return cst.Name("False") if numbers else None
    try:
        value = _PYTHON[kind.dtype] if kind.weak else np.dtype(kind.dtype).type(0)
    except (KeyError, TypeError):  # bfloat16: no NumPy type
        return None
    return cst.Name("True" if isinstance(value, classes) else "False")


def _classes(node: cst.BaseExpression, calls: Calls) -> tuple[type, ...] | None:
    if isinstance(node, cst.Tuple):
        parts = [_classes(e.value, calls) for e in node.elements if not isinstance(e, cst.StarredElement)]
        if len(parts) != len(node.elements) or any(p is None for p in parts):
            return None
        return tuple(c for p in parts for c in p)  # type: ignore[union-attr]
    found: object = None
    if isinstance(node, cst.Name):
        where = calls.global_of(node.value)
        if where is None and node.value in _BUILTINS:
            found = getattr(builtins, node.value)
        elif where is not None and where.kind == "function" and where.qualname.startswith("numpy."):
            found = getattr(np, where.qualname[6:], None)  # `from numpy import floating`
    elif isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
        where = calls.global_of(node.value.value)
        if where is not None and where.kind == "module" and where.qualname == "numpy":
            found = getattr(np, node.attr.value, None)
    return (found,) if isinstance(found, type) else None
