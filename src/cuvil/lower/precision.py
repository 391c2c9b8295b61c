"""Half precision in the generated code: the arrays hold uint16 bits, the values are float32 (issue 12).

Numba's CPU target has neither float16 nor bfloat16, so a half array is passed as its bits (runtime/adapters.py
`Half`) and every access converts (runtime/half.py). Three passes, around lower/casts.py:

    explicit (before typing)     cuvil.fp16(v) → np.float16(v) in an fp16 variant, a rounding to float32 in a
                                 bf16 one; cuvil.fp32(v) → np.float32(v)
    access (after the lowering)  v = x[i]     → v = f16_to_f32(x[i])                 loads widen, exactly
                                 y[i] = v     → y[i] = f16(v)                         stores round once
                                 y[i] += v    → y[i] = f16(f16_to_f32(y[i]) + v)
    values (after Casts)         np.float16(e), and each operation NumPy gives a half for → round_f16(e)
                                 (not under a precision policy: there values stay float32 until stored);
                                 float16 dtypes → np.uint16, np.ones/full of halves filled with their bits

Everything else that would touch a half array as a whole (a NumPy call the lowering leaves as written, `astype`,
arithmetic on the array) would read its bits as integers, so it is refused at the user's line instead. The
same pass warns (PrecisionWarning) where precision is lost silently: a float32 or float64 value stored into a
half array without a policy or a cast, a bf16 value mixed with a float64 literal or array, and a half
accumulator updated in a loop (each update rounds: long sums drift).
"""

from __future__ import annotations

import linecache
import warnings
from collections.abc import Callable, Sequence

import libcst as cst

from ..analysis.precision import Precision
from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar, Type
from ..cfg.effects import Calls
from ..errors import CuvilTypeError, PrecisionWarning
from ..library.numpy import shown
from ..normalize.origins import origin_of
from .half_scalars import HalfScalars

HALF = "cuvil.runtime.half"
_CASTS = {f"{m}.{n}": n for m in ("cuvil", "cuvil.precision") for n in ("fp16", "bf16", "fp32")}
_AUG: dict[type, type[cst.BaseBinaryOp]] = {
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide, cst.FloorDivideAssign: cst.FloorDivide, cst.ModuloAssign: cst.Modulo,
    cst.PowerAssign: cst.Power}
# What may be done to a half array as a whole: views and shapes (the bits are as good as the values there),
# and passing it on. Anything else is refused.
_ARRAY_ATTRS = frozenset({"shape", "size", "ndim", "T", "nbytes", "itemsize", "strides"})
_ARRAY_METHODS = frozenset({"copy", "reshape", "ravel", "transpose", "flatten", "squeeze", "swapaxes",
                            "item"})  # item: widened by Access
_ARRAY_CALLS = frozenset({"len", "numpy.empty_like", "numpy.zeros_like", "numpy.full_like", "numpy.ones_like",
                          "numpy.shape",
                          "numpy.copy", "numpy.ascontiguousarray", "numpy.ravel", "numpy.transpose",
                          "cuvil.runtime.pages.advise"})
_RUNTIME = {"float16": "f16", "bfloat16": "bf16"}  # runtime/half.py's names
_ONES_BITS = {"float16": 0x3C00, "bfloat16": 0x3F80}
HALF_STEPS = "cuvil.runtime.half_steps"  # functions of a format's steps, not of values: in the half's own
_STEPPED = {("numpy.nextafter", "float16"): "nextafter_f16", ("numpy.spacing", "float16"): "spacing_f16",
            ("numpy.nextafter", "bfloat16"): "nextafter_bf16"}
Intrinsic = Callable[[str, str], str]


def _half(t: Type) -> bool:
    return isinstance(t, Array | Scalar) and t.dtype == "float16"


def _call(name: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name(name), [cst.Arg(a.with_changes(lpar=[], rpar=[])) for a in args])


def _numpy_attr(numpy: str, name: str) -> cst.Attribute:
    return cst.Attribute(cst.Name(numpy), cst.Name(name))


class Located:
    """Where a statement came from, for errors and warnings at the user's line."""

    def __init__(self, filename: str | None, line: int | None = None):
        self.filename = filename
        self.line = line

    def error(self, message: str) -> CuvilTypeError:
        text = linecache.getline(self.filename, self.line) if self.filename and self.line else None
        return CuvilTypeError(message, self.filename, self.line, text)

    def warn(self, message: str) -> None:
        warnings.warn_explicit(message, PrecisionWarning, self.filename or "<cuvil>", self.line or 0)


