"""Python's scalars where Numba gives NumPy's, and Python's types as dtypes where Numba refuses them.

    x[:1].item() * 10      →  np.int64(x[:1].item()) * 10  # Numba: the array's uint8 (88 * 10 wrapped to 112)
    a.item(k)              →  np.int64(item_at(a, k))      # Numba's item takes no index (runtime/items.py)
    abs(flag)              →  abs(np.int64(flag))          # Numba: int8; Python: an int
    int(a[0])              →  np.int64(a[0])               # Numba: a[0]'s int8 (uint64: to_int, checked)
    math.floor(a[0])       →  np.int64(a[0])               # Numba: a uint8's floor is an np.uint64
    math.floor(i64[0])     →  math.floor(np.float64(i64[0]))  # CPython floors 64-bit NumPy ints as floats
    np.zeros(n, dtype=int) →  np.zeros(n, dtype=np.int64)  # Numba: "No implementation of function zeros"

(Numba's own `int(x)` keeps a uint8 x a uint8: the conversions name their dtype.)

analysis/numpy_rules.py types `.item()` as Python's scalar (an int for every integer dtype; a uint64 beyond
int64, which a Python int would hold, raises OverflowError as any int wider than 64 bits does, through
runtime/pyint.to_int); analysis/numpy_rules.py reads `int`, `float`,
`bool`, `complex` as int64, float64, bool, complex128 where NumPy takes a dtype. Runs on every target.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar
from ..frontend.walk import walk

_DTYPES = {"int": "int64", "float": "float64", "bool": "bool_", "complex": "complex128"}
_CONVERSION = {"i": "int64", "u": "int64", "f": "float64", "c": "complex128"}  # by NumPy's dtype kind
_NO_ROUND = f"type {np.bool_.__module__}.{np.bool_.__name__} doesn't define __round__ method"  # round(np.True_)
_TO_INT = frozenset({"int", "math.floor", "math.ceil"})  # each a Python int of an integer


class PythonScalars(cst.CSTTransformer):
    def __init__(self, types: Types, numpy: Callable[[], str], intrinsic: Callable[[str, str], str],
                 cpu: bool = True):
        super().__init__()
        self.types, self.numpy, self.intrinsic = types, numpy, intrinsic
        self.cpu = cpu  # `a.item(k)` through runtime/items.py (CUDA kernels: Numba's refusal)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        item = isinstance(func, cst.Attribute) and func.attr.value == "item"
        indexed = item and self._indexed_item(original)
        if indexed:  # `a.item(k)`: runtime/items.py (Numba's item takes no index), then a Python number as
            updated = cst.Call(cst.Name(self.intrinsic("cuvil.runtime.items", "item_at")),  # `.item()`'s
                               [cst.Arg(cst.ensure_type(updated.func, cst.Attribute).value), updated.args[0]])
        if item and (not original.args or indexed):
            assert isinstance(func, cst.Attribute)
            owner = self.types.of(func.value)
            if isinstance(owner, Array) and owner.dtype == "uint64":
                return cst.Call(cst.Name(self.intrinsic("cuvil.runtime.pyint", "to_int")), [cst.Arg(updated)])
            if isinstance(owner, Array) and owner.dtype not in ("int64", "float64", "bool", "complex128"):
                kind = _kind(owner.dtype)
                if kind in _CONVERSION:
                    return self._convert(_CONVERSION[kind], updated)
            return updated
        name = self.types.calls.effect(original).name
        argument = self.types.of(original.args[0].value) if len(original.args) == 1 else None
        if name in ("abs", "float", "round") and isinstance(argument, Scalar) and argument.dtype == "bool":
            return self._of_bool(name, argument.weak, updated)
        if name in _TO_INT and len(original.args) == 1 and original.args[0].keyword is None:  # of an integer: int()
            argument = self.types.of(original.args[0].value)
            if name != "int" and isinstance(argument, Scalar) and argument.dtype in ("int64", "uint64") \
                    and not argument.weak:  # CPython floors an np.int64 as a float: 2**53 + 1 → 2**53
                return updated.with_changes(args=[updated.args[0].with_changes(value=self._convert(
                    "float64", updated.args[0].value))])
            if isinstance(argument, Scalar) and argument.dtype == "uint64":  # beyond int64: Python's int is wider
                return cst.Call(cst.Name(self.intrinsic("cuvil.runtime.pyint", "to_int")), [updated.args[0]])
            if isinstance(argument, Scalar) and _kind(argument.dtype) in "iu" and argument.dtype != "int64":
                return self._convert("int64", updated.args[0].value)
            return updated
        if not (name.startswith("numpy.") or name == ".astype"):
            return updated
        args = [a.with_changes(value=self._dtype(a.value)) if a.keyword is None or a.keyword.value == "dtype" else a
                for a in updated.args]
        return updated.with_changes(args=args)

    def _indexed_item(self, original: cst.Call) -> bool:
        """`a.item(k)` of an array by one integer, on the CPU."""
        args = original.args
        return self.cpu and len(args) == 1 and args[0].keyword is None and not args[0].star \
            and isinstance(self.types.of(cst.ensure_type(original.func, cst.Attribute).value), Array) \
            and _kind(getattr(self.types.of(args[0].value), "dtype", "")) in ("i", "u")

    def _of_bool(self, name: str, python: bool, updated: cst.Call) -> cst.BaseExpression:
        """`abs`, `float`, `round` of a bool: a Python bool is the int 0 or 1 (`abs(True)` is 1); NumPy's bool
        is its own absolute value and has no `__round__` (Numba's: int8, refused, 1)."""
        value = updated.args[0].value
        if name == "abs" and not python:
            return value
        if name == "round" and not python:
            refuses = self.intrinsic("cuvil.runtime.elementwise", "numpy_refuses")
            return cst.Call(cst.Name(refuses), [cst.Arg(value), cst.Arg(cst.SimpleString(repr(_NO_ROUND)))])
        return updated.with_changes(args=[cst.Arg(self._convert("int64", value))])

    def _convert(self, dtype: str, value: cst.BaseExpression) -> cst.Call:
        return cst.Call(cst.Attribute(cst.Name(self.numpy()), cst.Name(dtype)), [cst.Arg(value)])

    def _dtype(self, node: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(node, cst.Name) and node.value in _DTYPES and self.types.calls.global_of(node.value) is None:
            return cst.Attribute(cst.Name(self.numpy()), cst.Name(_DTYPES[node.value]))
        return node


def wanted(fn: cst.FunctionDef) -> bool:
    """Whether `fn` may hold anything this pass rewrites (else it needs no typing)."""
    found = False

    class Find(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            nonlocal found
            found = found or node.value in _DTYPES or node.value in ("abs", "item", "floor", "ceil", "round")

    walk(fn.body, Find())
    return found


def _kind(dtype: str) -> str:
    return "b" if dtype == "bool" else dtype[0] if dtype.startswith(("int", "uint", "float", "complex")) else ""
