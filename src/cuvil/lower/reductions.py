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
    ddof: int = 0  # var and std

    @staticmethod
    def parse(node: cst.Call, types: Types) -> Reduction | None:
        """`np.sum(x, axis=1, keepdims=True)`, `x.sum(1)`, `np.max(x)`; None for anything else."""
        name = types.calls.effect(node).name
        positional = [a.value for a in node.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if set(keywords) - {"axis", "keepdims", "ddof"}:
            return None
        ddof = literal_int(keywords.get("ddof", cst.Integer("0")))
        if ddof is None or ("ddof" in keywords and name.rpartition(".")[2] not in ("var", "std")):
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
        return Reduction(op, operand, axis, isinstance(keep, cst.Name) and keep.value == "True", ddof)


_NAMES = {"sum": "sum", "prod": "prod", "mean": "mean", "max": "max", "amax": "max", "min": "min", "amin": "min",
          "any": "any", "all": "all", "var": "var", "std": "std", "argmax": "argmax", "argmin": "argmin"}


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
    between: Stmts = dataclasses.field(default_factory=list)  # a two-pass reduction: after the first pass
    again: Stmts = dataclasses.field(default_factory=list)  # and per element of its second pass


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
    lanes: bool = False  # across lanes (lower/across.py): float32 in float32, see _in_rows

    def pieces(self, acc: str, value: cst.BaseExpression, dtype: str, numpy: str, fresh: Fresh,
               origin: int | None, intrinsic: Intrinsic, count: cst.BaseExpression,
               serial: bool = False) -> Pieces:
        # NumPy reduces float16 in float32 and rounds once (its half loops convert to float): 25 * 2622 * 0 is 0
        wide = _accumulator(dtype) if self.widen else "float32" if dtype == "float16" else dtype
        start: cst.BaseExpression = cst.Integer(str(self.start))
        if self.lanes and dtype == "float32" and self.operator is cst.AddAssign:
            wide, start = _in_rows()
        init: Stmts = [assign(cst.Name(acc), _cast(numpy, wide, start), origin)]
        result = cst.Name(acc) if wide == dtype else _cast(numpy, dtype, cst.Name(acc))
        vector = math.reduction("sum", wide) if serial and self.operator is cst.AddAssign else None
        update: Stmts = [_any_order(acc, value, wide, numpy, intrinsic, vector, origin) if vector
                         else line(cst.AugAssign(cst.Name(acc), self.operator(), value), origin)]
        combine = "+" if self.operator is cst.AddAssign else "*"
        return Pieces([], init, update, [], result, set(), {acc: (wide, combine)})


def _in_rows() -> tuple[str, cst.BaseExpression]:
    """The accumulator dtype and start of a float32 sum or mean along a leading axis. NumPy adds the rows in
    order into a float32 row there (its pairwise sum is only along the contiguous axis), so lanes do the same, in
    the same order: NumPy's bits, and half the accumulator traffic of float64 lanes. -0.0 is the exact identity
    (a column of -0.0 sums to -0.0, as NumPy's)."""
    return "float32", cst.UnaryOperation(cst.Minus(), cst.Float("0.0"))


@dataclasses.dataclass(frozen=True)
class _Mean:
    lanes: bool = False  # across lanes (lower/across.py): float32 in float32, see _in_rows

    def pieces(self, acc: str, value: cst.BaseExpression, dtype: str, numpy: str, fresh: Fresh,
               origin: int | None, intrinsic: Intrinsic, count: cst.BaseExpression,
               serial: bool = False) -> Pieces:
        wide: str = _accumulator(dtype)
        start: cst.BaseExpression = cst.Integer("0")
        if self.lanes and dtype == "float32":
            wide, start = _in_rows()
        init: Stmts = [assign(cst.Name(acc), _cast(numpy, wide, start), origin)]
        vector = math.reduction("sum", wide) if serial else None
        update: Stmts = [_any_order(acc, value, wide, numpy, intrinsic, vector, origin) if vector
                         else line(cst.AugAssign(cst.Name(acc), cst.AddAssign(), value), origin)]
        divide = cst.Call(cst.Name(intrinsic("cuvil.runtime.elementwise", "true_divide")),
                          [cst.Arg(cst.Name(acc)), cst.Arg(count)])  # NumPy: the mean of nothing is nan
        return Pieces([], init, update, [], _cast(numpy, dtype, divide), set(), {acc: (wide, "+")})


@dataclasses.dataclass(frozen=True)
class _Extreme:
    largest: bool
    lanes: bool = False  # across lanes (lower/across.py): a NaN kept in the lane itself, no count beside it

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
        if self.lanes:  # `acc = acc if acc != acc or v <= acc else v`: selects, vectorized across the lanes
            element = fresh("_v")
            update = [assign(cst.Name(element), value, origin),
                      assign(cst.Name(acc), kept_extreme(cst.Name(acc), cst.Name(element), self.largest), origin)]
            return Pieces(check, init, update, [], cst.Name(acc), {element}, {acc: (dtype, what[:3])})
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


def grouped(node: cst.BaseExpression) -> cst.BaseExpression:
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def kept_extreme(acc: cst.BaseExpression, v: cst.BaseExpression, largest: bool) -> cst.BaseExpression:
    """The larger (smaller) of `acc` and `v`, a NaN in either winning (`acc`'s first): `acc if (acc != acc) |
    (v <= acc) else v`; for integers and bools the NaN test is False."""
    is_nan = grouped(cst.Comparison(acc, [cst.ComparisonTarget(cst.NotEqual(), acc)]))
    within = grouped(cst.Comparison(v, [cst.ComparisonTarget(cst.LessThanEqual() if largest
                                                             else cst.GreaterThanEqual(), acc)]))
    return cst.IfExp(cst.BinaryOperation(is_nan, cst.BitOr(), within), acc, v)


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


@dataclasses.dataclass(frozen=True)
class Variance:
    """NumPy's var (std: its square root) of real numbers along an axis, in NumPy's two passes: the mean, then
    the sum of squared deviations from it, over max(n - ddof, 0) (inf or nan where that is 0; nan for no
    elements), in float64 and rounded once to NumPy's dtype. Two partial results do not simply combine, so
    lower/across.py keeps such a reduction in one chunk."""
    root: bool
    ddof: int

    def pieces(self, acc: str, value: cst.BaseExpression, dtype: str, numpy: str, fresh: Fresh,
               origin: int | None, intrinsic: Intrinsic, count: cst.BaseExpression,
               serial: bool = False) -> Pieces:
        mean, deviation = fresh("_mean"), fresh("_dev")
        zero = _cast(numpy, "float64", cst.Integer("0"))
        sums = math.reduction("sum", "float64") if serial else None
        divide = cst.Name(intrinsic("cuvil.runtime.elementwise", "true_divide"))

        def add(name: str, term: cst.BaseExpression) -> cst.BaseStatement:
            if sums is None:
                return line(cst.AugAssign(cst.Name(name), cst.AddAssign(), term), origin)
            return assign(cst.Name(name), cst.Call(cst.Name(intrinsic(*sums)), [cst.Arg(cst.Name(name)),
                                                                                  cst.Arg(term)]), origin)

        square = cst.BinaryOperation(cst.Name(deviation), cst.Multiply(), cst.Name(deviation))
        between: Stmts = [assign(cst.Name(mean), cst.Call(divide, [cst.Arg(cst.Name(mean)), cst.Arg(
            _cast(numpy, "float64", count))]), origin)]
        again = [assign(cst.Name(deviation), cst.BinaryOperation(_cast(numpy, "float64", value), cst.Subtract(),
                                                                 cst.Name(mean)), origin), add(acc, square)]
        kept = count if self.ddof == 0 else cst.Call(cst.Name("max"), [cst.Arg(cst.BinaryOperation(
            count, cst.Subtract() if self.ddof > 0 else cst.Add(), cst.Integer(str(abs(self.ddof))))),
            cst.Arg(cst.Integer("0"))])
        result: cst.BaseExpression = cst.Call(divide, [cst.Arg(cst.Name(acc)),
                                                       cst.Arg(_cast(numpy, "float64", kept))])
        if self.root:
            result = cst.Call(_np(numpy, "sqrt"), [cst.Arg(result)])
        return Pieces([], [assign(cst.Name(acc), zero, origin), assign(cst.Name(mean), zero, origin)],
                      [add(mean, _cast(numpy, "float64", value))], [], _cast(numpy, dtype, result), {deviation},
                      {acc: ("float64", "+"), mean: ("float64", "+")}, between, again)


@dataclasses.dataclass(frozen=True)
class ArgExtreme:
    """NumPy's argmax (argmin) along an axis: the first index of the largest (smallest) element, of the first NaN
    if there is one; NumPy's ValueError for an empty axis. Along the last axis (`lanes` False) in two passes, the
    extreme as a reduction LLVM vectorizes (NaNs counted beside it), then the first index holding it; across
    lanes (lower/across.py) in one pass of selects, each lane keeping its index. `position` is the reduced
    axis's loop variable, `operand` the dtype of the elements (the result's is int64)."""
    largest: bool
    position: str
    lanes: bool
    operand: str

    def pieces(self, acc: str, value: cst.BaseExpression, dtype: str, numpy: str, fresh: Fresh,
               origin: int | None, intrinsic: Intrinsic, count: cst.BaseExpression,
               serial: bool = False) -> Pieces:
        dtype = self.operand
        extreme = _Extreme(self.largest).pieces(acc, value, dtype, numpy, fresh, origin, intrinsic, count, True)
        what = "argmax" if self.largest else "argmin"
        error = cst.Call(cst.Name("ValueError"), [cst.Arg(cst.SimpleString(repr(
            f"attempt to get {what} of an empty sequence")))])
        empty = cst.Comparison(count, [cst.ComparisonTarget(cst.Equal(), cst.Integer("0"))])
        check: Stmts = [with_origin(cst.If(empty, cst.IndentedBlock([line(cst.Raise(error), origin)])), origin)]
        index, element = fresh("_at"), fresh("_v")
        floats = np.dtype(dtype).kind == "f"
        init = [*extreme.init[:1], assign(cst.Name(index), cst.Integer("0"), origin)]
        state = {acc: (dtype, ""), index: ("int64", "")}  # no combine: lower/across.py keeps one chunk
        if self.lanes:
            beyond = cst.Comparison(cst.Name(element), [cst.ComparisonTarget(
                cst.GreaterThan() if self.largest else cst.LessThan(), cst.Name(acc))])
            take: cst.BaseExpression = beyond
            if floats:  # the first NaN wins: taken while the kept value is not NaN
                first_nan = cst.BinaryOperation(_is_nan(element, True), cst.BitAnd(), cst.Comparison(
                    cst.Name(acc), [cst.ComparisonTarget(cst.Equal(), cst.Name(acc))]).with_changes(
                    lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
                take = cst.BinaryOperation(beyond.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]),
                                           cst.BitOr(), first_nan)
            taken = fresh("_take")
            update: Stmts = [assign(cst.Name(element), value, origin), assign(cst.Name(taken), take, origin),
                             assign(cst.Name(acc), cst.IfExp(cst.Name(taken), cst.Name(element), cst.Name(acc)),
                                    origin),
                             assign(cst.Name(index), cst.IfExp(cst.Name(taken), cst.Name(self.position),
                                                               cst.Name(index)), origin)]
            return Pieces(check, init, update, [], cst.Name(index), {element, taken}, state)
        # The first index that holds the extreme, or the first NaN (the first pass made the extreme NaN when
        # it counted one, and no element equals a NaN), as the least of `position if hit else count` over the
        # whole axis: a min-reduction of selects LLVM vectorizes, where a loop that breaks at the hit ran one
        # element at a time (argmax along the last axis of 4000 x 1000 float32 took 3.6x NumPy's time)
        hit: cst.BaseExpression = grouped(cst.Comparison(cst.Name(element), [cst.ComparisonTarget(
            cst.Equal(), cst.Name(acc))]))
        if extreme.finish:
            hit = cst.BinaryOperation(hit, cst.BitOr(), _is_nan(element, True))
        first = cst.Call(cst.Name("min"), [cst.Arg(cst.Name(index)), cst.Arg(cst.IfExp(
            hit, cst.Name(self.position), count))])
        again: Stmts = [assign(cst.Name(element), value, origin), assign(cst.Name(index), first, origin)]
        return Pieces(check, [*extreme.init, assign(cst.Name(index), count, origin)], extreme.update,
                      [], cst.Name(index), {*extreme.names, element}, state, extreme.finish, again)


def _is_nan(name: str, grouped: bool) -> cst.Comparison:
    test = cst.Comparison(cst.Name(name), [cst.ComparisonTarget(cst.NotEqual(), cst.Name(name))])
    return test.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]) if grouped else test


