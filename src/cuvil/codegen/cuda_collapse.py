"""Two nested parallel axes as one grid (issue 11): `for i in prange(n): for j in range(m): body` becomes
`for e in prange(n * m): i = e // m; j = e % m; body`, so a kernel over a short, wide array (4 rows of a
million) runs a thread per element, not one per row. Iterations are numbered in Python's order (row-major),
so the serial twin on one thread runs them as Python does.

Only when the inner loop is provably parallel by its text alone: the outer body is that loop and, before it,
nothing but the row's checks (each element repeats them: the same iteration, code and values recorded); `m`
does not read `i` or anything the loops assign; the body is plain assignments; every array the body writes is
written and read only at one index, which names both `i` and `j` as bare elements (so two (i, j) never touch
one element); every name it assigns is assigned before it is read (private to the iteration); no check in the
body records an error (it would record the row, not the element, and the first failing element of a row is
Python's); no reduction. Anything else keeps the 1-D grid with the inner loop in each thread.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..cfg.uses import contains
from ..frontend.walk import walk
from ..normalize.names import assigned_names
from ..normalize.origins import origin_of, with_origin

_RECORDING = ("_record_error", "_ck.", "_errs", "_error")


def collapse(loop: cst.For, fresh: Callable[[str], str]) -> tuple[cst.For, cst.BaseExpression] | None:
    """(the flat prange loop, its extent `n * m`), or None when the nest must stay as it is."""
    found = _perfect_nest(loop)
    if found is None:
        return None
    i, j, outer_count, inner_count, body = found
    e = fresh("_e")
    line = origin_of(loop)
    extent = cst.BinaryOperation(_paren(outer_count), cst.Multiply(), _paren(inner_count))
    head = [with_origin(cst.parse_statement(f"{i} = {e} // {_code(_paren(inner_count))}"), line),
            with_origin(cst.parse_statement(f"{j} = {e} % {_code(_paren(inner_count))}"), line)]
    flat = loop.with_changes(target=cst.Name(e), iter=loop.iter.with_changes(args=[cst.Arg(extent)]),
                             body=loop.body.with_changes(body=[*head, *body]))
    return flat, extent


def _perfect_nest(loop: cst.For) -> tuple[str, str, cst.BaseExpression, cst.BaseExpression,
                                         list[cst.BaseStatement]] | None:
    """(i, j, n, m, the outer body with the inner loop replaced by its body) of a nest that may collapse."""
    if not isinstance(loop.target, cst.Name) or not isinstance(loop.body, cst.IndentedBlock) or loop.orelse:
        return None
    found: list[cst.For] = []
    flat = _unnest(list(loop.body.body), found)
    if flat is None or len(found) != 1:
        return None
    inner = found[0]
    it = inner.iter
    if not (isinstance(inner.target, cst.Name) and isinstance(it, cst.Call) and isinstance(it.func, cst.Name)
            and it.func.value == "range" and len(it.args) == 1 and it.args[0].keyword is None):
        return None
    i, j, m = loop.target.value, inner.target.value, it.args[0].value
    body: list[cst.BaseStatement] = list(inner.body.body)  # type: ignore[arg-type]
    text = _code(cst.Module(body))  # type: ignore[arg-type]
    if any(r in text for r in _RECORDING):
        return None
    if _names(m) & (assigned_names(loop.body) | {i, j}):
        return None
    if not _independent(body, i, j):
        return None
    return i, j, loop.iter.args[0].value, m, flat  # type: ignore[attr-defined]


def _unnest(stmts: list[cst.BaseStatement], found: list[cst.For]) -> list[cst.BaseStatement] | None:
    """`stmts` with the one inner loop replaced by its body, when all else is row checks before it (codegen/
    parallel.py's: flags, tests of the row's indices, error records; each element repeats its row's, which
    record the same iteration and code); None otherwise."""
    out: list[cst.BaseStatement] = []
    for stmt in stmts:
        if found:
            return None  # a statement after the inner loop would run once per element
        if isinstance(stmt, cst.For):
            if stmt.orelse or not isinstance(stmt.body, cst.IndentedBlock):
                return None
            found.append(stmt)
            out.extend(stmt.body.body)
        elif isinstance(stmt, cst.If) and isinstance(stmt.body, cst.IndentedBlock) and _plain(stmt.test):
            body = _unnest(list(stmt.body.body), found)
            orelse: cst.Else | None = None
            if isinstance(stmt.orelse, cst.Else) and isinstance(stmt.orelse.body, cst.IndentedBlock):
                inside = bool(found)
                other = _unnest(list(stmt.orelse.body.body), [])
                if other is None or inside and other:
                    return None
                orelse = stmt.orelse.with_changes(body=stmt.orelse.body.with_changes(body=other))
            elif stmt.orelse is not None:
                return None
            if body is None:
                return None
            out.append(stmt.with_changes(body=stmt.body.with_changes(body=body), orelse=orelse))
        elif _row_check(stmt):
            out.append(stmt)
        else:
            return None
    return out


def _row_check(stmt: cst.BaseStatement) -> bool:
    """A flag set, a bare expression, or an error record: what a row's checks are made of."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return False
    small = stmt.body[0]
    if isinstance(small, cst.Assign):
        return len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
            and isinstance(small.value, cst.Name | cst.Integer)
    if isinstance(small, cst.Expr):
        value = small.value
        if isinstance(value, cst.Call):
            return isinstance(value.func, cst.Name) and value.func.value in ("_record_error", "_record_error_values") \
                and all(_plain(a.value) for a in value.args)
        return _plain(value)
    return False


