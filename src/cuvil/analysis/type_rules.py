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
from ..library import numpy as library
from ..normalize.names import bound_names
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
HelperTypes = Callable[[str, tuple[Type, ...]], Type]

_COMPARISONS = {
    cst.LessThan: "less", cst.LessThanEqual: "less_equal", cst.GreaterThan: "greater",
    cst.GreaterThanEqual: "greater_equal", cst.Equal: "equal", cst.NotEqual: "not_equal",
}
# The library table's kinds (library/numpy.py): what each call's result is
_DTYPE_NAMES = library.named("cast") | {"double", "single", "half", "byte", "ubyte", "short", "ushort", "intc",
                                        "uintc", "longlong", "ulonglong", "cdouble", "csingle"}  # dtype aliases
_SUMS, _MEANS, _KEEPS = library.named("sum"), library.named("mean"), library.named("extreme")
_INDICES, _LOGICAL = library.named("index"), library.named("logical")
_ALLOCATE = library.named("allocate") - {"full"}  # full's dtype comes from its fill value
_LIKE = library.named("like")
_VIEWS = library.named("view") | {"flatten", "copy", "conj", "conjugate"}
_VMATH = "cuvil.runtime.vmath."
_HALF = "cuvil.runtime.half."
_ELEMENTWISE = "cuvil.runtime.elementwise."  # NumPy's ufuncs on scalars, by other names (lower/casts.py)
_ELEMENTWISE_UFUNCS = frozenset({"true_divide", "floor_divide", "remainder", "power"})
_POWERS = frozenset({"cuvil.runtime.intrinsics.py_pow", "cuvil.runtime.elementwise.power"})
_MATH_INTS = frozenset({"floor", "ceil", "trunc", "isqrt", "factorial", "gcd", "lcm", "comb", "perm"})
_MATH_BOOLS = frozenset({"isnan", "isinf", "isfinite", "isclose"})


def _negative_literal(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) \
        and isinstance(node.expression, cst.Integer) and int(node.expression.evaluated_value) > 0


def _dtype_name(node: cst.BaseExpression | None, calls: Calls) -> str | None:
    """`np.float32`, `float`, `"float32"` as a dtype argument."""
    if node is None:
        return None
    if isinstance(node, cst.SimpleString):
        try:
            return np.dtype(node.evaluated_value).name  # type: ignore[arg-type]
        except TypeError:
            return None
    if isinstance(node, cst.Name) and node.value in ("float", "int", "bool", "complex") \
            and calls.global_of(node.value) is None:
        return {"float": "float64", "int": "int64", "bool": "bool", "complex": "complex128"}[node.value]
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
        found = calls.global_of(node.value.value)
        if found is not None and found.kind == "module" and found.qualname == "numpy" \
                and node.attr.value in _DTYPE_NAMES:
            return np.dtype(node.attr.value).name
    if isinstance(node, cst.Name):
        found = calls.global_of(node.value)
        if found is not None and found.kind == "function" and found.qualname.startswith("numpy.") \
                and found.qualname[6:] in _DTYPE_NAMES:
            return np.dtype(found.qualname[6:]).name
    return None


def _ndim_of_shape(t: Type) -> int | None:
    if isinstance(t, Tuple):
        return len(t.items)
    if isinstance(t, Scalar) and t.dtype.startswith(("int", "uint")):
        return 1
    return None


