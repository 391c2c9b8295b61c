"""A function that returns numbers of different types returns each as Python would.

normalize/single_exit.py joins every `return` into one variable, and Numba types a variable with one type: an
int32 element returned early and a float at the end both came back as a float (`2.0` for `np.int32(2)`). When
the values a returned name takes have different types (as Python and NumPy box them: Python int and float,
bool, np.int32, np.float32, …), each type gets a slot of its own and the entry returns which one it set:

    _rv = a[i]                  _rv_0 = a[i]; _rv_which = 0
    _rv = s              →      _rv_1 = s; _rv_which = 1
    return _rv                  return (_rv_which, _rv_0, _rv_1)

runtime/adapters.py then gives back the slot the tag names (`CUVIL_SEVERAL_RETURNS` in the generated module
says so), in its own type. Only the entry function, only numbers (arrays of different kinds Numba refuses in
its own words), CPU only; a name read anywhere but its `return` stays as it is (its type is one type in the
code that reads it).
"""

from __future__ import annotations

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import NONE, Scalar, Tuple, Type
from ..cfg.uses import reads_in
from ..frontend.walk import walk
from ..normalize.names import Fresh, all_names
from ..normalize.origins import origin_of, with_origin

MARK = "CUVIL_SEVERAL_RETURNS"  # the generated module's flag for runtime/adapters.py

_ZEROS = {"bool": "False", "int64": "0", "float64": "0.0", "complex128": "0j"}


def boxed(t: Type) -> str | None:
    """The type a returned number has in Python: Python's own for weak numbers and for the NumPy types Numba
    boxes as Python's (int64, float64, complex128), else the NumPy type's name; a tuple of numbers, its items'
    (`(int, float)`); None for anything else."""
    if isinstance(t, Tuple):
        items = [boxed(item) for item in t.items]
        if not items or None in items:
            return None
        return "(" + ", ".join(items) + ",)"  # type: ignore[arg-type]
    if not isinstance(t, Scalar) or t.dtype in ("float16", "bfloat16"):
        return None
    if t.dtype == "bool":  # np.bool_ is a type of its own (`~` is logical not), given back by runtime/adapters.py
        return "bool" if t.weak else "bool_"
    python = {"int64": "int", "float64": "float", "complex128": "complex"}.get(t.dtype)
    return python or (None if t.weak else t.dtype)


def returned_name(fn: cst.FunctionDef) -> str | None:
    """The name of the function's one `return NAME`, its last statement (single_exit's form)."""
    last = fn.body.body[-1] if fn.body.body else None
    if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[0], cst.Return) \
            and isinstance(last.body[0].value, cst.Name):
        return last.body[0].value.value
    return None


def _assigned_values(fn: cst.FunctionDef, name: str) -> list[cst.BaseExpression] | None:
    """The values of every `name = value`; None when `name` also stands anywhere else but in the return."""
    values = []

    class Sites(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) \
                    and node.targets[0].target.value == name:
                values.append(node.value)

    walk(fn.body, Sites())
    occurrences = sum(n.value == name for n in reads_in(fn.body))  # every Name node: targets too
    return values if occurrences == len(values) + 1 else None


def _returned_conditional(fn: cst.FunctionDef) -> cst.IfExp | cst.BooleanOperation | None:
    """The value of a last `return a.max() if a.size else 0` (or `return i < n and a[i] > 0`): a function with
    one `return` keeps it (single_exit joins only several), so its arms are the values returned."""
    last = fn.body.body[-1] if fn.body.body else None
    if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[0], cst.Return) \
            and isinstance(last.body[0].value, (cst.IfExp, cst.BooleanOperation)):
        return last.body[0].value
    return None


def kinds(fn: cst.FunctionDef, types: Types) -> list[str] | None:
    """The Python types the returned name (or the last `return`'s conditional expression) takes, in order of
    first assignment, when there are several numbers (a `None` placeholder aside); None otherwise."""
    name = returned_name(fn)
    conditional = _returned_conditional(fn)
    values = _assigned_values(fn, name) if name is not None else [conditional] if conditional else None
    if values is None:
        return None
    found: list[str] = []
    for value in (arm for v in values for arm in _arms(v)):
        t = types.of(value)
        if t == NONE:
            continue
        kind = boxed(t)
        if kind is None:
            return None
        if kind not in found:
            found.append(kind)
    return found if len(found) > 1 else None


