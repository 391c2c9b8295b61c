"""Explicit conversions that make Numba compute in the dtypes NumPy 2 and CPython would.

Numba types scalar arithmetic its own way: `float32 * 0.1` is float64 (NEP 50: float32), `int8 + int8` is
int64 (NumPy: int8, wrapping), `uint64 + 1` is int64, `math.exp` of a float32 is float32 (CPython: a float).
analysis/types.py knows what each operation should give; this pass writes the conversions that make Numba
agree, and nothing else:

    s = 0.0                       s = np.float32(0.0)            # `s` is float32 (it accumulates x[i])
    s += x[i] * 0.5        →      s += x[i] * np.float32(0.5)    # the weak 0.5 takes x's dtype
    t = a[i] + b[i]               t = np.int8(a[i] + b[i])       # int8 + int8 wraps in int8
    u = math.exp(x[i])            u = math.exp(float(x[i]))      # CPython computes math in double
    r = x[i] / d                  r = true_divide(x[i], d)       # a NumPy scalar divides as NumPy does

Operands become the input dtypes NumPy's own ufunc resolution chose; a narrow integer result (or a bool from
arithmetic) is wrapped in its dtype, which truncates as NumPy's wrap-around does. Where a type is unknown the
expression is left as written (Numba's typing decides).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import _OPERATORS, Types
from ..analysis.types import Array, Refused, Scalar, Type, output_refusal, ufunc_result
from . import math
from .again import repeatable
from .builtin_calls import BuiltinCalls
from .division_into import DivisionInto
from .exact_comparisons import ExactComparisons
from .library_results import LibraryResults
from .math_calls import math_call
from .python_ints import fitted, fitted_call, needs_fit, numpy_fit, ufunc_inputs, weak_int
from .wrapping import Wrapping, WrappingArithmetic, integer_power

_NATIVE = frozenset({"int64", "float64", "complex128", "bool"})  # what Numba computes Python numbers in
_NUMPY_SEMANTICS = {"true_divide": "true_divide", "floor_divide": "floor_divide", "remainder": "remainder",
                    "left_shift": "left_shift", "right_shift": "right_shift"}
_CALL_SEMANTICS = {**_NUMPY_SEMANTICS, "power": "power"}  # `**` has its own rewrite (codegen/cpu.py PythonPow)
_OWN_SEMANTICS = {"fmod": ("iub", ()), "sign": ("iub", ("float32", "float64"))}  # operand kinds and dtypes
# where Numba's differ from NumPy's (a half's sign is computed by lower/half.py)
_FLOAT64 = (Scalar("float64"), Scalar("float64", True))
_VECTOR_MATH = {"math.erf": "erf", "math.tanh": "tanh"}  # math.exp and math.log raise: the semantics issue's
_UFUNC_CALLS = {f"cuvil.runtime.elementwise.{name}": name  # the lowering's calls, NumPy's ufuncs by other names
                for name in ("true_divide", "floor_divide", "remainder", "power", "left_shift", "right_shift")}
_COMPARISONS = {
    cst.LessThan: "less", cst.LessThanEqual: "less_equal", cst.GreaterThan: "greater",
    cst.GreaterThanEqual: "greater_equal", cst.Equal: "equal", cst.NotEqual: "not_equal",
}


def _needs(t: Type, dtype: str, strict: bool = False) -> bool:
    """An operand of type `t` must be converted to `dtype` explicitly for Numba to use that dtype. Operators
    convert narrow operands to float64 and int64 by themselves; ufunc calls (`strict`) do not: Numba types
    `np.add(int32, float32)` as float32."""
    if isinstance(t, Scalar) and t.weak:
        return dtype != t.dtype or dtype not in _NATIVE
    current = t.dtype if isinstance(t, Scalar | Array) else None
    # uint64 with a signed integer: NumPy computes in float64, Numba in int64
    return current != dtype and (strict or dtype not in ("float64", "int64", "complex128") or current == "uint64")


def _cast(node: cst.BaseExpression, dtype: str, array: bool, numpy: str) -> cst.BaseExpression:
    kind = cst.Attribute(cst.Name(numpy), cst.Name("bool_" if dtype == "bool" else dtype))
    if array:
        return cst.Call(cst.Attribute(_paren(node), cst.Name("astype")), [cst.Arg(kind)])
    return cst.Call(kind, [cst.Arg(node.with_changes(lpar=[], rpar=[]))])


def _paren(node: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, cst.Name | cst.Call | cst.Subscript | cst.Attribute) or node.lpar:
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _wraps(result: Type) -> bool:
    """Numba computes this result wider than NumPy: integers narrower than 64 bits (and uint64), bools."""
    if not isinstance(result, Scalar) or result.weak:
        return False
    kind, size = np.dtype(result.dtype).kind, np.dtype(result.dtype).itemsize
    return (kind in "iu" and size < 8) or (kind == "u") or kind == "b"


class Casts(LibraryResults, BuiltinCalls, DivisionInto, ExactComparisons, WrappingArithmetic, cst.CSTTransformer):
    """Rewrites a function typed by `types` (whose side table holds the *original* nodes)."""

    def __init__(self, types: Types, numpy: Callable[[], str], intrinsic: Callable[[str, str], str],
                 arrays_into: bool = True, wrapping: Wrapping | None = None):
        super().__init__()
        self.wrapping = wrapping or Wrapping()  # which int64 arithmetic is written wrapping (lower/wrapping.py)
        self.types, self.numpy = types, numpy  # numpy(): numpy's name in the module, bound on first use
        self.intrinsic = intrinsic  # (module, name) → its name in the module
        self.arrays_into = arrays_into  # integer division into arrays by runtime/division_into.py (the CPU)

    def _vector_math(self, name: str, original: cst.Call) -> cst.Name | None:
        """The vectorizable kernel (lower/math.py) for a transcendental of one scalar, per element in a loop;
        None where the plain call stays (arrays, an `out`, integer or complex operands)."""
        result = self.types.of(original)
        operands = [self.types.of(a.value) for a in original.args]
        if len(original.args) != 1 or original.args[0].keyword is not None or not isinstance(result, Scalar) \
                or not all(isinstance(t, Scalar) and t.dtype == result.dtype for t in operands):
            return None  # `np.exp(k % 5)` of a Python int: the kernel takes only its own float type
        found = math.implementation(name, result.dtype)
        return cst.Name(self.intrinsic(*found)) if found else None

    def _convert(self, original: list[cst.BaseExpression], updated: list[cst.BaseExpression],
                 ufunc: str, compare: bool = False, strict: bool = False) -> list[cst.BaseExpression]:
        kinds = [self.types.of(o) for o in original]
        inputs = ufunc_inputs(ufunc, kinds)
        if inputs is None:
            return updated
        out = []
        for source, node, kind, dtype in zip(original, updated, kinds, inputs):
            if compare and weak_int(kind) and np.dtype(dtype).kind in "iu":
                out.append(node)  # NumPy compares a Python int with an integer array by value (no wrap)
            elif needs_fit(source, kind, dtype):
                out.append(fitted(node, kind, dtype, self.numpy(), self.intrinsic))
            elif _needs(kind, dtype, strict):
                out.append(self._call(node, dtype, isinstance(kind, Array)))
            else:
                out.append(node)
        return out

    def _call(self, node: cst.BaseExpression, dtype: str, array: bool) -> cst.BaseExpression:
        return _cast(node, dtype, array, self.numpy())

    def _wrap(self, original: cst.BaseExpression, updated: cst.BaseExpression) -> cst.BaseExpression:
        result = self.types.of(original)
        if _wraps(result):
            assert isinstance(result, Scalar)
            wrapped = self._call(updated, result.dtype, False)
            return wrapped.with_changes(lpar=updated.lpar, rpar=updated.rpar) if updated.lpar else wrapped
        return updated

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        ufunc = _OPERATORS.get(type(original.operator))
        if ufunc == "matmul":  # of integer arrays: a loop (runtime/products.py); Numba's is BLAS only
            product = self.integer_product([original.left, original.right], [updated.left, updated.right], False)
            return updated if product is None else product.with_changes(lpar=updated.lpar, rpar=updated.rpar)
        if ufunc is None:
            return updated
        refused = self._refused(original, updated.left)
        if refused is not None:
            return refused
        left, right = self._convert([original.left, original.right], [updated.left, updated.right], ufunc)
        semantics = _NUMPY_SEMANTICS.get(ufunc) or integer_power(ufunc, self.types.of(original))
        if semantics is not None and self._numpy_scalars(original.left, original.right):
            # NumPy scalars divide as NumPy does (inf, nan, 0, no ZeroDivisionError); Python numbers as Python
            name = self.intrinsic("cuvil.runtime.elementwise", semantics)
            call = cst.Call(cst.Name(name), [cst.Arg(left), cst.Arg(right)]).with_changes(lpar=updated.lpar,
                                                                                        rpar=updated.rpar)
            result = self.types.of(original)
            if ufunc in ("left_shift", "right_shift") and isinstance(result, Scalar) and not _wraps(result):
                return self._call(call, result.dtype, False)  # Numba's np.uint8 << np.int64 is a uint64
            return self._wrap(original, call)
        wrapping = self._wrapping(ufunc, self.types.of(original), left, right)
        if wrapping is not None:
            return wrapping.with_changes(lpar=updated.lpar, rpar=updated.rpar)
        return self._wrap(original, updated.with_changes(left=left, right=right))

    def _numpy_scalars(self, *operands: cst.BaseExpression) -> bool:
        """Some operand is a NumPy scalar, none is an array (array code is NumPy's already), all are known."""
        kinds = [self.types.of(o) for o in operands]
        return all(isinstance(k, Scalar) for k in kinds) and any(not k.weak for k in kinds)  # type: ignore[union-attr]

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        if len(original.comparisons) != 1:
            return updated
        ufunc = _COMPARISONS.get(type(original.comparisons[0].operator))
        if ufunc is None:
            return updated
        exact = self._exact_comparison(original, updated)
        if exact is not None:
            return exact
        left, right = self._convert([original.left, original.comparisons[0].comparator],
                                    [updated.left, updated.comparisons[0].comparator], ufunc, compare=True)
        target = updated.comparisons[0].with_changes(comparator=right)
        return updated.with_changes(left=left, comparisons=[target])

    def leave_UnaryOperation(self, original: cst.UnaryOperation, updated: cst.UnaryOperation) -> cst.BaseExpression:
        refused = self._refused(original, updated.expression)
        if refused is not None:
            return refused
        if isinstance(original.operator, cst.Minus | cst.BitInvert):
            if self.types.of(original.expression) == Scalar("bool", True):  # ~True == -2: Python's bool is an int
                operand = cst.Call(cst.Name("int"), [cst.Arg(updated.expression.with_changes(lpar=[], rpar=[]))])
                return updated.with_changes(expression=operand)
            return self._wrap(original, updated)
        return updated

    def _refused(self, original: cst.BaseExpression, operand: cst.BaseExpression) -> cst.BaseExpression | None:
        """An operation NumPy refuses (`bool_array - bool_array`) raises NumPy's TypeError when it runs (the
        operand passes through, so the expression keeps a type Numba can compile)."""
        kind = self.types.of(original)
        if not isinstance(kind, Refused):
            return None
        name = self.intrinsic("cuvil.runtime.elementwise", "numpy_refuses")
        return cst.Call(cst.Name(name), [cst.Arg(operand), cst.Arg(cst.SimpleString(repr(kind.message)))])

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        """A name that is a NumPy scalar (say float32) starts as one, even when first bound to a Python number;
        a Python int stored into a narrow integer array must fit its dtype (NumPy 2's OverflowError), and so must a
        NumPy scalar stored through integers and slices into a signed integer array (lower/python_ints.numpy_fit;
        through a mask or an index array NumPy casts it, wrapping)."""
        if len(original.targets) == 1 and isinstance(original.targets[0].target, cst.Subscript):
            into = self.types.of(original.targets[0].target)
            dtype = into.dtype if isinstance(into, Scalar | Array) else None
            kind = self.types.of(original.value)
            basic = not any(isinstance(p.slice, cst.Index) and isinstance(self.types.of(p.slice.value), Array)
                            for p in original.targets[0].target.slice)  # a mask or an index array casts
            fit = numpy_fit(kind, dtype) if dtype is not None else None  # a float into uint64 casts either way
            if dtype is not None and (needs_fit(original.value, kind, dtype)
                                      or fit and (basic or fit == "float_as_unsigned")):
                return updated.with_changes(value=fitted(updated.value, kind, dtype, self.numpy(), self.intrinsic))
            return updated
        if len(original.targets) != 1 or not isinstance(original.targets[0].target, cst.Name):
            return updated
        declared = self.types.name(original.targets[0].target.value)
        value = self.types.of(original.value)
        if isinstance(declared, Scalar) and not declared.weak and isinstance(value, Scalar) \
                and (value.weak or value.dtype != declared.dtype):
            return updated.with_changes(value=self._call(updated.value, declared.dtype, False))
        return updated

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign) -> cst.BaseSmallStatement:
        ufunc = _OPERATORS.get(type(original.operator))
        target = self.types.of(original.target)
        if ufunc is None or ufunc == "matmul":
            return updated
        uncastable = output_refusal(ufunc, target, [target, self.types.of(original.value)])
        refused = ufunc_result(ufunc, [target, self.types.of(original.value)]) if isinstance(target, Scalar) \
            and not target.weak else None
        if isinstance(refused, Refused):  # `a[i] |= x[i]`, uint64 and int64: NumPy's TypeError when it runs
            uncastable = refused.message
        if uncastable is not None:  # NumPy computes the value, then refuses to store it; Numba's typing crashes
            name = self.intrinsic("cuvil.runtime.elementwise", "numpy_refuses")
            return cst.Expr(cst.Call(cst.Name(name), [cst.Arg(updated.value),
                                                      cst.Arg(cst.SimpleString(repr(uncastable)))]))
        left, value = self._convert([original.target, original.value], [updated.target, updated.value], ufunc)
        into = self.division_update(original, updated.target, value, ufunc)
        if into is not None:  # `c //= b` of integer arrays (lower/division_into.py)
            return into
        result = ufunc_result(ufunc, [target, self.types.of(original.value)])
        update = self._wrapping_update(original, updated.target, value, ufunc, result)
        if update is not None:
            return update
        semantics = _NUMPY_SEMANTICS.get(ufunc) if self._numpy_scalars(original.target, original.value) \
            and repeatable(original.target) else None
        # `a[i] += x[i]`, uint64 and int64: NumPy computes in float64 (`left` is `np.float64(a[i])`), where `+=`
        # would leave the update to Numba's typing, in integers
        convert = left is not updated.target and isinstance(original.target, cst.Subscript) \
            and repeatable(original.target)
        operand = left if convert else updated.target
        computed: cst.BaseExpression = cst.BinaryOperation(operand, binary_operator(original.operator), value)
        if semantics:
            computed = cst.Call(cst.Name(self.intrinsic("cuvil.runtime.elementwise", semantics)),
                                [cst.Arg(operand), cst.Arg(value)])
        if isinstance(target, Scalar) and isinstance(original.target, cst.Subscript) \
                and repeatable(original.target) and numpy_fit(result, target.dtype) is not None:
            # `a[i] += x[i]`, int8 and int64: NumPy stores the int64 sum as `a[i] = ...` would (numpy_fit)
            return cst.Assign([cst.AssignTarget(updated.target)],
                              fitted(computed, result, target.dtype, self.numpy(), self.intrinsic))
        if isinstance(target, Scalar) and (semantics or isinstance(original.target, cst.Name) and _wraps(target)):
            # `t op= v` on a narrow integer: `t = np.int8(t op v)`, which wraps as NumPy does; a NumPy scalar
            # divides as NumPy does: `t = floor_divide(t, v)` (Numba's int64 `//=` gives 0 for INT64_MIN // -1)
            wrapped = self._call(computed, target.dtype, False) if _wraps(target) else computed
            return cst.Assign([cst.AssignTarget(updated.target)], wrapped)
        return updated.with_changes(value=value)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        effect = self.types.calls.effect(original)
        name = effect.name
        positional = [a for a in updated.args if a.keyword is None]
        rewritten = self.library_call(original, updated, name) or fitted_call(original, updated, self.types,
                                                                              self.numpy, self.intrinsic)
        if rewritten is not None:  # NumPy's dtype where Numba's library gives another (lower/library_results.py)
            return rewritten  # or a Python number NumPy converts to an integer dtype first (`a.fill(300)`)
        if name == "cuvil.runtime.intrinsics.py_pow" and self._numpy_scalars(*(a.value for a in original.args)):
            power = self.intrinsic("cuvil.runtime.elementwise", "power")  # NumPy's power for NumPy scalars,
            converted = self._convert([a.value for a in original.args], [a.value for a in updated.args], "power",
                                      strict=True)  # in NumPy's dtype: `2 ** np.int16(3)` is an int16
            return self._wrap(original, updated.with_changes(func=cst.Name(power),
                                                             args=[cst.Arg(c) for c in converted]))
        builtin = self.builtin_call(original, updated, name)
        if builtin is not None:  # Python's builtins on NumPy values and Python numbers (lower/builtin_calls.py)
            return builtin
        if name in _VECTOR_MATH and all(self.types.of(a.value) in _FLOAT64 for a in original.args):
            vector = self._vector_math(_VECTOR_MATH[name], original)  # math.erf and math.tanh raise nothing
            if vector is not None:
                return updated.with_changes(func=vector)
        if name.startswith("math."):  # CPython's math: its conversions, errors and answers
            return math_call(original, updated, name, self.types, self.intrinsic,
                             lambda node, dtype: self._call(node, dtype, False)) or updated
        ufunc_name = _UFUNC_CALLS.get(name) or (name[6:] if name.startswith("numpy.") else None)
        ufunc = getattr(np, ufunc_name, None) if ufunc_name else None
        if isinstance(ufunc, np.ufunc) and ufunc.nout == 1:
            assert ufunc_name is not None
            originals = [a.value for a in original.args if a.keyword is None][: ufunc.nin]
            if len(originals) == ufunc.nin and updated.args:
                # a ufunc called by name is NumPy's even on Python numbers: `np.negative(True)` is refused
                result = ufunc_result(ufunc_name, [self.types.of(o) for o in originals], python=False)
                if isinstance(result, Refused):  # `np.negative(bool_array)`: NumPy's TypeError when it runs
                    refuses = self.intrinsic("cuvil.runtime.elementwise", "numpy_refuses")
                    return cst.Call(cst.Name(refuses), [cst.Arg(updated.args[0].value),
                                                        cst.Arg(cst.SimpleString(repr(result.message)))])
            out = [a for a in updated.args if a.keyword is not None and a.keyword.value == "out"]
            if len(originals) == ufunc.nin and len(original.args) == ufunc.nin + 1:
                uncastable = output_refusal(ufunc_name, self.types.of(original.args[-1].value),
                                              [self.types.of(o) for o in originals])
                if uncastable is not None:  # NumPy's refusal (Numba's typing finds no loop and says so)
                    refuses = self.intrinsic("cuvil.runtime.elementwise", "numpy_refuses")
                    return cst.Call(cst.Name(refuses), [cst.Arg(updated.args[-1].value),
                                                        cst.Arg(cst.SimpleString(repr(uncastable)))])
            if out and len(positional) == ufunc.nin and len(updated.args) == ufunc.nin + 1:
                # Numba takes a ufunc's output only by position
                updated = updated.with_changes(args=[*positional, out[0].with_changes(
                    keyword=None, equal=cst.MaybeSentinel.DEFAULT)])
                positional = list(updated.args)
            if len(originals) == ufunc.nin and len(positional) == len(updated.args):
                converted = self._convert(originals, [a.value for a in positional[: ufunc.nin]], ufunc.__name__,
                                          strict=True)
                semantics = _CALL_SEMANTICS.get(ufunc.__name__)
                kinds_dtypes = _OWN_SEMANTICS.get(ufunc.__name__)
                dtypes = [np.dtype(getattr(self.types.of(o), "dtype", "float64")) for o in originals]
                if kinds_dtypes and all(d.kind in kinds_dtypes[0] or d.name in kinds_dtypes[1] for d in dtypes):
                    semantics = ufunc.__name__  # Numba's integer fmod, unsigned sign and sign of -0.0 are not NumPy's
                if len(updated.args) > ufunc.nin:
                    into = self.division_out(ufunc.__name__, originals, converted, updated.args[-1].value)
                    if into is not None:  # integers: Numba's own loops are not NumPy's (lower/division_into.py)
                        return into
                    semantics = None  # an `out` array: Numba's own ufunc on arrays, which is NumPy's otherwise
                func = cst.Name(self.intrinsic("cuvil.runtime.elementwise", semantics)) if semantics else \
                    updated.func  # NumPy's division and power (inf, nan, 0, ValueError), as for `/`
                if ufunc.__name__ in ("exp", "log", "tanh") and len(updated.args) == 1:
                    func = self._vector_math(ufunc.__name__, original) or func
                args = [cst.Arg(c) for c in converted] + list(updated.args[ufunc.nin:])  # `out` stays as written
                return self._wrap(original, updated.with_changes(func=func, args=args))
        return updated


def binary_operator(op: cst.BaseAugOp) -> cst.BaseBinaryOp:
    name = type(op).__name__.removesuffix("Assign")
    return getattr(cst, name)()
