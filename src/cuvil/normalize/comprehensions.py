"""List, set and dict comprehensions (and generator expressions that a call consumes whole) → loops that build
the list, set or dict.

    total = sum([a[i] * w for i in range(n) if a[i] > 0])     _l0 = []  # L4
                                                   →         for _i0 in range(n):  # L4
                                                                 if a[_i0] > 0:  # L4
                                                                     _l0.append(a[_i0] * w)  # L4
                                                             total = sum(_l0)  # L4

The loop variables are the comprehension's own (Python 3 gives it a scope), so they get fresh names; the first
iterable is evaluated where the comprehension stands, the later ones inside the loops, as Python does. A
comprehension is built before the rest of its statement runs; frontend/subset.py refuses one whose evaluation
is conditional (inside `x if c else y`, `and`/`or`, a `while` test), where that would change what runs.

`any(...)`/`all(...)` of a generator stop at the first element that decides, as Python's do; `sum`, `min`,
`max`, `sorted`, `list` and `tuple` of a generator consume all of it, so they take the list instead.
"""

from __future__ import annotations

import libcst as cst

from ..frontend.subset import CONSUMING, SHORT_CIRCUITING
from .names import Fresh, Rename, all_names, bound_names
from .origins import origin_of, with_origin

Stmts = list[cst.BaseStatement]
_DECIDES = {"any": True, "all": False}  # the element value that decides


def _line(small: cst.BaseSmallStatement, line: int | None) -> cst.SimpleStatementLine:
    return with_origin(cst.SimpleStatementLine([small]), line)


def _assign(name: str, value: cst.BaseExpression, line: int | None) -> cst.SimpleStatementLine:
    return _line(cst.Assign([cst.AssignTarget(cst.Name(name))], value), line)