class SeveralReturns(cst.CSTTransformer):
    """Gives each type of the returned name a slot (see the module's docstring); `numpy` names NumPy."""

    def __init__(self, fn: cst.FunctionDef, types: Types, numpy: str):
        super().__init__()
        self.types, self.numpy = types, numpy
        self.name = returned_name(fn)
        self.conditional = _returned_conditional(fn) if self.name is None else None
        found = kinds(fn, types)
        assert (self.name is not None or self.conditional is not None) and found is not None
        self.kinds = found
        fresh = self.fresh = Fresh(all_names(fn))
        base = self.name or "_rv"
        self.slots = [fresh(f"{base}_") for _ in found]
        self.which = fresh(f"{base}_which")

    def _zero(self, kind: str) -> cst.BaseExpression:
        return cst.parse_expression(_zero_text(kind, self.numpy))

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
                                  ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        small = original.body[0]
        values = [cst.Name(self.which), *(cst.Name(s) for s in self.slots)]
        tuple_ = cst.Tuple([cst.Element(v) for v in values])
        if isinstance(small, cst.Return) and isinstance(small.value, cst.Name) and small.value.value == self.name:
            return updated.with_changes(body=[small.with_changes(value=tuple_)])
        if isinstance(small, cst.Return) and self.conditional is not None and small.value is self.conditional:
            tagged = updated.with_changes(body=[small.with_changes(value=tuple_)])
            return cst.FlattenSentinel([*self._store(self.conditional, origin_of(original)), tagged])
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == self.name):
            return updated
        return cst.FlattenSentinel(self._store(small.value, origin_of(original)))

    def _differ(self, value: cst.BaseExpression) -> bool:
        """Whether the values `value` may take have different types in Python."""
        return len({boxed(self.types.of(v)) for v in _arms(value)}) > 1

    def _chain(self, value: cst.BaseExpression, origin: int | None, truth: str) -> list[cst.BaseStatement]:
        """`x and y`, `x or y` (nested too) as Python evaluates them: each operand once, left to right, stored
        in its own type's slot, `truth` holding whether the operand stored last is true; the right operand is
        evaluated, and replaces the left, only when the left is true (`and`) or false (`or`)."""
        if isinstance(value, cst.IfExp) and self._differ(value):
            orelse = cst.Else(cst.IndentedBlock(self._chain(value.orelse, origin, truth)))
            body = cst.IndentedBlock(self._chain(value.body, origin, truth))
            return [with_origin(cst.If(value.test.with_changes(lpar=[], rpar=[]), body, orelse), origin)]
        if not isinstance(value, cst.BooleanOperation):
            stored = self._store(value.with_changes(lpar=[], rpar=[]), origin)
            slot = stored[0].body[0].targets[0].target  # type: ignore[attr-defined]  # `slot = value`, first
            return [*stored, _line(truth, cst.Call(cst.Name("bool"), [cst.Arg(slot)]), origin)]
        test: cst.BaseExpression = cst.Name(truth)
        if isinstance(value.operator, cst.Or):
            test = cst.UnaryOperation(cst.Not(), cst.Name(truth))
        right = self._chain(value.right, origin, truth)
        return [*self._chain(value.left, origin, truth), with_origin(cst.If(test, cst.IndentedBlock(right)), origin)]

    def _store(self, value: cst.BaseExpression, origin: int | None) -> list[cst.BaseStatement]:
        """`slot = value; which = k`; a conditional expression or an `and`/`or` whose arms differ in type, as
        `if`s."""
        if isinstance(value, cst.IfExp) and self._differ(value):
            test = value.test.with_changes(lpar=[], rpar=[])
            orelse = cst.Else(cst.IndentedBlock(self._store(value.orelse, origin)))
            return [with_origin(cst.If(test, cst.IndentedBlock(self._store(value.body, origin)), orelse), origin)]
        if isinstance(value, cst.BooleanOperation) and self._differ(value):
            return self._chain(value, origin, self.fresh(f"{self.name or '_rv'}_true"))
        kind = boxed(self.types.of(value))
        if kind is None:  # the `None` placeholder: a tag no slot has
            return [_line(self.which, cst.UnaryOperation(cst.Minus(), cst.Integer("1")), origin)]
        k = self.kinds.index(kind)
        return [_line(self.slots[k], value, origin), _line(self.which, cst.Integer(str(k)), origin)]

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        origin = origin_of(original.body.body[0]) if original.body.body else None
        starts = [_line(s, self._zero(k), origin) for s, k in zip(self.slots, self.kinds)]
        return updated.with_changes(body=updated.body.with_changes(body=[*starts, *updated.body.body]))


def _line(name: str, value: cst.BaseExpression, origin: int | None) -> cst.SimpleStatementLine:
    return with_origin(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], value)]), origin)


def _arms(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The values a (nested) conditional expression or `and`/`or` may take (`x and y`: x when it is false)."""
    if isinstance(value, cst.IfExp):
        return [*_arms(value.body), *_arms(value.orelse)]
    if isinstance(value, cst.BooleanOperation):
        return [*_arms(value.left), *_arms(value.right)]
    return [value]


def _zero_text(kind: str, numpy: str) -> str:
    """A value of the returned type `kind` (a slot's value until it is set)."""
    if kind.startswith("("):
        return "(" + "".join(_zero_text(k, numpy) + ", " for k in _split_items(kind[1:-2])) + ")"
    python = {"bool": "bool", "int": "int64", "float": "float64", "complex": "complex128"}.get(kind)
    if python is not None:
        return _ZEROS[python]
    return f"{numpy}.{kind}(0)"


def _split_items(text: str) -> list[str]:
    """The item kinds of a tuple kind's inside (`int, (float, int,)`), split at its top-level commas."""
    items, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if c == "," and depth == 0:
            items.append(text[start:i].strip())
            start = i + 1
    items.append(text[start:].strip())
    return [item for item in items if item]
