"""`print` of a float32, float16 or complex64 number shows NumPy's text for it, as Python does (CPU target), and
`str`, `repr` and `format` of numbers and arrays give Python's text.

    print(x, x * 2)    →    print(float32_text(x), float32_text(x * 2))     # x an np.float32
    str(v)             →    number_str(v, 'float64')                          # v a float
    format(v, '.3f')   →    number_format(v, 'float64', '.3f')

Numba prints such a number as the float64 it converts to (0.10000000149011612 for np.float32(0.1));
runtime/printing.py gives NumPy's str. Other numbers, strings and arrays Numba already prints as Python does.
Numba's `str` and `repr` of a float or an array are "<object type:float64>" (its `str` of an int, a bool or a
string is right, and stays), and it has no `format`; f-strings arrive here as these calls
(normalize/fstrings.py).
"""

from __future__ import annotations

import libcst as cst
import numpy as np

from ..analysis.type_rules import Types
from ..analysis.types import Array, Opaque, Scalar, Tuple
from ..frontend.walk import walk
from .reductions import Intrinsic

MODULE = "cuvil.runtime.printing"
_TEXT = {"float32": "float32_text", "float16": "float16_text", "complex64": "complex64_text"}


_TEXTS = ("str", "repr", "format")


def _is_print(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "print"


def wanted(fn: cst.FunctionDef, texts: bool = False) -> bool:
    """Whether `fn` prints anything (`texts`: makes text with str, repr or format); else it needs no typing."""
    names = _TEXTS if texts else ("print",)

    class Find(cst.CSTVisitor):
        found = False

        def visit_Call(self, node: cst.Call) -> None:
            self.found = self.found or isinstance(node.func, cst.Name) and node.func.value in names

    finder = Find()
    walk(fn.body, finder)
    return finder.found


class Prints(cst.CSTTransformer):
    """`texts`: str, repr and format, rewritten on the function as the user wrote it (a later pass makes
    `float(v)` an `np.float64(v)`, whose repr is NumPy's); otherwise print, after the lowering."""

    def __init__(self, types: Types, intrinsic: Intrinsic, texts: bool = False):
        super().__init__()
        self.types, self.intrinsic, self.texts = types, intrinsic, texts

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if isinstance(original.func, cst.Name) and original.func.value in _TEXTS:
            return self._text(original, updated) if self.texts else updated
        if not _is_print(original) or self.texts:
            return updated
        args = []
        for before, arg in zip(original.args, updated.args):
            t = self.types.of(before.value)
            helper = _TEXT.get(t.dtype) if isinstance(t, Scalar) and before.keyword is None and not before.star \
                else None
            if helper is not None:
                text = cst.Call(cst.Name(self.intrinsic(MODULE, helper)), [cst.Arg(arg.value)])
                arg = arg.with_changes(value=text)
            args.append(arg)
        return updated.with_changes(args=args)

    def _text(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """`str(x)`, `repr(x)`, `format(x, spec)` of the builtins, by the type of `x`."""
        name = original.func.value  # type: ignore[attr-defined]
        if self.types.calls.global_of(name) is not None or not original.args \
                or any(a.keyword is not None or a.star for a in original.args) \
                or len(original.args) > (2 if name == "format" else 1):
            return updated
        t = self.types.of(original.args[0].value)
        value = updated.args[0].value
        spec = updated.args[1].value if len(updated.args) > 1 else cst.SimpleString("''")
        dtype = _dtype_of(original.args[0].value, self.types)
        if dtype is not None and (name != "format" or _empty(spec)):  # `str(x.dtype)`: known when compiling (a
            return cst.SimpleString(repr(repr(np.dtype(dtype)) if name == "repr" else dtype))  # half's is bits)
        if isinstance(t, Scalar) and t.dtype not in ("bfloat16",):
            kind = np.dtype(t.dtype).kind
            if name == "str" and kind not in "fc" or name == "format" and kind in "iub" and _empty(spec):
                # Numba's str of an unsigned int or a bool is Python's; of a signed one too, but at its least value
                return self._call("int_str", [value]) if kind == "i" else cst.Call(cst.Name("str"), [cst.Arg(value)])
            extras: dict[str, tuple[str, list[cst.BaseExpression]]] = {
                "str": ("number_str", []), "format": ("number_format", [spec]),
                "repr": ("number_repr", [cst.Name(str(t.weak))])}
            helper, extra = extras[name]
            return self._call(helper, [value, cst.SimpleString(repr(t.dtype)), *extra])
        if isinstance(t, Opaque) and t.what == "str" and (name == "str" or name == "format" and _empty(spec)):
            return value  # a string's own text
        if isinstance(t, Array) and t.dtype in ("float16", "bfloat16") or isinstance(t, Tuple) and any(
                isinstance(e, Array) and e.dtype in ("float16", "bfloat16") for e in t.items):
            return updated  # a half array is held as its bits: its text is refused where Numba types the call
        items = _items(updated.args[0].value, t)
        if items is not None and (name != "format" or _empty(spec)):  # `(x[0], n)`: each item's repr, by its type
            texts = [self._text(cst.Call(cst.Name("repr"), [cst.Arg(o)]), cst.Call(cst.Name("repr"), [cst.Arg(u)]))
                     for o, u in zip(_items(original.args[0].value, t) or (), items)]
            parts = [cst.SimpleString("'('"), *_between(texts, cst.SimpleString("', '")),
                     cst.SimpleString("',)'" if len(texts) == 1 else "')'")]
            out = parts[0]
            for part in parts[1:]:
                out = cst.BinaryOperation(out, cst.Add(), part)
            return out.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        if isinstance(t, Scalar):
            return updated  # a bfloat16
        # an array, a tuple, a string's repr, a list or a dict (typed by Numba alone): the value boxed to Python
        return self._call(f"value_{name}", [value] + ([spec] if name == "format" else []))

    def _call(self, helper: str, args: list[cst.BaseExpression]) -> cst.Call:
        return cst.Call(cst.Name(self.intrinsic(MODULE, helper)), [cst.Arg(a) for a in args])


def _empty(spec: cst.BaseExpression) -> bool:
    return isinstance(spec, cst.SimpleString) and spec.evaluated_value == ""


def _items(node: cst.BaseExpression, t: object) -> list[cst.BaseExpression] | None:
    """The items of a tuple of numbers and strings, each an expression (None for other values): a tuple's text
    is its items' reprs, a NumPy scalar's `np.float64(0.5)`, which boxing the tuple would lose."""
    if not isinstance(t, Tuple) or not all(isinstance(e, Scalar) or isinstance(e, Opaque) and e.what == "str"
                                            for e in t.items):
        return None
    if isinstance(node, cst.Tuple):
        return [e.value for e in node.elements] if len(node.elements) == len(t.items) else None
    if isinstance(node, cst.Name | cst.Attribute):  # read again per item: no call, nothing evaluated twice
        return [cst.Subscript(node, [cst.SubscriptElement(cst.Index(cst.Integer(str(k))))])
                for k in range(len(t.items))]
    return None


def _between(items: list[cst.BaseExpression], separator: cst.BaseExpression) -> list[cst.BaseExpression]:
    return [x for k, item in enumerate(items) for x in ([separator] if k else []) + [item]]


def _dtype_of(node: cst.BaseExpression, types: Types) -> str | None:
    """The dtype `x.dtype` names, for an array `x` whose dtype the analysis knows."""
    if not (isinstance(node, cst.Attribute) and node.attr.value == "dtype"):
        return None
    owner = types.of(node.value)
    return owner.dtype if isinstance(owner, Array) else None
