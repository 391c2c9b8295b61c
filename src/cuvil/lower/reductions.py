"""Reductions as accumulating loops: what each one initializes, updates per element and finishes with.

    np.sum(x)          acc = np.float64(0)  ...  acc += x[i]            → np.float32(acc) for float32 x
    np.max(x, axis=1)  acc = -inf, nan = 0  ...  acc = maximum_nonan(acc, v)  → nan if any element was nan
                                                  nan += v != v

NumPy's results: float32 and float16 sums and means accumulate in float64 and round once (NumPy's pairwise
sum is that accurate; a float32 running sum is not); max and min propagate NaN and raise NumPy's ValueError on
an empty reduction; mean of nothing is nan. The update of `sum`, `prod` and `max`/`min` is of a form Numba
recognizes as a parallel reduction; a float max/min/sum/mean along an axis, whose loop stays serial inside the
parallel loop over the output, is `acc = maximum_nonan(acc, v)` (NaNs counted beside it) or
`acc = add_any_order(acc, v)` instead, which vectorize (lower/math.py, runtime/reorder.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..normalize.origins import with_origin
from . import math
from .nest import Stmts, assign, line


@dataclasses.dataclass(frozen=True)
class Reduction:
    op: str
    operand: cst.BaseExpression
    axis: int | None
    keepdims: bool

    @staticmethod
    def parse(node: cst.Call, types: Types) -> Reduction | None:
        """`np.sum(x, axis=1, keepdims=True)`, `x.sum(1)`, `np.max(x)`; None for anything else."""
        name = types.calls.effect(node).name
        positional = [a.value for a in node.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if set(keywords) - {"axis", "keepdims"}:
            return None
        if name.startswith("numpy.") and name[6:] in _NAMES and positional:
            op, operand, rest = _NAMES[name[6:]], positional[0], positional[1:]
        elif name.startswith(".") and name[1:] in _NAMES and isinstance(node.func, cst.Attribute):
            op, operand, rest = _NAMES[name[1:]], node.func.value, positional
        else:
            return None
        if len(rest) > 1 or (rest and "axis" in keywords):
            return None
        axis_node = rest[0] if rest else keywords.get("axis")
        axis = literal_int(axis_node)
        if axis_node is not None and axis is None and not is_none(axis_node):
            return None
        keep = keywords.get("keepdims")
        if keep is not None and not (isinstance(keep, cst.Name) and keep.value in ("True", "False")):
            return None
        return Reduction(op, operand, axis, isinstance(keep, cst.Name) and keep.value == "True")


_NAMES = {"sum": "sum", "prod": "prod", "mean": "mean", "max": "max", "amax": "max", "min": "min", "amin": "min",
          "any": "any", "all": "all"}


def is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def literal_int(node: cst.BaseExpression | None) -> int | None:
    """The value of an int literal (`2`, `-1`), else None."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal_int(node.expression)
        return -inner if inner is not None else None
    return int(node.evaluated_value) if isinstance(node, cst.Integer) else None


@dataclasses.dataclass
class Pieces:
    check: Stmts  # before the loops, once: raise on an empty reduction
    init: Stmts  # before each accumulation
    update: Stmts  # per element
    finish: Stmts  # after each accumulation
    result: cst.BaseExpression
    names: set[str]  # the temporaries it binds
    # What each accumulation carries from element to element: its dtype and how two partial ones combine, `+`,
    # `*`, `max` or `min` (lower/across.py)
    state: dict[str, tuple[str, str]]


Fresh = Callable[[str], str]
Intrinsic = Callable[[str, str], str]


def _np(numpy: str, name: str) -> cst.Attribute:
    return cst.Attribute(cst.Name(numpy), cst.Name("bool_" if name == "bool" else name))


def _cast(numpy: str, dtype: str, value: cst.BaseExpression) -> cst.Call:
    return cst.Call(_np(numpy, dtype), [cst.Arg(value)])


def _accumulator(dtype: str) -> str:
    kind = np.dtype(dtype).kind
    if kind == "f" and np.dtype(dtype).itemsize < 8:
        return "float64"
    if kind == "c" and np.dtype(dtype).itemsize < 16:
        return "complex128"
    return dtype