_ALONG_ONLY = ("var", "std", "argmax", "argmin")  # of a whole N-D array: Numba's own (a float64 var, a flat index)
ORDERED = ("max", "min", "var", "std", "argmax", "argmin")  # not of complex numbers: NumPy orders them its own way
_LANES: dict[str, _Sum | _Mean | _Extreme] = {  # the forms whose accumulators are lanes (lower/across.py)
    "sum": _Sum(0, cst.AddAssign, True, lanes=True), "mean": _Mean(lanes=True),
    "max": _Extreme(True, lanes=True), "min": _Extreme(False, lanes=True)}


def spec_of(found: Reduction, axis: int | None, position: str, lanes: bool,
            operand: str) -> _Sum | _Mean | _Extreme | _Logical | Variance | ArgExtreme | None:
    """How reduction `found` accumulates along `axis` (None: the whole array), None where Cuvil leaves it to
    Numba; `position` is the reduced axis's loop variable, `lanes` whether the accumulators are lanes
    (lower/across.py), `operand` the elements' dtype."""
    if axis is None and found.op in _ALONG_ONLY and not position:
        return None  # of a 1-D array (`position`, its loop variable, given) ours: one axis, no flat index
    if found.op in ("var", "std"):
        return Variance(found.op == "std", found.ddof)
    if found.op in ("argmax", "argmin"):
        return ArgExtreme(found.op == "argmax", position, lanes, operand)
    return (_LANES.get(found.op) if lanes else None) or REDUCTIONS[found.op]


REDUCTIONS: dict[str, _Sum | _Mean | _Extreme | _Logical] = {
    "sum": _Sum(0, cst.AddAssign, True),
    "prod": _Sum(1, cst.MultiplyAssign, False),  # NumPy multiplies float32 in float32, overflow and all
    "mean": _Mean(),
    "max": _Extreme(True),
    "min": _Extreme(False),
    "any": _Logical(True),
    "all": _Logical(False),
}