def _plain(expr: cst.BaseExpression) -> bool:
    """No call in it (reads of names, shapes and numbers)."""
    return not contains(expr, cst.Call)


def _independent(body: list[cst.BaseStatement], i: str, j: str) -> bool:
    every = assigned_names(cst.Module(body))  # type: ignore[arg-type]
    if {i, j} & every:
        return False
    written: dict[str, str] = {}  # array → the one index it is written at
    assigned: set[str] = set()  # names this iteration has assigned so far
    for stmt in body:
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
            return False
        small = stmt.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target, value = small.targets[0].target, small.value
        elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Subscript):
            target, value = small.target, small.value
        else:
            return False
        reads = _names(value)
        if isinstance(target, cst.Subscript):
            reads |= set().union(*(_names(e) for e in target.slice))
        if reads & (every - assigned):
            return False  # read before this iteration assigns it: carried from the previous one
        if isinstance(target, cst.Name):
            assigned.add(target.value)
            continue
        if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name)):
            return False
        index = _index(target)
        if index is None or not {i, j} <= set(index) or len(set(index)) != len(index) \
                or written.setdefault(target.value.value, "|".join(index)) != "|".join(index):
            return False
    return all(_only_at(stmt, written) for stmt in body)


def _index(sub: cst.Subscript) -> list[str] | None:
    """The index elements' source, or None when one is a slice."""
    parts = []
    for element in sub.slice:
        if not isinstance(element.slice, cst.Index):
            return None
        parts.append(_code(element.slice.value))
    return parts


def _only_at(stmt: cst.CSTNode, written: dict[str, str]) -> bool:
    """Every use of a written array in `stmt` is an element at its written index, or its `.shape`."""
    ok = True

    class Find(cst.CSTVisitor):
        def visit_Subscript(self, sub: cst.Subscript) -> bool:
            nonlocal ok
            if isinstance(sub.value, cst.Name) and sub.value.value in written:
                index = _index(sub)
                ok = ok and index is not None and "|".join(index) == written[sub.value.value]
                for element in sub.slice:
                    walk(element, self)
                return False
            return True

        def visit_Attribute(self, attr: cst.Attribute) -> bool:
            return not (isinstance(attr.value, cst.Name) and attr.value.value in written and attr.attr.value == "shape")

        def visit_Name(self, name: cst.Name) -> None:
            nonlocal ok
            ok = ok and name.value not in written

    walk(stmt, Find())
    return ok


def _names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Find(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

        def visit_Attribute(self, attr: cst.Attribute) -> bool:
            walk(attr.value, self)
            return False

    walk(node, Find())
    return found


def _paren(expr: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(expr, cst.Name | cst.Integer | cst.Subscript | cst.Call | cst.Attribute):
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)
