"""The type of every name and expression of a function: a fixpoint over its bindings, and a rule per kind of
expression (analysis/types.py holds the types themselves and NumPy's promotion).

Calls are resolved through the library table's names (cfg/effects.py): ufuncs by NumPy's own resolution,
reductions, allocations, casts and views by the rules below, `math` as CPython's floats, compiled helpers by
typing their bodies with these argument types.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

import libcst as cst
import numpy as np

from ..cfg.effects import Calls
from ..frontend.walk import walk
from ..library.replaced import HELPERS
from ..normalize.names import bound_names
from .numpy_rules import NumpyRules, rounded
from .types import (
    BOOL,
    COMPLEX,
    CONFLICT,
    FLOAT,
    INT,
    NONE,
    UNKNOWN,
    Array,
    Opaque,
    Scalar,
    Tuple,
    Type,
    extreme,
    item,
    ufunc_result,
    unify,
)

_OPERATORS = {
    cst.Add: "add", cst.Subtract: "subtract", cst.Multiply: "multiply", cst.Divide: "true_divide",
    cst.FloorDivide: "floor_divide", cst.Modulo: "remainder", cst.Power: "power", cst.BitAnd: "bitwise_and",
    cst.BitOr: "bitwise_or", cst.BitXor: "bitwise_xor", cst.LeftShift: "left_shift",
    cst.RightShift: "right_shift", cst.MatrixMultiply: "matmul",
    cst.AddAssign: "add", cst.SubtractAssign: "subtract", cst.MultiplyAssign: "multiply",
    cst.DivideAssign: "true_divide", cst.FloorDivideAssign: "floor_divide", cst.ModuloAssign: "remainder",
    cst.PowerAssign: "power", cst.BitAndAssign: "bitwise_and", cst.BitOrAssign: "bitwise_or",
    cst.BitXorAssign: "bitwise_xor", cst.LeftShiftAssign: "left_shift", cst.RightShiftAssign: "right_shift",
}
# A helper's result from its call's argument types: positional, then keyword by name (lower/program_types binds
# them to the helper's parameters, its defaults included).
HelperTypes = Callable[[str, tuple[Type, ...], Mapping[str, Type]], Type]

_COMPARISONS = {
    cst.LessThan: "less", cst.LessThanEqual: "less_equal", cst.GreaterThan: "greater",
    cst.GreaterThanEqual: "greater_equal", cst.Equal: "equal", cst.NotEqual: "not_equal",
}
_VMATH = "cuvil.runtime.vmath."
_HALF = "cuvil.runtime.half."
_ELEMENTWISE = "cuvil.runtime.elementwise."  # NumPy's ufuncs on scalars, by other names (lower/casts.py)
_ELEMENTWISE_UFUNCS = frozenset({"true_divide", "floor_divide", "remainder", "power", "left_shift", "right_shift"})
_FITS = frozenset(f"cuvil.runtime.elementwise.{n}" for n in ("python_int_as", "python_float_as", "clip_low",
                                                               "clip_high", "float_as_unsigned"))
_POWERS = frozenset({"cuvil.runtime.intrinsics.py_pow", "cuvil.runtime.elementwise.power"})
_MATH_INTS = frozenset({"floor", "ceil", "trunc", "isqrt", "factorial", "gcd", "lcm", "comb", "perm"})
_MATH_BOOLS = frozenset({"isnan", "isinf", "isfinite", "isclose"})


def _literal_int(node: cst.BaseExpression) -> int | None:
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    return -int(node.expression.evaluated_value) if _negative_literal(node) else None  # type: ignore[attr-defined]


def _literal_number(node: cst.BaseExpression) -> int | float | None:
    """The value of an int or float literal, negated or not; None for anything else."""
    negated = isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus)
    inner = node.expression if negated else node  # type: ignore[attr-defined]
    if not isinstance(inner, cst.Integer | cst.Float):
        return None
    value = inner.evaluated_value
    return -value if negated else value


def _negative_literal(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) \
        and isinstance(node.expression, cst.Integer) and int(node.expression.evaluated_value) > 0


class Rules(NumpyRules):
    def __init__(self, types: Types, calls: Calls, helper: HelperTypes):
        self.types, self.calls, self.helper = types, calls, helper

    def of(self, node: cst.BaseExpression) -> Type:
        return self.types.of(node)

    def expr(self, node: cst.BaseExpression) -> Type:
        if isinstance(node, cst.Name):
            if node.value in ("True", "False") and self.calls.global_of(node.value) is None:
                return BOOL
            if node.value == "None":
                return NONE
            return self.types.name(node.value)
        if isinstance(node, cst.Integer):
            return INT
        if isinstance(node, cst.Float):
            return FLOAT
        if isinstance(node, cst.Imaginary):
            return COMPLEX
        if isinstance(node, cst.SimpleString | cst.ConcatenatedString):
            return Opaque("str")
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.MatrixMultiply):
            return self.matmul(self.of(node.left), self.of(node.right))  # not a broadcast: (2, 3) @ (3,) is 1-D
        if isinstance(node, cst.BinaryOperation):
            name = _OPERATORS.get(type(node.operator))
            left = self.of(node.left)
            if name == "power" and isinstance(left, Array) and left.dtype == "bool" and _literal_int(node.right) == 2:
                return Array("int8", left.ndim)  # NumPy's `array ** 2` is np.square, whose bool loop gives int8
            return ufunc_result(name, [left, self.of(node.right)]) if name else UNKNOWN
        if isinstance(node, cst.UnaryOperation):
            return self.unary(node)
        if isinstance(node, cst.Comparison):
            return self.comparison(node)
        if isinstance(node, cst.BooleanOperation):
            return unify(self.of(node.left), self.of(node.right))
        if isinstance(node, cst.IfExp):
            return unify(self.of(node.body), self.of(node.orelse))
        if isinstance(node, cst.Tuple):
            return Tuple(tuple(self.of(e.value) for e in node.elements))
        if isinstance(node, cst.Subscript):
            return self.subscript(node)
        if isinstance(node, cst.Attribute):
            return self.attribute(node)
        if isinstance(node, cst.Call):
            return self.call(node)
        return UNKNOWN

    def update(self, node: cst.AugAssign) -> Type:
        """The type `x op= v` leaves in `x`: an array keeps its type (NumPy casts into it), a number is
        rebound to `x op v`."""
        target = self.of(node.target)
        if isinstance(target, Array):
            return target
        name = _OPERATORS.get(type(node.operator))
        return ufunc_result(name, [target, self.of(node.value)]) if name else UNKNOWN

    def unary(self, node: cst.UnaryOperation) -> Type:
        inner = self.of(node.expression)
        if isinstance(node.operator, cst.Not):
            return BOOL if isinstance(inner, Scalar | Opaque) else UNKNOWN
        if isinstance(inner, Scalar) and inner.weak and inner.dtype == "bool":
            return INT  # -True == -1, ~True == -2: Python makes bools ints here
        if isinstance(node.operator, cst.Minus):
            return ufunc_result("negative", [inner])
        if isinstance(node.operator, cst.BitInvert):
            return ufunc_result("invert", [inner])
        return inner

    def comparison(self, node: cst.Comparison) -> Type:
        if len(node.comparisons) != 1:
            return UNKNOWN  # ChainedCompare has split chains
        target = node.comparisons[0]
        name = _COMPARISONS.get(type(target.operator))
        if name is None:
            return BOOL  # `is`, `in`: a Python bool
        return ufunc_result(name, [self.of(node.left), self.of(target.comparator)])

    def subscript(self, node: cst.Subscript) -> Type:
        base = self.of(node.value)
        parts = [e.slice for e in node.slice]
        if len(parts) == 1 and isinstance(parts[0], cst.Index) and isinstance(parts[0].value, cst.Tuple):
            parts = [cst.Index(e.value) for e in parts[0].value.elements]
        if isinstance(base, Tuple):
            k = _literal_int(parts[0].value) if len(parts) == 1 and isinstance(parts[0], cst.Index) else None
            if k is not None:  # `t[1]`, `t[-2]`
                return base.items[k] if -len(base.items) <= k < len(base.items) else CONFLICT
            if base.items and len(set(base.items)) == 1:
                return base.items[0]
            return UNKNOWN
        if not isinstance(base, Array):
            return UNKNOWN
        ndim = base.ndim
        for part in parts:
            if isinstance(part, cst.Slice):
                continue
            assert isinstance(part, cst.Index)
            if isinstance(part.value, cst.Name) and part.value.value == "None":
                ndim += 1
                continue
            index = self.of(part.value)
            if isinstance(index, Scalar) and index.dtype != "bool" and "int" in index.dtype:
                ndim -= 1
            elif isinstance(index, Array) and len(parts) == 1 and index.dtype == "bool":
                return Array(base.dtype, 1)  # a boolean mask selects a 1-D array
            elif isinstance(index, Array) and len(parts) == 1 and "int" in index.dtype:
                return Array(base.dtype, index.ndim + base.ndim - 1)
            else:
                return UNKNOWN
        if ndim < 0:
            return CONFLICT
        return Array(base.dtype, ndim) if ndim else Scalar(base.dtype)

    def attribute(self, node: cst.Attribute) -> Type:
        name = node.attr.value
        if isinstance(node.value, cst.Name) and node.value.value not in self.types.names:
            found = self.calls.global_of(node.value.value)
            if found is not None and found.kind == "module":
                if found.qualname == "numpy" and name in ("pi", "e", "inf", "nan", "euler_gamma"):
                    return FLOAT
                if found.qualname == "math" and name in ("pi", "e", "tau", "inf", "nan"):
                    return FLOAT
                return self.types.globals.get(f"{node.value.value}.{name}", UNKNOWN)
        owner = self.of(node.value)
        if isinstance(owner, Scalar) and name in ("real", "imag") and owner.dtype not in ("float16", "bfloat16"):
            # x[0].real: a NumPy scalar's part, in the part's dtype (float32 of a complex64; an int's own type);
            # a Python number's is a Python number
            return Scalar(np.dtype(np.empty(0, owner.dtype).real.dtype).name, owner.weak)
        if not isinstance(owner, Array):
            return UNKNOWN
        if name == "shape":
            return Tuple((INT,) * owner.ndim)
        if name in ("size", "ndim", "itemsize", "nbytes"):
            return INT
        if name == "T":
            return owner
        if name in ("real", "imag"):
            return Array(np.dtype(np.empty(0, owner.dtype).real.dtype).name, owner.ndim)
        return UNKNOWN

    def call(self, node: cst.Call) -> Type:
        effect = self.calls.effect(node)
        name = effect.name
        args = list(effect.args)
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if name.startswith("helper "):
            return self.helper(name[7:], tuple(self.of(a.value) for a in node.args if a.keyword is None),
                               {k: self.of(v) for k, v in keywords.items()})
        if name.startswith("numpy.") or name in HELPERS:  # Cuvil's own helper: typed as NumPy's function
            return self.numpy(HELPERS.get(name, name)[6:], args, keywords)
        if name.startswith("."):
            return self.method(name[1:], args, keywords)
        if name.startswith("math."):
            return self.math(name[5:], args)
        if name.startswith("cuvil.runtime.pyint."):  # Python's int arithmetic (runtime/pyint.py)
            short = name.rsplit(".", 1)[1]
            if short.endswith("divmod"):
                return Tuple((FLOAT, FLOAT) if "float" in short else (INT, INT))
            return FLOAT if "float" in short or short == "py_truediv" else INT
        if name.startswith("cuvil.runtime.wrapping."):  # lower/casts.py: NumPy's wrapping int64 + - *
            return Scalar("int64")
        if name == "cuvil.runtime.items.item_at" and args:  # lower/pyscalars.py: `a.item(k)`, Python's number
            return self.method("item", args[:1], {})
        if name == "cuvil.runtime.masks.mask_read" and args:  # lower/masks.py: the selected elements
            array = self.of(args[0])
            return Array(array.dtype, 1) if isinstance(array, Array) else UNKNOWN
        if name in _FITS and len(args) == 2:  # lower/element.py: a Python number in the array's dtype
            dtype = self.dtype_arg(args[1])
            return Scalar(dtype) if dtype else UNKNOWN
        if name == "cuvil.runtime.big_ints.beyond_int64":  # lower/big_ints.py: raises; an int to Numba
            return INT
        if name == "cuvil.runtime.elementwise.round_integer" and args:  # lower/builtin_calls.py: x's dtype
            return self.of(args[0])
        if name == "cuvil.runtime.elementwise.signed_unsigned_cmp":  # lower/exact_comparisons.py: a NumPy int,
            arrays = [k.ndim for k in map(self.of, args) if isinstance(k, Array)]  # so that the comparison is
            return Array("int8", max(arrays)) if arrays else Scalar("int64")  # NumPy's, as the one it replaces
        if name in ("cuvil.runtime.pymath.round_ndigits", "cuvil.runtime.pymath.int_float_cmp"):  # lower/casts.py
            return FLOAT
        if name.startswith("cuvil.runtime.pymath."):  # CPython's math with its errors (runtime/pymath.py)
            return self.math(name.rsplit(".", 1)[1], args)
        if name in ("cuvil.runtime.axes.cumsum_axis", "cuvil.runtime.axes.cumprod_axis") and len(args) >= 2:
            return self.numpy(name[19:-5], args[:1], {"axis": args[1]})  # np.cumsum(a, axis=k), lowered
        if name == "cuvil.runtime.axes.norm_axis" and len(args) >= 2:  # lower/norms.py: np.linalg.norm(a, axis=k)
            return self.numpy("linalg.norm", args[:1], dict(zip(("axis", "keepdims"), args[1:])))
        if name == "cuvil.runtime.axes.roll_axis" and args:  # np.roll(a, k, axis=j): a's own type
            array = self.of(args[0])
            return array if isinstance(array, Array) else UNKNOWN
        if name in ("cuvil.runtime.axes.sort_axis", "cuvil.runtime.axes.argsort_axis") and args:  # and sorts
            array = self.of(args[0])
            if not isinstance(array, Array):
                return UNKNOWN
            return array if name.endswith(".sort_axis") else Array("int64", array.ndim)
        if name in ("cuvil.runtime.axes.argmax_axis", "cuvil.runtime.axes.argmin_axis") and len(args) >= 2:
            return self.numpy(name.rsplit(".", 1)[1][:6], args[:1], {"axis": args[1]})  # np.argmax's rule
        if name == "cuvil.runtime.ranges.arange" and len(args) == 4:  # lower/library_results.py: its dtype
            return self.numpy("arange", args[:3], {"dtype": args[3]})
        if name in ("cuvil.runtime.products.int_dot", "cuvil.runtime.products.int_matmul") and len(args) == 2:
            return self.matmul(self.of(args[0]), self.of(args[1]))  # np.dot's rule (lower/library_results.py)
        if name in ("cuvil.runtime.rounding.around", "cuvil.runtime.rounding.around_f16") and args:  # np.round
            return rounded(self.of(args[0]))
        if name == "cuvil.runtime.rounding.around_into" and len(args) == 3:  # np.round(a, d, out): out
            return self.of(args[2])
        if name in ("cuvil.runtime.statistics.var", "cuvil.runtime.statistics.std",
                    "cuvil.runtime.statistics.median") and args:  # np.var's (np.median's) rule
            return self.numpy(name.rsplit(".", 1)[1], args[:1], {})
        if name in ("cuvil.runtime.statistics.percentile", "cuvil.runtime.statistics.quantile") and args:
            return self.numpy(name.rsplit(".", 1)[1], args[:2], {})  # np.percentile(a, q)'s rule
        if name.startswith("cuvil.runtime.axis_reductions.") and len(args) >= 3:  # np.var(a, axis=k, …), lowered
            keep = cst.Name("True") if isinstance(args[-1], cst.Name) and args[-1].value == "True" else None
            return self.numpy(name.rsplit(".", 1)[1][:-5], args[:1], {"axis": args[1], **({"keepdims": keep}
                                                                                              if keep else {})})
        if name == "cuvil.runtime.axes.sort_in_place":  # a.sort(axis=k), lowered: None, as the method
            return NONE
        if name == "cuvil.runtime.checks.index" and args:  # a bounds check (lower/checks.py): its index
            return self.of(args[0])
        if name.startswith(_ELEMENTWISE) and name[len(_ELEMENTWISE):] in _ELEMENTWISE_UFUNCS:  # Casts' calls
            return ufunc_result(name[len(_ELEMENTWISE):], [self.of(a) for a in args])
        if name.endswith((".inplace_value", ".unshared")) and len(args) == 2:  # `t op= inplace_value(t, v)`: v
            return self.of(args[1])
        if name.endswith(".ufunc_out") and args:  # `np.add(x, y, ufunc_out(o, (x, y)))`: o
            return self.of(args[0])
        if name.endswith(".pow_exponent") and len(args) == 2:  # `t **= pow_exponent(t, e)`: e, or a float for
            negative = _negative_literal(args[1]) and self.of(args[0]) in (INT, BOOL)  # `k **= -2`
            return FLOAT if negative else self.of(args[1])
        if name == "cuvil.runtime.reorder.add_any_order":  # a float sum's update (lower/reductions.py): acc's type
            return self.of(args[0])
        if name.startswith(_HALF):  # widen, narrow, round (runtime/half.py): a half value (or its bits)
            return Scalar("float16")
        if name.startswith(_VMATH):  # the lowering's vectorizable math (runtime/vmath.py): NumPy's meaning
            base = name[len(_VMATH):].split("_")[0]
            kinds = [self.of(a) for a in args]
            return ufunc_result(base, kinds) if isinstance(getattr(np, base, None), np.ufunc) else \
                kinds[0] if len(kinds) == 1 else UNKNOWN
        if name in _POWERS:  # Python's power for numbers, NumPy's for arrays and NumPy scalars
            if len(args) == 2 and _negative_literal(args[1]) and self.of(args[0]) in (INT, BOOL):
                return FLOAT  # `k ** -2` of a Python int is a float, and the literal says so before run time
            return ufunc_result("power", [self.of(a) for a in args[:2]])
        return self.builtin(name, args)

    def math(self, name: str, args: list[cst.BaseExpression]) -> Type:
        if name in _MATH_INTS:
            return INT
        if name in _MATH_BOOLS:
            return BOOL
        if name in ("frexp",):
            return Tuple((FLOAT, INT))
        if name in ("modf",):
            return Tuple((FLOAT, FLOAT))
        if name in ("pi", "e", "tau", "inf", "nan"):
            return FLOAT
        return FLOAT

    def builtin(self, name: str, args: list[cst.BaseExpression]) -> Type:
        types = [self.of(a) for a in args]
        if name in ("len",):
            return INT
        if name in ("str", "repr", "format"):  # lower/prints.py picks their helper by this type
            return Opaque("str")
        if name == "int":
            return INT
        if name == "float":
            return FLOAT
        if name == "bool":
            return BOOL
        if name == "complex":
            return COMPLEX
        if name == "abs" and types:
            t = types[0]
            if isinstance(t, Array) or (isinstance(t, Scalar) and not t.weak):  # NumPy's absolute: complex → real
                return ufunc_result("absolute", [t])
            if isinstance(t, Scalar) and t.weak and t.dtype == "bool":
                return INT
            if isinstance(t, Scalar) and t.dtype.startswith("complex"):
                return Scalar("float64" if t.dtype == "complex128" else "float32", t.weak)
            return t
        if name == "round":
            if len(types) == 1:
                return INT
            return types[0]
        if name in ("sum", "min", "max") and len(types) == 1 and isinstance(types[0], Array):  # runtime/folds.py
            t = types[0]
            dtype = "int64" if name == "sum" and t.dtype == "bool" else t.dtype
            return Scalar(dtype) if t.ndim == 1 else Array(dtype, t.ndim - 1) if name == "sum" else UNKNOWN
        if name in ("min", "max") and len(types) >= 2:
            return extreme(types, [_literal_number(a) for a in args])
        if name == "divmod" and len(types) == 2:
            q = ufunc_result("floor_divide", types)
            return Tuple((q, q)) if not isinstance(q, Tuple) else q
        if name == "pow" and len(types) == 2:
            return ufunc_result("power", types)
        if name == "range":
            return Opaque("range")
        if name == "print":
            return NONE
        return UNKNOWN


class Types:
    """The types of `fn`'s names (a fixpoint over its bindings) and, on demand, of any expression in it."""

    def __init__(self, fn: cst.FunctionDef, params: Mapping[str, Type], globals: Mapping[str, Type],
                 calls: Calls, helper: HelperTypes | None = None, compute: str | None = None):
        """`compute`: the dtype every half-precision *value* is computed in under a precision policy
        (analysis/precision.py); arrays keep their half storage type."""
        self.globals, self.calls, self.compute = globals, calls, compute
        self.names: dict[str, Type] = dict(params)
        self.rules = Rules(self, calls, helper or (lambda name, args, keywords: UNKNOWN))
        self._memo: dict[int, Type] = {}
        bindings = _bindings(fn.body)
        for _ in range(8 * len(bindings) + 2):  # types only climb a short lattice: this bounds the rounds
            self._memo.clear()
            changed = False
            for name, value in bindings:
                new = unify(self.names.get(name), value(self))
                if new != self.names.get(name):
                    self.names[name], changed = new, True
            if not changed:
                break
        self._memo.clear()

    def of(self, node: cst.BaseExpression) -> Type:
        found = self._memo.get(id(node))
        if found is None:
            found = self.rules.expr(node)
            if self.compute is not None and isinstance(found, Scalar) and found.dtype == "float16":
                found = Scalar(self.compute)
            self._memo[id(node)] = found
        return found

    def name(self, name: str) -> Type:
        if name in self.names:
            return self.names[name]
        return self.globals.get(name, UNKNOWN)


Binding = tuple[str, Callable[[Types], Type]]


def _bindings(body: cst.CSTNode) -> list[Binding]:
    """Each (name, how to type the value it is bound to) under `body`, in source order."""
    found: list[Binding] = []

    def target(node: cst.BaseExpression, value: Callable[[Types], Type]) -> None:
        if isinstance(node, cst.Name):
            found.append((node.value, value))
        elif isinstance(node, cst.Tuple | cst.List):
            for k, element in enumerate(node.elements):
                target(element.value, functools.partial(_unpacked, value, k))

    class Collect(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for t in node.targets:
                target(t.target, functools.partial(_value, node.value))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name):
                found.append((node.target.value, functools.partial(_update, node)))

        def visit_For(self, node: cst.For) -> None:
            for name in bound_names(node.target):
                found.append((name, lambda types: INT))  # normalized loops run over range()

    walk(body, Collect())
    return found


def _value(value: cst.BaseExpression, types: Types) -> Type:
    return types.of(value)


def _unpacked(value: Callable[[Types], Type], k: int, types: Types) -> Type:
    return item(value(types), k)


def _update(node: cst.AugAssign, types: Types) -> Type:
    return types.rules.update(node)