class Rules:
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
        if isinstance(node, cst.BinaryOperation):
            name = _OPERATORS.get(type(node.operator))
            return ufunc_result(name, [self.of(node.left), self.of(node.right)]) if name else UNKNOWN
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
            if len(parts) == 1 and isinstance(parts[0], cst.Index) and isinstance(parts[0].value, cst.Integer):
                k = int(parts[0].value.value, 0)
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
            return self.helper(name[7:], tuple(self.of(a) for a in args))
        if name.startswith("numpy."):
            return self.numpy(name[6:], args, keywords)
        if name.startswith("."):
            return self.method(name[1:], args, keywords)
        if name.startswith("math."):
            return self.math(name[5:], args)
        if name.startswith("cuvil.runtime.pyint."):  # Python's int arithmetic (runtime/pyint.py)
            return INT
        if name in ("cuvil.runtime.pymath.round_ndigits", "cuvil.runtime.pymath.int_float_cmp"):  # lower/casts.py
            return FLOAT
        if name.startswith("cuvil.runtime.pymath."):  # CPython's math with its errors (runtime/pymath.py)
            return self.math(name.rsplit(".", 1)[1], args)
        if name == "cuvil.runtime.checks.index" and args:  # a bounds check (lower/checks.py): its index
            return self.of(args[0])
        if name.startswith(_ELEMENTWISE) and name[len(_ELEMENTWISE):] in _ELEMENTWISE_UFUNCS:  # Casts' calls
            return ufunc_result(name[len(_ELEMENTWISE):], [self.of(a) for a in args])
        if name.endswith(".inplace_value") and len(args) == 2:  # `t op= inplace_value(t, v)` (compiler.py): v
            return self.of(args[1])
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

    def reduction(self, name: str, array: Type, keywords: dict[str, cst.BaseExpression]) -> Type:
        if not isinstance(array, Array | Scalar):
            return UNKNOWN
        dtype = array.dtype
        if name in _SUMS:
            kind = np.dtype(dtype).kind
            dtype = "int64" if kind in "bi" and np.dtype(dtype).itemsize < 8 or kind == "b" else \
                "uint64" if kind == "u" else dtype
        elif name in _MEANS:
            dtype = "float64" if np.dtype(dtype).kind in "biu" else dtype
        elif name in _INDICES:
            dtype = "int64"
        elif name in _LOGICAL:
            dtype = "bool"
        elif name not in _KEEPS:
            return UNKNOWN
        explicit = _dtype_name(keywords.get("dtype"), self.calls)
        dtype = explicit or dtype
        if name in ("cumsum", "cumprod"):
            return Array(dtype, 1 if "axis" not in keywords else getattr(array, "ndim", 1))
        axis = keywords.get("axis")
        ndim = array.ndim if isinstance(array, Array) else 0
        keep = keywords.get("keepdims")
        kept = isinstance(keep, cst.Name) and keep.value == "True"
        if axis is None or isinstance(axis, cst.Name) and axis.value == "None":
            return Array(dtype, ndim) if kept and ndim else Scalar(dtype)
        if isinstance(axis, cst.Tuple):
            out = ndim if kept else ndim - len(axis.elements)
        else:
            out = ndim if kept else ndim - 1
        return Array(dtype, out) if out else Scalar(dtype)

    def numpy(self, name: str, args: list[cst.BaseExpression], keywords: dict[str, cst.BaseExpression]) -> Type:
        ufunc = getattr(np, name, None)
        if isinstance(ufunc, np.ufunc):
            return ufunc_result(name, [self.of(a) for a in args[:ufunc.nin]], python=False)
        first = self.of(args[0]) if args else UNKNOWN
        if name in _SUMS | _MEANS | _KEEPS | _INDICES | _LOGICAL:
            return self.reduction(name, first, keywords)
        if name in _ALLOCATE or name == "full":
            ndim = _ndim_of_shape(first)
            explicit = keywords.get("dtype") or (args[2] if name == "full" and len(args) > 2 else
                                                 args[1] if name != "full" and len(args) > 1 else None)
            dtype = _dtype_name(explicit, self.calls)
            if dtype is None and explicit is None:
                fill = self.of(args[1]) if name == "full" and len(args) > 1 else FLOAT
                dtype = fill.dtype if isinstance(fill, Scalar) else None
            return Array(dtype, ndim) if dtype and ndim is not None else UNKNOWN
        if name in _LIKE or name.endswith("_like"):
            dtype = _dtype_name(keywords.get("dtype"), self.calls)
            if isinstance(first, Array):
                return Array(dtype or first.dtype, first.ndim)
            if isinstance(first, Scalar) and name in ("array", "asarray"):
                return Array(dtype or first.dtype, 0)
            return UNKNOWN
        if name in _DTYPE_NAMES:
            target = np.dtype(name).name
            return Array(target, first.ndim) if isinstance(first, Array) else Scalar(target)
        if name == "where" and len(args) == 3:
            branches = [self.of(args[1]), self.of(args[2])]
            result = ufunc_result("add", branches)  # NumPy's where promotes its branches as add resolves them
            cond = self.of(args[0])
            ndim = max([t.ndim for t in (cond, *branches) if isinstance(t, Array)], default=0)
            dtype = getattr(result, "dtype", None)
            return Array(dtype, ndim) if dtype else UNKNOWN
        if name in ("dot", "matmul") and len(args) == 2:
            return self.matmul(self.of(args[0]), self.of(args[1]))
        if name in ("arange",):
            kinds = [self.of(a) for a in args]
            dtype = _dtype_name(keywords.get("dtype"), self.calls) or (
                "float64" if any(getattr(k, "dtype", "") .startswith("float") for k in kinds) else "int64")
            return Array(dtype, 1)
        if name == "linspace":
            return Array("float64", 1)
        if name in ("reshape",) and len(args) == 2 and isinstance(first, Array):
            ndim = _ndim_of_shape(self.of(args[1]))
            return Array(first.dtype, ndim) if ndim is not None else UNKNOWN
        if name in ("ravel",) and isinstance(first, Array):
            return Array(first.dtype, 1)
        if name in ("transpose", "sort", "clip", "round", "around", "flip", "abs") and isinstance(first, Array):
            return first
        return UNKNOWN

    def matmul(self, a: Type, b: Type) -> Type:
        if not (isinstance(a, Array) and isinstance(b, Array)):
            return UNKNOWN
        result = ufunc_result("multiply", [a, b])
        dtype = getattr(result, "dtype", None)
        if dtype is None:
            return UNKNOWN
        if a.ndim == 1 and b.ndim == 1:
            return Scalar(dtype)
        ndim = b.ndim - 1 if a.ndim == 1 else a.ndim - 1 if b.ndim == 1 else max(a.ndim, b.ndim)
        return Array(dtype, ndim)

    def method(self, name: str, args: list[cst.BaseExpression], keywords: dict[str, cst.BaseExpression]) -> Type:
        owner = self.of(args[0]) if args else UNKNOWN
        rest = args[1:]
        if name in _SUMS | _MEANS | _KEEPS | _INDICES | _LOGICAL:
            if rest and "axis" not in keywords:
                keywords = {**keywords, "axis": rest[0]}
            return self.reduction(name, owner, keywords)
        if not isinstance(owner, Array):
            return UNKNOWN
        if name == "astype" and rest:
            dtype = _dtype_name(rest[0], self.calls)
            return Array(dtype, owner.ndim) if dtype else UNKNOWN
        if name in _VIEWS:
            return Array(owner.dtype, 1) if name in ("ravel", "flatten") else owner
        if name == "reshape" and rest:
            ndim = len(rest) if len(rest) > 1 else _ndim_of_shape(self.of(rest[0]))
            return Array(owner.dtype, ndim) if ndim is not None else UNKNOWN
        if name == "item":
            return Scalar(owner.dtype)
        if name == "dot" and rest:
            return self.matmul(owner, self.of(rest[0]))
        if name in ("fill", "sort"):
            return NONE
        return UNKNOWN

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
            if isinstance(t, Scalar) and t.weak and t.dtype == "bool":
                return INT
            if isinstance(t, Scalar) and t.dtype.startswith("complex"):
                return Scalar("float64" if t.dtype == "complex128" else "float32", t.weak)
            return t
        if name == "round":
            if len(types) == 1:
                return INT
            return types[0]
        if name in ("min", "max") and len(types) >= 2:
            out: Type | None = None
            for t in types:
                out = unify(out, t)
            return out if out is not None else UNKNOWN
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
        self.rules = Rules(self, calls, helper or (lambda name, args: UNKNOWN))
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

    body.visit(Collect())
    return found


def _value(value: cst.BaseExpression, types: Types) -> Type:
    return types.of(value)


def _unpacked(value: Callable[[Types], Type], k: int, types: Types) -> Type:
    return item(value(types), k)


def _update(node: cst.AugAssign, types: Types) -> Type:
    return types.rules.update(node)
