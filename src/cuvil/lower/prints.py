"""`print` of a float32, float16 or complex64 number shows NumPy's text for it, as Python does (CPU target).

    print(x, x * 2)    →    print(float32_text(x), float32_text(x * 2))     # x an np.float32

Numba prints such a number as the float64 it converts to (0.10000000149011612 for np.float32(0.1));
runtime/printing.py gives NumPy's str. Other numbers, strings and arrays Numba already prints as Python does.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import Scalar
from ..frontend.walk import walk
from .reductions import Intrinsic

MODULE = "cuvil.runtime.printing"
_TEXT = {"float32": "float32_text", "float16": "float16_text", "complex64": "complex64_text"}


def _is_print(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "print"


def wanted(fn: cst.FunctionDef) -> bool:
    """Whether `fn` prints anything (else it needs no typing)."""

    class Find(cst.CSTVisitor):
        found = False

        def visit_Call(self, node: cst.Call) -> None:
            self.found = self.found or _is_print(node)

    finder = Find()
    walk(fn.body, finder)
    return finder.found


class Prints(cst.CSTTransformer):
    def __init__(self, types: Types, intrinsic: Intrinsic):
        super().__init__()
        self.types, self.intrinsic = types, intrinsic

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not _is_print(original):
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
