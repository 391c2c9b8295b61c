"""Types of every name and expression, as NumPy 2 and CPython would have them.

- NumPy values (arrays, `np.float32(…)`, elements read from arrays) are *strong*; Python numbers are *weak*
  (NEP 50): `float32_array + 0.1` is float32, `uint8_array + 1` is uint8 and wraps, `int8_value + 1.5` is
  float64. Operators and ufuncs take their result dtype from NumPy itself (`ufunc.resolve_dtypes`, which
  implements exactly these rules), so Cuvil cannot drift from NumPy's table.
- Python numbers follow CPython: int op int is an int (64-bit here: overflow is a check's business), `/` is a
  float, comparisons are bools; `math.*` returns Python floats.
- Flow-insensitive: a name's type is the union of what all its bindings give (`s = 0.0` then `s += x[i]` with
  float32 `x` makes `s` float32 — in CPython it becomes an `np.float32` at the first addition, and keeping it
  float32 from the start gives the same values). A union NumPy has no answer for (an int array on one path, a
  float array on another) is `CONFLICT`, and so is anything Cuvil does not know: code generation then leaves
  that expression to Numba's own typing.

float16 and bfloat16 appear as dtypes (bfloat16 by name: NumPy has none) for the precision work to fill in.
This module imports neither libcst nor Numba: the dispatcher describes arguments with it on every compile;
the rules per expression and the fixpoint over a function are analysis/type_rules.py.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np


@dataclasses.dataclass(frozen=True)
class Scalar:
    dtype: str  # a NumPy dtype name: "float32", "int64", "bool", "complex128"
    weak: bool = False  # a Python number: its dtype gives way to a NumPy operand's (NEP 50)

    def __str__(self) -> str:
        return {"int64": "int", "float64": "float", "bool": "bool", "complex128": "complex"}[self.dtype] \
            if self.weak else self.dtype


@dataclasses.dataclass(frozen=True)
class Array:
    dtype: str
    ndim: int

    def __str__(self) -> str:
        return f"{self.dtype}[{self.ndim}d]"


@dataclasses.dataclass(frozen=True)
class Tuple:
    items: tuple[Type, ...]

    def __str__(self) -> str:
        return "(" + ", ".join(map(str, self.items)) + ("," if len(self.items) == 1 else "") + ")"


@dataclasses.dataclass(frozen=True)
class Opaque:
    what: str  # "none", "module", "function", "conflict", "unknown"

    def __str__(self) -> str:
        return self.what


@dataclasses.dataclass(frozen=True)
class Refused(Opaque):
    """An operation NumPy refuses for these types (TypeError), with NumPy's words: it raises when it runs."""

    message: str = ""


@dataclasses.dataclass(frozen=True)
class BigInt(Opaque):
    """A captured Python int outside int64 (`MASK = 2**64 - 1`): no dtype holds it as Python does, so
    lower/big_ints.py decides each use (NumPy's uint64 or float, or an OverflowError) before anything else."""

    value: int = 0


Type = Scalar | Array | Tuple | Opaque
NONE = Opaque("none")
UNKNOWN = Opaque("unknown")  # Cuvil does not know: Numba's typing decides
CONFLICT = Opaque("conflict")  # bindings disagree in a way NumPy does not unify
INT, FLOAT, BOOL, COMPLEX = Scalar("int64", True), Scalar("float64", True), Scalar("bool", True), \
    Scalar("complex128", True)

_WEAK_SAMPLE = {"bool": bool, "int64": int, "float64": float, "complex128": complex}
_KIND_ORDER = ("bool", "int64", "float64", "complex128")


def numeric(t: Type) -> bool:
    return isinstance(t, Scalar | Array)


def dtype_of(t: Type) -> str | None:
    return t.dtype if isinstance(t, Scalar | Array) else None


def operand(t: Scalar | Array) -> np.dtype | type:
    """What `ufunc.resolve_dtypes` takes for an operand: a dtype, or a Python type for a weak scalar."""
    if isinstance(t, Scalar) and t.weak and t.dtype != "bool":  # NEP 50: a Python bool is simply np.bool_
        return _WEAK_SAMPLE[t.dtype]
    return np.dtype(t.dtype)


def _python_kind(*types: Scalar) -> str:
    return _KIND_ORDER[max(_KIND_ORDER.index(t.dtype) for t in types)]