class Explicit(cst.CSTTransformer):
    """`cuvil.fp16(v)`, `cuvil.bf16(v)`, `cuvil.fp32(v)` as conversions the analyses type (see the module doc);
    in a bf16 variant, `np.float16` — which would mean bf16 inside — is refused."""

    def __init__(self, calls: Calls, precision: Precision, numpy: Callable[[], str], intrinsic: Intrinsic,
                 filename: str | None):
        super().__init__()
        self.calls, self.precision, self.numpy, self.intrinsic = calls, precision, numpy, intrinsic
        self.where = Located(filename)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.where.line = origin_of(node)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        name = self.calls.effect(original).name
        cast = _CASTS.get(name)
        if name == "numpy.float16" and self.precision.storage == "bfloat16":
            raise self.where.error("np.float16 in a function whose half arrays are bfloat16: write cuvil.fp16(v) "
                                   "for an fp16-rounded value")
        if cast is None:
            return updated
        if len(updated.args) != 1 or updated.args[0].keyword is not None:
            raise self.where.error(f"cuvil.{cast} takes one value")
        value = updated.args[0].value
        if cast == "fp32":
            return cst.Call(_numpy_attr(self.numpy(), "float32"), [cst.Arg(value)])
        if (cast == "fp16") == (self.precision.storage == "float16"):  # the variant's own half
            return cst.Call(_numpy_attr(self.numpy(), "float16"), [cst.Arg(value)])
        other = _RUNTIME["float16" if cast == "fp16" else "bfloat16"]
        rounded = _call(self.intrinsic(HALF, f"round_{other}"), value)  # the other half: a float32 value
        return cst.Call(_numpy_attr(self.numpy(), "float32"), [cst.Arg(rounded)])


