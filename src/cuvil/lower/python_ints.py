"""A Python int or float meeting a NumPy integer of another width: NumPy 2 (NEP 50) converts it to that dtype
first and refuses one the dtype cannot hold (`int8_array + 300`, `int8_array[0] = 300`: OverflowError "Python
integer 300 out of bounds for int8"; `int_array[0] = nan`: ValueError "cannot convert float NaN to integer"),
where Numba wraps it or stores garbage. A float is truncated first, as `int(x)` would (`a[0] = 2.9` stores 2).
The conversions are runtime/elementwise.python_int_as and python_float_as; a literal the dtype holds needs
none (a check that cannot fail would still keep a parallel loop serial). Stores, `.fill(v)` and the integer
dtypes' constructors (`np.int8(v)`) take them. A NumPy scalar stored into a signed integer array is checked
the same way (`numpy_fit`): NumPy's setitem converts it to a Python int first.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar, Type, operand

_INTEGERS = frozenset(f"numpy.{t}" for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                             "uint64"))


def weak_int(t: Type) -> bool:
    return isinstance(t, Scalar) and t.weak and t.dtype == "int64"


def _weak_float(t: Type) -> bool:
    return isinstance(t, Scalar) and t.weak and t.dtype == "float64"


def ufunc_inputs(ufunc: str, operands: list[Type]) -> list[str] | None:
    """The dtypes NumPy converts each operand of `ufunc` to, or None when any type is unknown (or all are
    Python's)."""
    if not all(isinstance(t, Scalar | Array) for t in operands):
        return None
    if all(isinstance(t, Scalar) and t.weak for t in operands):
        return None  # Python numbers with Python numbers: Numba's int64/float64 already are CPython's
    args = [operand(t) for t in operands]  # type: ignore[arg-type]
    fn = getattr(np, ufunc)
    try:
        resolved = fn.resolve_dtypes((*args, *([None] * fn.nout)))
    except (TypeError, ValueError, OverflowError):
        return None
    return [np.dtype(d).name for d in resolved[: fn.nin]]


def needs_fit(node: cst.BaseExpression, kind: Type, dtype: str) -> bool:
    """Whether `node`, of type `kind`, must be converted to the integer `dtype` through the check."""
    if np.dtype(dtype).kind not in "iu" or _literal_fits(node, dtype):
        return False
    return weak_int(kind) and dtype != "int64" or _weak_float(kind)


def numpy_fit(kind: Type, dtype: str) -> str | None:
    """The conversion a NumPy scalar of `kind` stored into a signed integer `dtype` goes through, or None: NumPy's
    setitem takes it as a Python int (a float truncated) and refuses what the dtype cannot hold, where Numba
    wraps (`int8_array[0] = int64_array[0]` of 300: OverflowError). Unsigned arrays take any integer modulo
    their size, as Numba's cast does, and a float by the C cast, which Numba's differs from where the value
    does not fit (runtime/elementwise.float_as_unsigned)."""
    if not isinstance(kind, Scalar) or kind.weak or kind.dtype in ("bool", "bfloat16") \
            or np.dtype(dtype).kind not in "iu" or np.dtype(kind.dtype).kind not in "iuf" \
            or np.can_cast(kind.dtype, dtype, "safe"):
        return None
    if np.dtype(dtype).kind == "u":
        return "float_as_unsigned" if np.dtype(kind.dtype).kind == "f" else None
    if kind.dtype == "float16":
        return None
    return "python_float_as" if np.dtype(kind.dtype).kind == "f" else "numpy_int_as"


def fitted(node: cst.BaseExpression, kind: Type, dtype: str, numpy: str,
           intrinsic: Callable[[str, str], str]) -> cst.Call:
    name = intrinsic("cuvil.runtime.elementwise", numpy_fit(kind, dtype) or (
        "python_float_as" if _weak_float(kind) else "python_int_as"))
    return cst.Call(cst.Name(name), [cst.Arg(node), cst.Arg(cst.Attribute(cst.Name(numpy), cst.Name(dtype)))])


def fitted_call(original: cst.Call, updated: cst.Call, types: Types, numpy: Callable[[], str],
                intrinsic: Callable[[str, str], str]) -> cst.Call | None:
    """`a.fill(v)` into an integer array, `np.int8(v)`, `a.dtype.type(v)`, `np.full(n, v, np.int8)`: `v` fitted
    first (None: nothing to fit). `numpy()` names NumPy in the generated module (and imports it: called only when
    needed)."""
    name = types.calls.effect(original).name
    if name in ("numpy.full", "numpy.full_like"):
        return _fitted_fill(original, updated, types, numpy, intrinsic)
    if len(original.args) != 1 or original.args[0].keyword is not None or original.args[0].star:
        return None
    if name == ".fill" and isinstance(original.func, cst.Attribute):
        into = types.of(original.func.value)
        dtype = into.dtype if isinstance(into, Array) else None
    elif name == ".type":  # `a.dtype.type(v)`: the constructor of a's dtype (analysis/numpy_rules.method)
        dtype = _constructed(original, types)
    else:
        dtype = name[len("numpy."):] if name in _INTEGERS else None
    value = original.args[0].value
    kind = types.of(value)
    if dtype is None or not (needs_fit(value, kind, dtype) or numpy_fit(kind, dtype) == "float_as_unsigned"):
        return None  # a NumPy float into uint64 is NumPy's C cast (`np.uint64(x)`, `a.fill(x)`)
    return updated.with_changes(args=[cst.Arg(fitted(updated.args[0].value, kind, dtype, numpy(), intrinsic))])


def fitted_copy(original: cst.Call, updated: cst.Call, types: Types, numpy: Callable[[], str],
                intrinsic: Callable[[str, str], str]) -> cst.Call:
    """`np.copyto(int8_array, 300)`: NumPy takes a Python int by value, its OverflowError where the dtype cannot
    hold it (runtime/copies.py would refuse an int64 into int8 by the casting rule)."""
    if len(original.args) != 2 or any(a.keyword is not None or a.star for a in original.args):
        return updated
    into, value = types.of(original.args[0].value), original.args[1].value
    kind = types.of(value)
    if not isinstance(into, Array) or not weak_int(kind) or np.dtype(into.dtype).kind not in "iu" \
            or not needs_fit(value, kind, into.dtype):
        return updated
    return updated.with_changes(args=[updated.args[0], updated.args[1].with_changes(
        value=fitted(updated.args[1].value, kind, into.dtype, numpy(), intrinsic))])


def _constructed(original: cst.Call, types: Types) -> str | None:
    """The integer dtype `x` has in a call of `x.dtype.type`, where Cuvil knows it (else None)."""
    func = original.func
    dtype = types.rules.dtype_arg(func.value) if isinstance(func, cst.Attribute) else None
    return dtype if f"numpy.{dtype}" in _INTEGERS else None


def _fitted_fill(original: cst.Call, updated: cst.Call, types: Types, numpy: Callable[[], str],
                 intrinsic: Callable[[str, str], str]) -> cst.Call | None:
    """`np.full(n, 300, np.int8)`: NumPy 2's OverflowError for a Python int the dtype cannot hold (Numba wrapped
    it). Only ints: NumPy fills with an unsafe cast, so a Python float is truncated without an error."""
    result = types.of(original)
    k = next((i for i, a in enumerate(original.args) if a.keyword is not None and a.keyword.value == "fill_value"),
             1 if len(original.args) > 1 and original.args[1].keyword is None else None)
    if not isinstance(result, Array) or k is None:
        return None
    value = original.args[k].value
    kind = types.of(value)
    if not weak_int(kind) or not needs_fit(value, kind, result.dtype):
        return None
    args = list(updated.args)
    args[k] = args[k].with_changes(value=fitted(args[k].value, kind, result.dtype, numpy(), intrinsic))
    return updated.with_changes(args=args)


def _literal_fits(node: cst.BaseExpression, dtype: str) -> bool:
    negative = isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus)
    literal = node.expression if negative else node  # type: ignore[attr-defined]
    if not isinstance(literal, cst.Integer | cst.Float):
        return False
    number = literal.evaluated_value
    if isinstance(number, float) and not math.isfinite(number):
        return False
    value = -int(number) if negative else int(number)  # a float truncated, as NumPy's store does
    info = np.iinfo(dtype)
    return int(info.min) <= value <= int(info.max)