def ufunc_result(name: str, operands: Sequence[Type], python: bool = True) -> Type:
    """The result of `np.<name>(*operands)` (or the operator spelled by it), by NumPy's own resolution. Python
    numbers with Python numbers follow CPython (`python`) for an operator; `np.sqrt(2)` is NumPy's float64."""
    if not all(isinstance(t, Scalar | Array) for t in operands):
        return UNKNOWN
    ops: list[Scalar | Array] = [t for t in operands if isinstance(t, Scalar | Array)]
    ufunc = getattr(np, name, None)
    if not isinstance(ufunc, np.ufunc) or len(ops) != ufunc.nin:
        return UNKNOWN
    ndim = max((t.ndim for t in ops if isinstance(t, Array)), default=None)
    if ndim is None and all(isinstance(t, Scalar) and t.weak for t in ops) and python:
        return _python(name, ops)  # type: ignore[arg-type]
    try:
        resolved = ufunc.resolve_dtypes((*(operand(t) for t in ops), *([None] * ufunc.nout)))
    except (TypeError, ValueError, OverflowError):
        return _refusal(name, ops)
    outs = [np.dtype(d).name for d in resolved[ufunc.nin:]]
    made: list[Type] = [Array(d, ndim) if ndim is not None else Scalar(d) for d in outs]
    return made[0] if len(made) == 1 else Tuple(tuple(made))


def output_refusal(ufunc: str, target: Type, operands: list[Type]) -> str | None:
    """NumPy's message when `array op= value` or `ufunc(..., out=array)` computes a dtype that does not cast
    to the array's under the rule for outputs ('same_kind': `int_array /= 2.0`, `bool_array += 1`), or has
    no loop for the operands; None when it casts or is unknown."""
    if not isinstance(target, Array):
        return None
    result = ufunc_result(ufunc, operands)
    if isinstance(result, Refused):  # no loop at all (`bool_array -= bool_array`): NumPy's own words
        return result.message
    dtype = getattr(result, "dtype", None)
    if not isinstance(result, Array | Scalar) or dtype is None or \
            np.can_cast(np.dtype(dtype), np.dtype(target.dtype), "same_kind"):
        return None
    return (f"Cannot cast ufunc '{getattr(np, ufunc).__name__}' output from dtype('{np.dtype(dtype)}') to "
            f"dtype('{np.dtype(target.dtype)}') with casting rule 'same_kind'")


def _refusal(name: str, ops: Sequence[Scalar | Array]) -> Type:
    """NumPy refuses these operands (bool - bool, -bool): what it says, for the operation to raise at run time."""
    samples = [np.zeros(1, t.dtype) if isinstance(t, Array) or not t.weak else _WEAK_SAMPLE[t.dtype](0)
               for t in ops]
    try:
        getattr(np, name)(*samples)
    except TypeError as exc:
        return Refused("refused", str(exc).splitlines()[0])
    except Exception:  # noqa: BLE001 (anything else NumPy says: not a refusal Cuvil repeats)
        return CONFLICT
    return CONFLICT


def _python(name: str, ops: Sequence[Scalar]) -> Type:
    """Python numbers with Python numbers: CPython's rules (ints are 64-bit in compiled code)."""
    kind = _python_kind(*ops)
    if name in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"):
        return BOOL
    if name == "true_divide":
        return COMPLEX if kind == "complex128" else FLOAT
    if name in ("bitwise_and", "bitwise_or", "bitwise_xor") and kind == "bool":
        return BOOL
    if kind == "bool":
        return INT  # True + True == 2
    return Scalar(kind, True)


def unify(a: Type | None, b: Type) -> Type:
    """The type a name has when it is bound to values of types `a` and `b` (None: not bound yet)."""
    if a is None or a == b:
        return b
    if isinstance(a, Opaque) or isinstance(b, Opaque):
        return CONFLICT
    if isinstance(a, Scalar) and isinstance(b, Scalar):
        if a.weak and b.weak:
            return Scalar(_python_kind(a, b), True)
        if a.weak or b.weak:
            strong, weak = (b, a) if a.weak else (a, b)
            try:
                merged = np.result_type(np.dtype(strong.dtype), _WEAK_SAMPLE[weak.dtype](0)).name
            except TypeError:
                return CONFLICT
            return Scalar(merged)
        return Scalar(np.promote_types(a.dtype, b.dtype).name)
    if isinstance(a, Tuple) and isinstance(b, Tuple) and len(a.items) == len(b.items):
        return Tuple(tuple(unify(x, y) for x, y in zip(a.items, b.items)))
    return CONFLICT