def _any_order(acc: str, value: cst.BaseExpression, wide: str, numpy: str, intrinsic: Intrinsic,
               vector: tuple[str, str], origin: int | None) -> cst.BaseStatement:
    """`acc = add_any_order(acc, wide(value))`: a sum along an axis, whose serial loop LLVM then vectorizes
    (runtime/reorder.py); a whole-array sum keeps `+=`, the form Numba's parfor recognizes as a reduction."""
    call = cst.Call(cst.Name(intrinsic(*vector)), [cst.Arg(cst.Name(acc)), cst.Arg(_cast(numpy, wide, value))])
    return assign(cst.Name(acc), call, origin)


@dataclasses.dataclass(frozen=True)
class _Sum:
    start: int
    operator: type[cst.BaseAugOp]
    widen: bool  # accumulate float32 in float64 (sums: NumPy's pairwise sum is about that accurate)

    def pieces(self, acc: str, value: cst.BaseExpression, dtype: str, numpy: str, fresh: Fresh,
               origin: int | None, intrinsic: Intrinsic, count: cst.BaseExpression,
               serial: bool = False) -> Pieces:
        # NumPy reduces float16 in float32 and rounds once (its half loops convert to float): 25 * 2622 * 0 is 0
        wide = _accumulator(dtype) if self.widen else "float32" if dtype == "float16" else dtype
        init: Stmts = [assign(cst.Name(acc), _cast(numpy, wide, cst.Integer(str(self.start))), origin)]
        result = cst.Name(acc) if wide == dtype else _cast(numpy, dtype, cst.Name(acc))
        vector = math.reduction("sum", wide) if serial and self.operator is cst.AddAssign else None
        update: Stmts = [_any_order(acc, value, wide, numpy, intrinsic, vector, origin) if vector
                         else line(cst.AugAssign(cst.Name(acc), self.operator(), value), origin)]
        combine = "+" if self.operator is cst.AddAssign else "*"
        return Pieces([], init, update, [], result, set(), {acc: (wide, combine)})


class _Mean:
    def pieces(self, acc: str, value: cst.BaseExpression, dtype: str, numpy: str, fresh: Fresh,
               origin: int | None, intrinsic: Intrinsic, count: cst.BaseExpression,
               serial: bool = False) -> Pieces:
        wide = _accumulator(dtype)
        init: Stmts = [assign(cst.Name(acc), _cast(numpy, wide, cst.Integer("0")), origin)]
        vector = math.reduction("sum", wide) if serial else None
        update: Stmts = [_any_order(acc, value, wide, numpy, intrinsic, vector, origin) if vector
                         else line(cst.AugAssign(cst.Name(acc), cst.AddAssign(), value), origin)]
        divide = cst.Call(cst.Name(intrinsic("cuvil.runtime.elementwise", "true_divide")),
                          [cst.Arg(cst.Name(acc)), cst.Arg(count)])  # NumPy: the mean of nothing is nan
        return Pieces([], init, update, [], _cast(numpy, dtype, divide), set(), {acc: (wide, "+")})


