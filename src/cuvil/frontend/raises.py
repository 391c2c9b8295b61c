"""What a `raise` may raise: a class of exception the compiled code can make, decided where the name is known.

Numba raises builtin exceptions and the user's module-level `Exception` subclasses, with any arguments it can
box. A `raise` of anything else (a local variable, an int, a class that is no exception, KeyboardInterrupt)
failed deep inside Numba; it is refused here, at the user's line and column, before anything compiles.
"""

from __future__ import annotations

import types

import libcst as cst

from .captures import MISSING, lookup
from .parse import Checker, Parsed


def _value(fn: types.FunctionType, node: cst.BaseExpression) -> object:
    if isinstance(node, cst.Name):
        return lookup(fn, node.value)
    if isinstance(node, cst.Attribute):
        owner = _value(fn, node.value)
        return MISSING if owner is MISSING else getattr(owner, node.attr.value, MISSING)
    return MISSING


class _Raises(Checker):
    def __init__(self, fn: types.FunctionType, parsed: Parsed):
        super().__init__(parsed)
        self.fn = fn

    def visit_Raise(self, node: cst.Raise) -> None:
        if node.exc is None:
            return  # Python's RuntimeError("No active exception to reraise"), as Numba raises it
        if node.cause is not None:
            self.fail(node.cause.item, "'raise ... from' is not supported",
                      "drop the 'from' clause: the exception is raised all the same")
        func = node.exc.func if isinstance(node.exc, cst.Call) else node.exc
        value = _value(self.fn, func)
        if isinstance(node.exc, cst.Call) and any(a.keyword is not None or a.star for a in node.exc.args):
            self.fail(node.exc, "an exception is raised with positional arguments only",
                      "pass the message and values by position: raise ValueError('n must be >= 0', n)")
        if not (isinstance(value, type) and issubclass(value, Exception)):
            what = f"'{cst.Module([]).code_for_node(func)}', which is not a module-level name" \
                if value is MISSING else f"a {type(value).__name__}"
            if isinstance(value, type):
                what = f"{value.__name__}, " + ("which compiled code cannot raise" if issubclass(
                    value, BaseException) else "a class that does not derive from Exception")
            self.fail(func, f"'raise' needs a subclass of Exception defined at module level; this is {what}",
                      "raise a builtin exception or your own class: raise ValueError('message')")

def check_raises(fn: types.FunctionType, parsed: Parsed) -> None:
    _Raises(fn, parsed).check()