def extreme(types: Sequence[Type], literals: Sequence[int | float | None]) -> Type:
    """The type of `max(a, b, ...)` / `min(...)` of numbers. CPython returns one argument unconverted, which no
    single type follows; this one holds every argument's value exactly where a type can. NumPy's promotion of
    the NumPy arguments, widened by each Python number it cannot hold: a literal it holds exactly adds nothing
    (max(np.int32(x), 0) is int32 and wraps as x would; max(u, 0) of a uint64 is uint64), another Python int is
    an int64 and float a float64 (max(np.int8(5), 300) is 300, not NEP 50's int8 44; max(np.float32(0), 0.1) is
    0.1). uint64 with a signed integer stays NumPy's float64. `literals`: each argument's value if a literal."""
    if not all(isinstance(t, Scalar) for t in types):
        out: Type | None = None
        for t in types:
            out = unify(out, t)
        return out if out is not None else UNKNOWN
    scalars = [t for t in types if isinstance(t, Scalar)]
    if all(t.weak for t in scalars):
        return Scalar(_python_kind(*scalars), True)
    strong = [np.dtype(t.dtype) for t in scalars if not t.weak]
    base = np.result_type(*strong)
    wider = [np.dtype(t.dtype) for t, v in zip(scalars, literals) if t.weak and not _holds(base, v)]
    return Scalar(np.result_type(base, *wider).name)


def _holds(dtype: np.dtype, value: int | float | None) -> bool:
    """`value` (a literal; None: not one) is exactly a value of `dtype`."""
    if value is None or dtype.kind not in "iuf" or (dtype.kind in "iu" and not isinstance(value, int)):
        return False
    if dtype.kind in "iu":
        return int(np.iinfo(dtype).min) <= value <= int(np.iinfo(dtype).max)
    return math.isfinite(value) and float(dtype.type(value)) == value


def item(t: Type, k: int) -> Type:
    """The k-th value unpacked from `t`."""
    if isinstance(t, Tuple):
        return t.items[k] if k < len(t.items) else CONFLICT
    if isinstance(t, Array):
        return Array(t.dtype, t.ndim - 1) if t.ndim > 1 else Scalar(t.dtype)
    return UNKNOWN


def from_numba(ty: object, weak: bool = False) -> Type:
    """The type of an argument, from the Numba type the guard recorded (and whether it was a Python number)."""
    import numba

    if isinstance(ty, numba.types.Array):
        return Array(np.dtype(str(ty.dtype)).name, ty.ndim)
    if isinstance(ty, numba.types.Boolean):
        return Scalar("bool", weak)
    if isinstance(ty, numba.types.Integer | numba.types.Float | numba.types.Complex):
        return Scalar(np.dtype(str(ty)).name, weak)
    if isinstance(ty, numba.types.BaseTuple):
        return Tuple(tuple(from_numba(t, weak) for t in ty.types))  # type: ignore[attr-defined]
    if isinstance(ty, numba.types.NoneType | numba.types.Omitted):
        return NONE
    return UNKNOWN


def of_argument(value: object, numba_type: object) -> Type:
    """The type of an argument: Numba's type, with Python numbers (also inside tuples) weak."""
    if isinstance(value, tuple) and hasattr(numba_type, "types"):
        return Tuple(tuple(of_argument(v, t) for v, t in zip(value, numba_type.types)))
    return from_numba(numba_type, weak=type(value) in (bool, int, float, complex))


def of_value(value: object) -> Type:
    """The type of a captured constant."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT if -(2**63) <= value < 2**63 else BigInt("big int", value)
    if isinstance(value, float):
        return FLOAT
    if isinstance(value, complex):
        return COMPLEX
    if isinstance(value, np.ndarray):
        return Array(value.dtype.name, value.ndim)
    if isinstance(value, np.generic) and value.dtype.kind in "biufc":
        return Scalar(value.dtype.name)
    if type(value) is tuple:
        return Tuple(tuple(of_value(v) for v in value))
    if value is None:
        return NONE
    return UNKNOWN
