"""A name bound to a Python int on one path and a float on another shows, and returns, what it holds as Python
would.

Numba gives a name one type: `s = 0` then `s += x[i]` makes `s` a float everywhere, so after a loop that ran no
iteration `print(s)` printed `0.0` and `return s * 2` returned `0.0` where Python has the int 0 (a nested
function returning `1` on one path and `2.5` on another returned `1.0`). Where such a value reaches a text (str,
repr, format, f-strings, print) or the entry's return, a counter beside each name involved records whether it
holds an int (0) or not: a float bound to it adds one, an int sets it to 0, arithmetic passes its operands' on.

    s = 0                     _nf_s = 0; s = 0
    for i in range(n):        for i in range(n):
        s += x[i]       →         _nf_s += 1; s += x[i]      (a sum: a parallel loop stays parallel)
    t = s * 2                 _nf_t = 0 if _nf_s == 0 else 1; t = s * 2
    return t                  return int(t) if _nf_t == 0 else t     (lower/returns.py: each type its slot)

The value itself stays the float Numba computes: an int beyond 2**53 held by such a name loses its low bits (as
in Numba); bind a float from the start (`s = 0.0`) to avoid the question. Only names bound by plain assignment
are followed; a name bound otherwise (unpacked from a tuple, a loop's target), or a value whose int-ness this
pass cannot follow (`max(a, b)`, a call of a helper), leaves the function as it was.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import INT, Scalar
from ..cfg.uses import calls_in, reads_in
from ..frontend.containers import bound
from ..frontend.walk import walk
from ..normalize.names import Fresh, all_names
from ..normalize.origins import origin_of, with_origin
from .returns import boxed, returned_name

Tag = bool | cst.BaseExpression | None  # certainly an int, certainly not, decided at run time, or unknown
_KEEP = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)  # int op int is an int
_KEEP_AUG = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.FloorDivideAssign, cst.ModuloAssign)
_TEXTS = ("str", "repr", "format")
_PY_POW = "cuvil.runtime.intrinsics.py_pow"
_MOST_TAGGED_ITEMS = 3  # a returned tuple of more such items keeps Numba's floats (2**k arms)


def _floating(t: object) -> bool:
    return isinstance(t, Scalar) and t.dtype in ("float64", "float32", "float16")


def _call_name(node: cst.BaseExpression) -> str | None:
    return node.func.value if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) else None


class _Sites(cst.CSTVisitor):
    """Every binding of every name: (name, the statement, its value or the AugAssign); names bound otherwise."""

    def __init__(self) -> None:
        self.sites: dict[str, list[cst.Assign | cst.AugAssign]] = {}
        self.other: set[str] = set()
        self.crowded: set[str] = set()  # bound in a line of several statements

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if len(node.body) > 1:
            for small in node.body:
                if isinstance(small, cst.Assign | cst.AugAssign):
                    self.crowded |= set(_targets(small))

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            self.sites.setdefault(node.targets[0].target.value, []).append(node)
        else:
            self.other |= set(_targets(node))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            self.sites.setdefault(node.target.value, []).append(node)

    def visit_For(self, node: cst.For) -> None:
        self.other |= set(bound(node.target))


def _targets(node: cst.Assign | cst.AugAssign) -> list[str]:
    """The names `node` binds (`a[i] = v` binds none)."""
    if isinstance(node, cst.AugAssign):
        return bound(node.target)
    return [name for t in node.targets for name in bound(t.target)]


class _Observed(cst.CSTVisitor):
    """The values shown as text: arguments of str/repr/format/print."""

    def __init__(self) -> None:
        self.values: list[cst.BaseExpression] = []

    def visit_Call(self, node: cst.Call) -> None:
        name = _call_name(node)
        if name in _TEXTS and node.args:
            self.values.append(node.args[0].value)
        elif name == "print":
            self.values += [a.value for a in node.args if a.keyword is None and not a.star]


class IntOrFloat(cst.CSTTransformer):
    """`entry`: whether `fn` is the entry, whose returned value goes back to Python."""

    def __init__(self, fn: cst.FunctionDef, types: Types, entry: bool):
        super().__init__()
        self.types = types
        self.counters: dict[str, str] = {}  # per name followed, its counter (made once the names are known)
        found = _Sites()
        walk(fn.body, found)
        params = {p.name.value for p in fn.params.params}
        self.sites, self.params = found.sites, params
        union = {n for n, sites in found.sites.items()
                 if _floating(types.name(n)) and any(self._site_type(s) == INT for s in sites)}
        self.tagged = set(union)
        while True:  # names computed from them are ints exactly where their operands are
            derived = {n for n, sites in found.sites.items() if n not in self.tagged and _floating(types.name(n))
                       and any(self._mentions(s.value) for s in sites)}
            if not derived:
                break
            self.tagged |= derived
        observed = _Observed()
        walk(fn.body, observed)
        shown = [v for v in observed.values if self._mentions(v)]
        self.entry = entry
        self.returned = returned_name(fn) if entry else None
        self.returned_sites = self._returned_sites(fn) if self.returned is not None else None
        returned = [s.value for s in self.returned_sites or ()]
        last = fn.body.body[-1] if entry and fn.body.body else None
        if self.returned_sites is None and isinstance(last, cst.SimpleStatementLine) \
                and isinstance(last.body[0], cst.Return) and last.body[0].value is not None:
            returned.append(last.body[0].value)
        needed = {n.value for v in [*shown, *returned] for n in reads_in(v) if n.value in self.tagged}
        for _ in range(len(self.tagged) + 1):  # what the shown values are computed from
            needed |= {n.value for name in list(needed) for s in self.sites.get(name, ())
                       for n in reads_in(s.value) if n.value in self.tagged}
        if self.returned_sites is not None:
            needed.discard(self.returned)  # read only by `return`: its sites are rewritten instead
        self.needed = needed
        self.active = bool(shown or any(self._mentions(v) for v in returned)) and not (
            needed & (found.other | found.crowded | params)) and all(
            self.tag(s.value if isinstance(s, cst.Assign) else s) is not None
            for n in needed for s in found.sites.get(n, ()))
        fresh = Fresh(all_names(fn))
        self.counters = {n: fresh(f"_nf_{n}") for n in sorted(needed)}

    def _site_type(self, site: cst.Assign | cst.AugAssign) -> object:
        return self.types.of(site.value) if isinstance(site, cst.Assign) else self.types.rules.update(site)

    def _mentions(self, node: cst.CSTNode) -> bool:
        return any(n.value in self.tagged for n in reads_in(node))

    def _returned_sites(self, fn: cst.FunctionDef) -> list[cst.Assign] | None:
        """The `returned = value` sites, when the returned name is read nowhere else."""
        assert self.returned is not None
        sites = self.sites.get(self.returned, [])
        reads = sum(n.value == self.returned for n in reads_in(fn.body))
        if any(not isinstance(s, cst.Assign) for s in sites) or reads != len(sites) + 1:
            return None
        return sites  # type: ignore[return-value]

    # the int-ness of a value ------------------------------------------------------------------------------

    def tag(self, node: cst.BaseExpression | cst.AugAssign) -> Tag:
        if isinstance(node, cst.AugAssign):
            return self._operation(node.operator, cst.ensure_type(node.target, cst.Name), node.value)
        if not self._mentions(node):
            t = self.types.of(node)
            return True if t == INT else False if isinstance(t, Scalar) and t.dtype != "bool" else None
        if isinstance(node, cst.Name):
            return self._is_int(node.value) if node.value in self.counters or node.value in self.tagged else None
        if isinstance(node, cst.BinaryOperation):
            return self._operation(node.operator, node.left, node.right)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus | cst.Plus):
            return self.tag(node.expression)
        if isinstance(node, cst.IfExp) and not calls_in(node.test):  # the test read again: no call in it
            body, orelse = self.tag(node.body), self.tag(node.orelse)
            if body is None or orelse is None:
                return None
            return body if body == orelse and isinstance(body, bool) else cst.IfExp(
                node.test, _expression(body), _expression(orelse), lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        if not isinstance(node, cst.Call) or any(a.keyword is not None or a.star for a in node.args):
            return None
        name, args = self.types.calls.effect(node).name, [a.value for a in node.args]
        if name == "abs" and len(args) == 1:
            return self.tag(args[0])
        if name == _PY_POW and len(args) == 2:  # `a ** b`, as the front end writes it
            return self._operation(cst.Power(), args[0], args[1])
        if name in ("int", "len") or name == "round" and len(args) == 1:
            return True
        if name == "float":
            return False
        return None

    def _operation(self, op: cst.CSTNode, left: cst.BaseExpression, right: cst.BaseExpression) -> Tag:
        kind = type(op)
        if kind in (cst.Divide, cst.DivideAssign):
            return False
        if kind in (cst.Power, cst.PowerAssign):  # int ** -1 is a float
            if not isinstance(right, cst.Name | cst.Integer):
                return None
            nonnegative = cst.Comparison(right, [cst.ComparisonTarget(cst.GreaterThanEqual(), cst.Integer("0"))])
            return _both(_both(self.tag(left), self.tag(right)), nonnegative)
        if isinstance(op, _KEEP + _KEEP_AUG):
            return _both(self.tag(left), self.tag(right))
        return None

    def _is_int(self, name: str) -> cst.BaseExpression:
        if name not in self.counters:  # tagged but not followed: never asked when active
            return cst.Name("False")
        return cst.Comparison(cst.Name(self.counters[name]), [cst.ComparisonTarget(cst.Equal(), cst.Integer("0"))])

    # the rewrite --------------------------------------------------------------------------------------------

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
                                  ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if not self.active or len(original.body) != 1:
            return updated
        small, origin = original.body[0], origin_of(original)
        if isinstance(small, cst.Assign | cst.AugAssign):
            target = _targets(small)
            if len(target) == 1 and target[0] in self.counters:
                count = self._count(self.counters[target[0]], small)
                return updated if count is None else cst.FlattenSentinel([with_origin(count, origin), updated])
            if isinstance(small, cst.Assign) and self.returned_sites is not None and target \
                    and target[0] == self.returned and self._mentions(small.value):
                value = self._returned(small.value, updated.body[0].value)  # type: ignore[attr-defined]
                return updated.with_changes(body=[updated.body[0].with_changes(value=value)])
        if isinstance(small, cst.Return) and small.value is not None and self._mentions(small.value) \
                and self.entry and self.returned_sites is None:
            value = self._returned(small.value, updated.body[0].value)  # type: ignore[attr-defined]
            return updated.with_changes(body=[updated.body[0].with_changes(value=value)])
        return updated

    def _count(self, counter: str, site: cst.Assign | cst.AugAssign) -> cst.SimpleStatementLine | None:
        """The counter's update before `site`: `_nf_s += 1` for `s += <a float>` (a sum, which a parallel loop
        keeps), none for `s += <an int>` (int op int stays an int, float op int a float)."""
        if isinstance(site, cst.AugAssign) and isinstance(site.operator, _KEEP_AUG):
            step = self.tag(site.value)
            if step is True:
                return None
            value = cst.Integer("1") if step is False else cst.IfExp(step, cst.Integer("0"), cst.Integer("1"))  # type: ignore[arg-type]
            return cst.SimpleStatementLine([cst.AugAssign(cst.Name(counter), cst.AddAssign(), value)])
        tag = self.tag(site if isinstance(site, cst.AugAssign) else site.value)
        value = cst.Integer("0" if tag is True else "1") if isinstance(tag, bool) else \
            cst.IfExp(tag, cst.Integer("0"), cst.Integer("1"))  # type: ignore[arg-type]
        return cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(counter))], value)])

    def _returned(self, value: cst.BaseExpression, updated: cst.BaseExpression) -> cst.BaseExpression:
        """`value` as its arms: `int(v) if <v holds an int> else v`, item by item for a tuple (`updated`: the
        value as rewritten inside)."""
        if isinstance(value, cst.Tuple) and isinstance(updated, cst.Tuple):
            if boxed(self.types.of(value)) is None:  # lower/returns.py gives back tuples of numbers only
                return updated
            tags = [self.tag(e.value) if _floating(self.types.of(e.value)) else None for e in value.elements]
            dynamic = [k for k, tag in enumerate(tags) if tag is not None and not isinstance(tag, bool)]
            if not dynamic or len(dynamic) > _MOST_TAGGED_ITEMS:
                return updated
            return self._arms(updated, [(k, tags[k]) for k in dynamic])  # type: ignore[misc]
        tag = self.tag(value)
        if isinstance(tag, bool) or tag is None or not _floating(self.types.of(value)):
            return updated
        return cst.IfExp(tag, _as_int(updated), updated.with_changes(lpar=[], rpar=[]),
                         lpar=[cst.LeftParen()], rpar=[cst.RightParen()])

    def _arms(self, value: cst.Tuple, dynamic: list[tuple[int, cst.BaseExpression]]) -> cst.BaseExpression:
        if not dynamic:
            return value
        (k, tag), rest = dynamic[0], dynamic[1:]
        element = value.elements[k]
        as_int = value.with_changes(elements=[*value.elements[:k], element.with_changes(value=_as_int(element.value)),
                                              *value.elements[k + 1:]])
        return cst.IfExp(tag, self._arms(as_int, rest), self._arms(value, rest),
                         lpar=[cst.LeftParen()], rpar=[cst.RightParen()])

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not self.active:
            return updated
        name = _call_name(original)
        if name in _TEXTS and original.args and self._shown(original.args[0].value):
            if name == "format" and len(original.args) > 1 and not isinstance(
                    original.args[1].value, cst.Name | cst.SimpleString):
                return updated
            tag = self.tag(original.args[0].value)
            as_int = updated.with_changes(args=[updated.args[0].with_changes(value=_as_int(updated.args[0].value)),
                                                *updated.args[1:]])
            return cst.IfExp(tag, as_int, updated, lpar=[cst.LeftParen()], rpar=[cst.RightParen()])  # type: ignore[arg-type]
        if name == "print":
            args = []
            for before, arg in zip(original.args, updated.args):
                if arg.keyword is None and not arg.star and self._shown(before.value):
                    text = cst.Call(cst.Name("str"), [cst.Arg(arg.value)])
                    arg = arg.with_changes(value=cst.IfExp(
                        self.tag(before.value), cst.Call(cst.Name("str"), [cst.Arg(_as_int(arg.value))]), text))  # type: ignore[arg-type]
                args.append(arg)
            return updated.with_changes(args=args)
        return updated

    def _shown(self, value: cst.BaseExpression) -> bool:
        return self._mentions(value) and not isinstance(self.tag(value), bool) and self.tag(value) is not None \
            and _floating(self.types.of(value))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if not self.active or not self.counters:
            return updated
        origin = origin_of(original.body.body[0]) if original.body.body else None
        starts = [with_origin(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(c))], cst.Integer("0"))]),
                              origin) for c in self.counters.values()]
        return updated.with_changes(body=updated.body.with_changes(body=[*starts, *updated.body.body]))



def _both(a: Tag, b: Tag) -> Tag:
    if a is None or b is None:
        return None
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    return cst.BooleanOperation(a, cst.And(), b)


def _expression(tag: bool | cst.BaseExpression) -> cst.BaseExpression:
    return cst.Name(str(tag)) if isinstance(tag, bool) else tag


def _as_int(value: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name("int"), [cst.Arg(value.with_changes(lpar=[], rpar=[]))])


def wanted(fn: cst.FunctionDef, types: Types, entry: bool) -> IntOrFloat | None:
    """The rewrite of `fn`, where a value that may be an int or a float is shown or returned."""
    rewrite = IntOrFloat(fn, types, entry)
    return rewrite if rewrite.active else None