class _Hoist(cst.CSTTransformer):
    """Replaces each outermost comprehension of one statement by a fresh name, collecting the statements that
    build it, in the order Python evaluates them."""

    def __init__(self, fresh: Fresh, line: int | None):
        super().__init__()
        self.fresh, self.line = fresh, line
        self.prelude: Stmts = []

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        return False  # built whole by leave_ListComp; inner ones go with its loops

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        return False

    def visit_SetComp(self, node: cst.SetComp) -> bool:
        return False

    def visit_DictComp(self, node: cst.DictComp) -> bool:
        return False

    def leave_SetComp(self, original: cst.SetComp, updated: cst.SetComp) -> cst.BaseExpression:
        name = self.fresh("_s")
        add = cst.Call(cst.Attribute(cst.Name(name), cst.Name("add")), [cst.Arg(updated.elt)])
        self.prelude += [_assign(name, cst.Call(cst.Name("set")), self.line),
                         *self.loops(updated.for_in, [_line(cst.Expr(add), self.line)])]
        return cst.Name(name)

    def leave_DictComp(self, original: cst.DictComp, updated: cst.DictComp) -> cst.BaseExpression:
        """The key first, then the value, as Python evaluates them (an assignment would take the value first)."""
        name, key = self.fresh("_d"), self.fresh("_k")
        item = cst.Subscript(cst.Name(name), [cst.SubscriptElement(cst.Index(cst.Name(key)))])
        self.prelude += [_assign(name, cst.Dict([]), self.line), *self.loops(updated.for_in, [
            _assign(key, updated.key, self.line),
            _line(cst.Assign([cst.AssignTarget(item)], updated.value), self.line)])]
        return cst.Name(name)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func.value if isinstance(updated.func, cst.Name) else None
        if func is None or len(updated.args) != 1 or not isinstance(updated.args[0].value, cst.GeneratorExp):
            return updated
        gen = updated.args[0].value
        assert isinstance(gen, cst.GeneratorExp)
        if func in SHORT_CIRCUITING:
            return cst.Name(self.short_circuit(gen, _DECIDES[func]))
        if func in CONSUMING:
            name = self.build(cst.ListComp(gen.elt, gen.for_in))
            if func in ("min", "max"):  # Numba's min/max of an empty list raise StopIteration
                self.prelude.append(self.nonempty(name, func))
            return updated.with_changes(args=[updated.args[0].with_changes(value=cst.Name(name))])
        return updated

    def nonempty(self, name: str, func: str) -> cst.If:
        empty = cst.Comparison(cst.Call(cst.Name("len"), [cst.Arg(cst.Name(name))]),
                               [cst.ComparisonTarget(cst.Equal(), cst.Integer("0"))])
        error = cst.Call(cst.Name("ValueError"), [cst.Arg(cst.SimpleString(f'"{func}() arg is an empty sequence"'))])
        return with_origin(cst.If(empty, cst.IndentedBlock([_line(cst.Raise(error), self.line)])), self.line)

    def leave_ListComp(self, original: cst.ListComp, updated: cst.ListComp) -> cst.BaseExpression:
        return cst.Name(self.build(updated))

    def loops(self, clause: cst.CompFor, innermost: Stmts) -> Stmts:
        """`innermost` inside the loops and conditions of `clause` and the clauses after it, with the
        comprehension's variables renamed (the first iterable is read in the enclosing scope)."""
        renames: dict[str, str] = {}

        def renamed(node: cst.CSTNodeT) -> cst.CSTNodeT:
            return cst.ensure_type(node.visit(Rename(renames)), type(node))

        chain: list[tuple[cst.BaseAssignTargetExpression, cst.BaseExpression, list[cst.BaseExpression]]] = []
        first = True
        for_in: cst.CompFor | None = clause
        while for_in is not None:
            iterable = for_in.iter if first else renamed(for_in.iter)
            for name in sorted(bound_names(for_in.target)):
                renames[name] = self.fresh(f"_{name.lstrip('_')}")
            chain.append((renamed(for_in.target), iterable, [renamed(i.test) for i in for_in.ifs]))
            for_in, first = for_in.inner_for_in, False
        body: Stmts = [renamed(s) for s in innermost]
        for target, iterable, tests in reversed(chain):
            for test in reversed(tests):
                body = [with_origin(cst.If(test, cst.IndentedBlock(body)), self.line)]
            body = [with_origin(cst.For(target, iterable, cst.IndentedBlock(body)), self.line)]
        return self.expanded(body)

    def expanded(self, stmts: Stmts) -> Stmts:
        """`stmts` with the comprehensions inside them hoisted too (a comprehension's element may be one)."""
        return expand(stmts, self.fresh)

    def build(self, comp: cst.ListComp) -> str:
        name = self.fresh("_l")
        append = cst.Call(cst.Attribute(cst.Name(name), cst.Name("append")), [cst.Arg(comp.elt)])
        self.prelude += [_assign(name, cst.List([]), self.line),
                         *self.loops(comp.for_in, [_line(cst.Expr(append), self.line)])]
        return name

    def short_circuit(self, gen: cst.GeneratorExp, decides: bool) -> str:
        name = self.fresh("_any" if decides else "_all")
        test = gen.elt if decides else cst.UnaryOperation(cst.Not(), gen.elt.with_changes(
            lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
        found = cst.If(test, cst.IndentedBlock([_assign(name, cst.Name("True" if decides else "False"), self.line),
                                                _line(cst.Break(), self.line)]))
        self.prelude += [_assign(name, cst.Name("False" if decides else "True"), self.line),
                         *self.loops(gen.for_in, [with_origin(found, self.line)])]
        return name


def _hoisted(stmt: cst.BaseStatement, fresh: Fresh) -> Stmts:
    line = origin_of(stmt)
    hoist = _Hoist(fresh, line)
    new = stmt
    if isinstance(stmt, cst.SimpleStatementLine):
        new = cst.ensure_type(stmt.visit(hoist), cst.SimpleStatementLine)
    elif isinstance(stmt, cst.If):
        new = stmt.with_changes(test=stmt.test.visit(hoist))
    elif isinstance(stmt, cst.For):
        new = stmt.with_changes(iter=stmt.iter.visit(hoist))
    return [*hoist.prelude, new]


def expand(stmts: Stmts, fresh: Fresh) -> Stmts:
    out: Stmts = []
    for stmt in stmts:
        *prelude, stmt = _hoisted(stmt, fresh)
        out += prelude
        if isinstance(stmt, cst.If | cst.For | cst.While):
            body = cst.ensure_type(stmt.body, cst.IndentedBlock)
            stmt = stmt.with_changes(body=body.with_changes(body=expand(list(body.body), fresh)))
            if isinstance(stmt.orelse, cst.Else):
                block = cst.ensure_type(stmt.orelse.body, cst.IndentedBlock)
                stmt = stmt.with_changes(orelse=stmt.orelse.with_changes(
                    body=block.with_changes(body=expand(list(block.body), fresh))))
        out.append(stmt)
    return out


class Comprehensions(cst.CSTTransformer):
    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        body = cst.ensure_type(updated.body, cst.IndentedBlock)
        fresh = Fresh(all_names(updated))
        return updated.with_changes(body=body.with_changes(body=expand(list(body.body), fresh)))
