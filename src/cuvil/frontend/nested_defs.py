"""Which nested `def`s normalize/nested_defs.py can inline exactly: the calls it replaces are whole statements.

    def outer(x, out):
        def clamp(v, lo, hi):            a nested def with statements, defined in outer's own body and
            if v < lo:                   only called: each call is the value of an assignment, an augmented
                return lo                assignment or a return, or a statement of its own
            return min(v, hi)
        for i in range(len(x)):
            out[i] = clamp(x[i], 0.0, 1.0)

Its body is inlined at each call, its parameters bound first, so arguments are evaluated once, in order,
before the body runs, as in a call. Free names are read where the body runs, which is Python's late binding.
A call anywhere else (inside an expression, a condition) would need the body to run in the middle of an
expression, so it is refused with a hint; so is anything that makes the function a value (passed, returned).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from .walk import walk

Fail = Callable[[cst.CSTNode, str, str], None]

_STATEMENT_VALUES = (cst.Assign, cst.AugAssign, cst.Return, cst.Expr)


def is_nested_def(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.FunctionDef) and not stmt.decorators and stmt.asynchronous is None


def statement_call(small: cst.BaseSmallStatement, name: str) -> cst.Call | None:
    """The call of `name` that is the whole value of this statement (`y = name(...)`, `name(...)`), or None."""
    value = small.value if isinstance(small, _STATEMENT_VALUES) else None
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == name:
        return value
    return None


class _Calls(cst.CSTVisitor):
    """Every use of `name` under a node: the calls that are a statement's value, and the other uses."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name
        self.whole: list[cst.Call] = []
        self.other: list[cst.CSTNode] = []
        self.allowed: set[int] = set()  # the Name nodes of the whole-statement calls

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        for small in node.body:
            call = statement_call(small, self.name)
            if call is not None:
                self.whole.append(call)
                self.allowed.add(id(call.func))

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        walk(node.value, self)
        return False  # `a.name` is an attribute, not the function

    def visit_Arg(self, node: cst.Arg) -> bool:
        walk(node.value, self)
        return False  # `f(name=1)`: a keyword

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name and id(node) not in self.allowed:
            self.other.append(node)


def check_nested_def(fn: cst.FunctionDef, stmts: list[cst.BaseStatement], k: int, fail: Fail) -> None:
    """Fails (through `fail`) unless the def at `stmts[k]`, in `fn`'s own body, can be inlined at its calls."""
    nested = stmts[k]
    assert isinstance(nested, cst.FunctionDef)
    name = nested.name.value
    params = nested.params
    if params.posonly_params or params.kwonly_params or isinstance(params.star_arg, cst.Param) \
            or params.star_kwarg is not None or any(p.default is not None for p in params.params):
        fail(nested, "a nested def with defaults or '*' parameters is not supported",
             "give it plain parameters, or define a module-level function")
    if name in {p.name.value for p in fn.params.params}:
        fail(nested, f"the nested def '{name}' hides a parameter of the same name", "give it a name of its own")
    for earlier in stmts[:k]:
        found = _Calls(name)
        walk(earlier, found)
        if found.whole or found.other:
            fail((found.whole or found.other)[0], f"'{name}' is used before its def",
                 "define the function before the lines that call it")
    inside = _Calls(name)
    walk(nested.body, inside)
    if inside.whole or inside.other:
        fail((inside.whole or inside.other)[0], f"the nested def '{name}' calls itself",
             "a recursive function must be a module-level def")
    for later in stmts[k + 1:]:
        uses = _Calls(name)
        walk(later, uses)
        if isinstance(later, cst.FunctionDef) and later.name.value == name:
            fail(later, f"'{name}' is defined twice in the function", "give each nested def a name of its own")
        for other in uses.other:
            fail(other, f"the nested def '{name}' can only be called here, as a statement's whole value",
                 f"write `y = {name}(...)` on a line of its own (a nested def with one 'return' can be called "
                 "anywhere); to pass it around, define a module-level function")
        for call in uses.whole:
            if len(call.args) != len(params.params) or any(a.keyword is not None or a.star for a in call.args):
                fail(call, f"'{name}' takes {len(params.params)} positional argument(s) here",
                     "pass one positional argument per parameter")
