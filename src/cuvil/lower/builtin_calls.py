"""Python's builtins called in compiled code, rewritten by the casts pass (lower/casts.py mixes this in) so
they give CPython's answer for Python numbers and NumPy's for NumPy values, where Numba's own differ:

    divmod(np.float32(7.5), 2)  →  divmod_(x, np.float32(2))       # NumPy's divmod, its dtype (Numba: float64)
    sum(int8_array)             →  python_sum(a)                   # Python's fold, wrapping in int8 (Numba: int64)
    any(a)                      →  python_any(a)                   # each element's truth (Numba: no any() of arrays)
    float(np.float32(x))        →  np.float64(x)                   # Numba's float() keeps a float32
    range(2.5)                  →  range(as_index(2.5))            # CPython's TypeError
    round(x, 2)                 →  round_ndigits(x, 2)             # CPython's correctly rounded answer
    round(np.float32(x), 1)     →  around(x, 1)                    # NumPy's np.round, in float32 (Numba: float64)
    round(2**53 + 1)            →  to_int(x)                       # an integer's own value (Numba: via a float)
    round(15, -1)               →  round_int_ndigits(15, -1)       # an int, exactly (Numba: 20.0)
    round(np.int8(125), -1)     →  round_integer(x, -1)            # NumPy's, in int8 (Numba: a float32)
    max(np.uint64(u), 0)        →  max(u, np.uint64(0))            # one type holding both (Numba: float64)
    abs(complex_array)          →  absolute(z)                     # NumPy's np.absolute (Numba: no complex)
    isinstance(True, int)       →  True                            # decided when compiling (lower/isinstances.py)
    math.trunc(np.int8(3))      →  numpy_refuses(x, "type numpy.int8 doesn't define __trunc__ method")
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar, Type
from . import isinstances

_NARROW_FLOATS = (Scalar("float32"), Scalar("float16"))
_NUMPY_FLOATS = frozenset(("float16", "float32", "float64"))
_INTEGERS = frozenset("int8 int16 int32 int64 uint8 uint16 uint32 uint64".split())
_FOLDS = {"sum": "python_sum", "max": "python_max", "min": "python_min",  # of an array (runtime/folds.py)
          "any": "python_any", "all": "python_all"}


def _folds(t: Type, name: str) -> bool:
    """`sum(a)` of any array, `max(a)`/`min(a)`/`any(a)`/`all(a)` of a 1-D one (of a 2-D one Python takes each
    row's truth or compares rows: an error)."""
    return isinstance(t, Array) and np.dtype(t.dtype).kind in "biufc" and (name == "sum" or t.ndim == 1) \
        and not (name in ("max", "min") and np.dtype(t.dtype).kind == "c")  # complex numbers have no order


class BuiltinCalls:
    """Mixed into lower/casts.Casts, whose `types`, `intrinsic`, `_convert` and `_call` these use."""

    types: Types
    intrinsic: Callable[[str, str], str]
    arrays_into: bool  # the target is the CPU (lower/casts.py)

    def _convert(self, original: list[cst.BaseExpression], updated: list[cst.BaseExpression],
                 ufunc: str, compare: bool = False, strict: bool = False) -> list[cst.BaseExpression]:
        raise NotImplementedError

    def _call(self, node: cst.BaseExpression, dtype: str, array: bool) -> cst.BaseExpression:
        raise NotImplementedError

    def builtin_call(self, original: cst.Call, updated: cst.Call, name: str) -> cst.BaseExpression | None:
        """The rewritten call, or None where Numba's builtin gives Python's (or NumPy's) answer already."""
        positional = [a for a in updated.args if a.keyword is None]
        if name == "divmod" and len(positional) == len(updated.args) == 2 \
                and self._numpy_operands(*(a.value for a in original.args)):  # NumPy's divmod, in its dtype
            converted = self._convert([a.value for a in original.args], [a.value for a in updated.args],
                                      "floor_divide", strict=True)
            pair = self.intrinsic("cuvil.runtime.elementwise", "divmod_")
            return updated.with_changes(func=cst.Name(pair), args=[cst.Arg(c) for c in converted])
        if name in _FOLDS and len(positional) == len(updated.args) == 1 and self.arrays_into \
                and _folds(self.types.of(original.args[0].value), name):  # Python's, in NumPy's arithmetic
            return updated.with_changes(func=cst.Name(self.intrinsic("cuvil.runtime.folds", _FOLDS[name])))
        if isinstance(original.func, cst.Name) and original.func.value == "float" and len(updated.args) == 1 \
                and self.types.of(original.args[0].value) in _NARROW_FLOATS:
            return self._call(updated.args[0].value, "float64", False)  # Numba's float() keeps a float32
        if name == "range" and any(isinstance(self.types.of(a.value), Scalar) and "float" in
                                   self.types.of(a.value).dtype for a in original.args):  # type: ignore[union-attr]
            check = self.intrinsic("cuvil.runtime.pyint", "as_index")
            return updated.with_changes(args=[a.with_changes(value=cst.Call(cst.Name(check), [cst.Arg(a.value)]))
                                              for a in updated.args])
        kind = self.types.of(original.args[0].value) if name == "round" and original.args else None
        if len(positional) == len(updated.args) == 2 and isinstance(kind, Scalar) and not kind.weak \
                and kind.dtype in _NUMPY_FLOATS and self.arrays_into:  # np.float32.__round__ is np.round
            rounding = "around_f16" if kind.dtype == "float16" else "around"
            return updated.with_changes(func=cst.Name(self.intrinsic("cuvil.runtime.rounding", rounding)))
        if name == "round" and len(positional) == 2 \
                and self.types.of(original.args[0].value) == Scalar("float64", True):  # CPython's exact rounding
            return updated.with_changes(func=cst.Name(self.intrinsic("cuvil.runtime.pymath", "round_ndigits")))
        if len(positional) == len(updated.args) == 1 and isinstance(kind, Scalar) and kind.dtype in _INTEGERS:
            return updated.with_changes(func=cst.Name(self.intrinsic("cuvil.runtime.pyint", "to_int")))  # exact
        if len(positional) == len(updated.args) == 2 and isinstance(kind, Scalar) and kind.dtype in _INTEGERS \
                and self.arrays_into:  # the CPU: a kernel keeps Numba's round (no device twins of these yet)
            # Numba rounds an integer as a float: 2**53 + 1 is lost, round(15, -1) is 20.0
            helper = ("cuvil.runtime.pyint", "round_int_ndigits") if kind.weak else \
                ("cuvil.runtime.elementwise", "round_integer")
            return updated.with_changes(func=cst.Name(self.intrinsic(*helper)))
        if name == "abs" and len(positional) == len(updated.args) == 1 \
                and isinstance(self.types.of(original.args[0].value), Array):  # ndarray.__abs__ is np.absolute
            return updated.with_changes(func=cst.Name(self.intrinsic("numpy", "absolute")))  # Numba: no complex
        if name in ("max", "min") and len(positional) == len(updated.args) >= 2:
            return self._extreme(original, updated)
        if name == "isinstance":
            answer = isinstances.decided(original, self.types)  # CPython's answer, known for every variant
            if answer is not None:
                return answer
        if name == "math.trunc" and len(original.args) == 1:
            kind = self.types.of(original.args[0].value)
            if isinstance(kind, Scalar) and not kind.weak and kind.dtype != "float64":  # np.float64 is a float
                refuses = self.intrinsic("cuvil.runtime.elementwise", "numpy_refuses")  # CPython's TypeError
                said = f"type numpy.{'bool' if kind.dtype == 'bool' else kind.dtype} doesn't define __trunc__ method"
                return cst.Call(cst.Name(refuses), [cst.Arg(updated.args[0].value), cst.Arg(cst.SimpleString(
                    repr(said)))])
        return None

    def _extreme(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression | None:
        """max()/min() of numbers of different types, each converted first to the one type the analysis gives
        the result (analysis/types.extreme): Numba's max(int8, int64 literal) agreed, max(np.uint64, 0) went
        through float64 and lost the low bits above 2**53."""
        result = self.types.of(original)
        kinds = [self.types.of(a.value) for a in original.args]
        if not isinstance(result, Scalar) or result.weak or not all(isinstance(k, Scalar) for k in kinds) \
                or all(k == result for k in kinds):
            return None
        simple = all(isinstance(a.value, cst.Name | cst.Integer | cst.Float) for a in original.args)
        if len(kinds) <= 4 and simple and any(isinstance(k, Scalar) and k.weak for k in kinds):
            return self._chosen(original, updated, kinds, result)
        return updated.with_changes(args=[
            a.with_changes(value=a.value if k == result else self._call(a.value, result.dtype, False))
            for a, k in zip(updated.args, kinds)])

    def _chosen(self, original: cst.Call, updated: cst.Call, kinds: list[Type], result: Scalar) -> cst.BaseExpression:
        """CPython's max(a, b, c): the current one is replaced by each later argument larger than it (`b > a`,
        then `c > a` or `c > b`), and NumPy compares a Python number with a NumPy scalar in the scalar's dtype
        (NEP 50): max(np.float32(x), f) is x where f rounds to x in float32, though the result's type holds both
        values. Each comparison is between the two arguments themselves, so the choice is a tree of conditional
        expressions (2**(n-1) leaves: up to 4 simple arguments), each leaf one argument in the result's type."""
        largest = isinstance(original.func, cst.Name) and original.func.value == "max"
        sides = [(o.value, u.value, k) for o, u, k in zip(original.args, updated.args, kinds, strict=True)]

        def pick(k: int, current: int) -> cst.BaseExpression:
            if k == len(sides):
                _, node, kind = sides[current]
                return node if kind == result else self._call(node, result.dtype, False)
            (a, new_a, _), (b, new_b, _) = sides[current], sides[k]
            left, right = self._convert([b, a], [new_b, new_a], "greater" if largest else "less", compare=True)
            test = cst.Comparison(left, [cst.ComparisonTarget(cst.GreaterThan() if largest else cst.LessThan(),
                                                              right)])
            return cst.IfExp(test, pick(k + 1, k), pick(k + 1, current), lpar=[cst.LeftParen()],
                             rpar=[cst.RightParen()])

        return pick(1, 0)

    def _numpy_operands(self, *operands: cst.BaseExpression) -> bool:
        """Some operand is a NumPy scalar or an array, all are known: `divmod()` of them is NumPy's."""
        kinds: list[Type] = [self.types.of(o) for o in operands]
        return all(isinstance(k, Scalar | Array) for k in kinds) and \
            any(isinstance(k, Array) or (isinstance(k, Scalar) and not k.weak) for k in kinds)