@dataclasses.dataclass(frozen=True)
class _Extreme:
    largest: bool

    def pieces(self, acc: str, value: cst.BaseExpression, dtype: str, numpy: str, fresh: Fresh,
               origin: int | None, intrinsic: Intrinsic, count: cst.BaseExpression,
               serial: bool = False) -> Pieces:
        what = "maximum" if self.largest else "minimum"
        empty = cst.Comparison(count, [cst.ComparisonTarget(cst.Equal(), cst.Integer("0"))])
        error = cst.Call(cst.Name("ValueError"), [cst.Arg(cst.SimpleString(
            repr(f"zero-size array to reduction operation {what} which has no identity")))])
        check: Stmts = [with_origin(cst.If(empty, cst.IndentedBlock([line(cst.Raise(error), origin)])), origin)]
        kind = np.dtype(dtype).kind
        if kind == "f":
            start: cst.BaseExpression = cst.UnaryOperation(cst.Minus(), _np(numpy, "inf")) if self.largest \
                else _np(numpy, "inf")
        elif kind == "b":
            start = cst.Name("False" if self.largest else "True")
        else:
            info = np.iinfo(dtype)
            bound = int(info.min if self.largest else info.max)
            # -2**63 as `-9223372036854775807 - 1`: the literal 9223372036854775808 alone is a Python int beyond
            # int64, which the overflow checks rightly refuse to negate
            start = cst.Integer(str(bound)) if bound >= 0 else \
                cst.BinaryOperation(cst.UnaryOperation(cst.Minus(), cst.Integer(str(-bound - 1))), cst.Subtract(),
                                    cst.Integer("1"))
        init: Stmts = [assign(cst.Name(acc), _cast(numpy, dtype, start), origin)]
        pick = cst.Call(cst.Name("max" if self.largest else "min"), [cst.Arg(cst.Name(acc))])
        if kind != "f":
            update: Stmts = [assign(cst.Name(acc), pick.with_changes(args=[*pick.args, cst.Arg(value)]), origin)]
            return Pieces(check, init, update, [], cst.Name(acc), set(), {acc: (dtype, what[:3])})
        # Along an axis (a serial loop) a NaN-blind step LLVM vectorizes (lower/math.py); a whole-array loop keeps
        # `max`, a reduction Numba's parfor knows. Either way NaNs are counted and win at the end.
        vector = math.reduction("max" if self.largest else "min", dtype) if serial else None
        if vector is not None:
            pick = cst.Call(cst.Name(intrinsic(*vector)), [cst.Arg(cst.Name(acc))])
        element, nans = fresh("_v"), fresh("_nan")
        init.append(assign(cst.Name(nans), cst.Integer("0"), origin))
        is_nan = cst.Comparison(cst.Name(element), [cst.ComparisonTarget(cst.NotEqual(), cst.Name(element))])
        update = [assign(cst.Name(element), value, origin),
                  assign(cst.Name(acc), pick.with_changes(args=[*pick.args, cst.Arg(cst.Name(element))]), origin),
                  line(cst.AugAssign(cst.Name(nans), cst.AddAssign(), is_nan), origin)]
        finish: Stmts = [with_origin(cst.If(cst.Name(nans), cst.IndentedBlock(
            [assign(cst.Name(acc), _cast(numpy, dtype, _np(numpy, "nan")), origin)])), origin)]
        return Pieces(check, init, update, finish, cst.Name(acc), {element, nans},
                      {acc: (dtype, what[:3]), nans: ("int64", "+")})


@dataclasses.dataclass(frozen=True)
class _Logical:
    """`np.any`/`np.all` as a count of the elements that decide it (true ones for any, false ones for all): a
    sum, which Numba's parfor reduces and LLVM vectorizes, where `acc |= v` is neither. NaN is true."""
    any: bool

    def pieces(self, acc: str, value: cst.BaseExpression, dtype: str, numpy: str, fresh: Fresh,
               origin: int | None, intrinsic: Intrinsic, count: cst.BaseExpression,
               serial: bool = False) -> Pieces:
        init: Stmts = [assign(cst.Name(acc), cst.Integer("0"), origin)]
        value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])  # `(x > 0) != 0`: not a chain
        deciding = cst.Comparison(value, [cst.ComparisonTarget(cst.NotEqual() if self.any else cst.Equal(),
                                                               cst.Integer("0"))])
        update: Stmts = [line(cst.AugAssign(cst.Name(acc), cst.AddAssign(), deciding), origin)]
        result = cst.Comparison(cst.Name(acc), [cst.ComparisonTarget(
            cst.GreaterThan() if self.any else cst.Equal(), cst.Integer("0"))])
        return Pieces([], init, update, [], result, set(), {acc: ("int64", "+")})


REDUCTIONS = {
    "sum": _Sum(0, cst.AddAssign, True),
    "prod": _Sum(1, cst.MultiplyAssign, False),  # NumPy multiplies float32 in float32, overflow and all
    "mean": _Mean(),
    "max": _Extreme(True),
    "min": _Extreme(False),
    "any": _Logical(True),
    "all": _Logical(False),
}