class Access(cst.CSTTransformer):
    """Loads of half elements widen, stores narrow, in-place updates become load, operate, store."""

    def __init__(self, types: Types, precision: Precision, intrinsic: Intrinsic, filename: str | None):
        super().__init__()
        self.types, self.precision = types, precision
        fmt = _RUNTIME[precision.storage]
        self.widen = intrinsic(HALF, f"{fmt}_to_f32")
        self.narrow = intrinsic(HALF, fmt)
        self.targets: set[int] = set()
        self.where = Located(filename)

    def _element(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Subscript) and _half(self.types.of(node.value)) \
            and isinstance(self.types.of(node), Scalar)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.where.line = origin_of(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        self.targets.update(id(t.target) for t in node.targets)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.targets.add(id(node.target))

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        if id(original) in self.targets or not self._element(original):
            return updated
        return _call(self.widen, updated)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """`x.item()` of a half array or element: its value as a Python float, as NumPy gives it (checks, issue
        10; issue 36)."""
        func = original.func
        if isinstance(func, cst.Attribute) and func.attr.value == "item" and not original.args \
                and _half(self.types.of(func.value)):
            if isinstance(self.types.of(func.value), Scalar):  # an element: widened already
                return _call("float", updated.func.value)  # type: ignore[attr-defined]
            return _call("float", _call(self.widen, updated))
        return updated

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        if not any(self._element(t.target) for t in original.targets):
            return updated
        if len(original.targets) > 1:
            raise self.where.error("assign to one half-precision element at a time")
        value = self.types.of(original.value)
        if not self.precision.policy and isinstance(value, Scalar) and not value.weak and value.dtype in (
                "float32", "float64"):
            self.where.warn(f"a {value.dtype} value stored into a {self.precision.storage} array rounds "
                            f"implicitly; write cuvil.{self.precision.short}(...) to round on purpose, or "
                            f"compile with precision='{self.precision.short}'")
        return updated.with_changes(value=_call(self.narrow, updated.value))

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign) -> cst.BaseSmallStatement:
        if not self._element(original.target):
            return updated
        op = _AUG.get(type(original.operator))
        if op is None:
            raise self.where.error(f"'{original.operator.__class__.__name__}' on a half-precision element")
        target, value = updated.target, updated.value
        if isinstance(value, cst.Call) and isinstance(original.value, cst.Call) \
                and self.types.calls.effect(original.value).name.endswith(".inplace_value"):
            value = value.args[1].value  # NumPy's in-place meaning, which an element needs no help for
        loaded = _call(self.widen, target)
        value = cst.BinaryOperation(loaded, op(), value.with_changes(
            lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
        return cst.Assign([cst.AssignTarget(target)], _call(self.narrow, value))

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        self._mixing(original)
        return updated

    def _mixing(self, node: cst.BinaryOperation) -> None:
        if self.precision.storage != "bfloat16":
            return
        sides: Sequence[cst.BaseExpression] = (node.left, node.right)
        kinds = [self.types.of(s) for s in sides]
        if not any(_half(k) for k in kinds):
            return
        for side, kind in zip(sides, kinds):
            wide = isinstance(kind, Scalar | Array) and kind.dtype == "float64" and not (
                isinstance(kind, Scalar) and kind.weak)
            text = side.value if isinstance(side, cst.Float) else None
            literal = text is not None and not self.precision.policy and _round_bf16(float(text)) != float(text)
            if wide or literal:
                what = f"the float64 literal {text} (rounded to bf16 here)" if literal else "a float64 value"
                self.where.warn(f"a bf16 value is mixed with {what}; write cuvil.bf16(...) or cuvil.fp32(...) "
                                "to choose the precision")
                return


class Values(cst.CSTTransformer):
    """After Casts: half results rounded (NumPy's rule, without a policy), half dtypes as uint16 storage, and
    every other use of a half array refused."""

    def __init__(self, types: Types, precision: Precision, numpy: Callable[[], str], intrinsic: Intrinsic,
                 filename: str | None):
        super().__init__()
        self.types, self.precision, self.numpy = types, precision, numpy
        self.intrinsic = intrinsic
        self.round = intrinsic(HALF, f"round_{_RUNTIME[precision.storage]}")
        self.narrow_name = intrinsic(HALF, _RUNTIME[precision.storage])
        self.where = Located(filename)
        self.scalars = HalfScalars(types, precision.storage, self.narrow_name, numpy, self.where.error)
        self.callees: set[int] = set()
        self.parents: list[cst.CSTNode] = []
        self.loops = 0

    # -- context ---------------------------------------------------------------------------------------
    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.SimpleStatementLine | cst.If | cst.While | cst.For):
            self.where.line = origin_of(node) or self.where.line
        if isinstance(node, cst.For | cst.While):
            self.loops += 1
        if isinstance(node, cst.Call):
            self.callees.add(id(node.func))
        if isinstance(node, cst.BaseExpression) and _half(self.types.of(node)) and isinstance(
                self.types.of(node), Array):
            self._allowed(node)
        self.parents.append(node)
        return True

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
        self.parents.pop()
        if isinstance(original, cst.For | cst.While):
            self.loops -= 1
        return super().on_leave(original, updated)  # type: ignore[return-value]

    def _allowed(self, node: cst.BaseExpression) -> None:
        """A half array used as a whole: only where its bits serve as well as its values."""
        parent = self.parents[-1] if self.parents else None
        if isinstance(parent, cst.Subscript) and parent.value is node:
            return  # a view, or an element (widened or stored by Access)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            grand = self.parents[-2] if len(self.parents) > 1 else None
            called = isinstance(grand, cst.Call) and grand.func is parent
            if parent.attr.value in (_ARRAY_METHODS if called else _ARRAY_ATTRS):
                return
            if parent.attr.value == "dtype" and isinstance(grand, cst.Arg):
                return  # `np.zeros(n, h.dtype)`: the storage's dtype, an allocation of halves (issue 36)
        elif isinstance(parent, cst.Arg):
            caller = self.parents[-2]
            assert isinstance(caller, cst.Call)
            name = self.types.calls.effect(caller).name
            if name in _ARRAY_CALLS or name.startswith(("helper ", "cuvil.runtime.parallel.")):
                return
        elif isinstance(parent, cst.Assign | cst.Return | cst.Element | cst.AssignTarget | cst.Tuple | cst.Param):
            return
        elif isinstance(parent, cst.Comparison | cst.ComparisonTarget) and all(
                isinstance(t.operator, cst.Is | cst.IsNot)
                for t in (parent.comparisons if isinstance(parent, cst.Comparison) else [parent])):
            return  # identity; an order or equality the Plan left whole would compare the bits
        call = self.parents[-2] if isinstance(parent, cst.Arg) else None
        what = self.types.calls.effect(call).name if isinstance(call, cst.Call) else \
            f".{parent.attr.value}" if isinstance(parent, cst.Attribute) else \
            type(parent).__name__ if parent is not None else "this"
        what = shown(what)  # a Cuvil helper: the name of the NumPy (or math) function the user wrote
        raise self.where.error(
            f"{what.replace('numpy.', 'np.')} on a {self.precision.storage} array: compiled code holds half "
            "arrays as their bits and computes on elements only; write it as a loop over the elements, or "
            "convert outside the function (x.astype(np.float32))")

    # -- rewrites --------------------------------------------------------------------------------------
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if id(original) in self.callees or original.attr.value != "float16":
            return updated
        if isinstance(original.value, cst.Name) and original.value.value == self.numpy():
            return updated.with_changes(attr=cst.Name("uint16"))  # a dtype: the storage
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        rewritten = self.scalars.rewrite(original, updated)  # NumPy on single half elements
        if rewritten is not None:
            return rewritten
        name = self.types.calls.effect(original).name
        result = self.types.of(original)
        if name == "numpy.float16":
            if not updated.args or isinstance(self.types.of(original.args[0].value), Array):
                raise self.where.error("np.float16 of an array in compiled code: convert outside the function")
            return _call(self.round, updated.args[0].value)
        if isinstance(result, Array) and _half(result) and name in ("numpy.ones", "numpy.ones_like",
                                                                    "numpy.full", "numpy.full_like"):
            return self._filled(name, updated)
        stepped = _STEPPED.get((name, self.precision.storage))
        if not self.precision.policy and isinstance(result, Scalar) and _half(result) and stepped:
            return _call(self.intrinsic(HALF_STEPS, stepped), *(a.value for a in updated.args))  # a half's steps
        if not self.precision.policy and isinstance(result, Scalar) and _half(result) \
                and not name.startswith(HALF) and name != "numpy.float16":
            return _call(self.round, updated)  # np.tanh(h), math.sqrt(h), a helper's half result
        return updated

    def _filled(self, name: str, call: cst.Call) -> cst.Call:
        ones = name in ("numpy.ones", "numpy.ones_like")
        args = list(call.args)
        fill: cst.BaseExpression = cst.Integer(hex(_ONES_BITS[self.precision.storage]))
        if not ones:
            fill = _call(self.narrow_name, args[1].value)
            args = args[:1] + args[2:]
        func = cst.Attribute(cst.Name(self.numpy()), cst.Name("full_like" if name.endswith("_like") else "full"))
        return call.with_changes(func=func, args=[args[0], cst.Arg(fill), *args[1:]])

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        if self.precision.policy or not isinstance(self.types.of(original), Scalar) \
                or not _half(self.types.of(original)):
            return updated
        return _call(self.round, updated)

    def leave_UnaryOperation(self, original: cst.UnaryOperation,
                             updated: cst.UnaryOperation) -> cst.BaseExpression:
        if self.precision.policy or isinstance(original.operator, cst.Not) \
                or not isinstance(self.types.of(original), Scalar) or not _half(self.types.of(original)):
            return updated
        return updated if isinstance(original.operator, cst.Minus | cst.Plus) else _call(self.round, updated)

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign) -> cst.BaseSmallStatement:
        kind = self.types.of(original.target)
        if not isinstance(original.target, cst.Name) or not isinstance(kind, Scalar) or not _half(kind) \
                or self.precision.policy:
            return updated
        if self.loops:
            self.where.warn(f"'{original.target.value}' is a {self.precision.storage} accumulator updated in a "
                            "loop: every update rounds to half precision; start it as "
                            f"'{original.target.value} = cuvil.fp32(...)', or compile with precision="
                            f"'{self.precision.short}'")
        op = _AUG[type(original.operator)]
        value = cst.BinaryOperation(updated.target, op(), updated.value.with_changes(
            lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
        return cst.Assign([cst.AssignTarget(updated.target)], _call(self.round, value))

def _round_bf16(x: float) -> float:
    from ..precision import bf16

    return float(bf16(x))
