"""In-place updates with NumPy's and Python's meaning: `t op= v` → `t op= inplace_value(t, v)`, `t **= e` →
`t **= pow_exponent(t, e)` (runtime/intrinsics.py), and a ufunc's inputs checked against its positional output.

    x[1:] += x[:-1]          →    x[1:] += inplace_value(x[1:], x[:-1])
    a **= n                  →    a **= pow_exponent(a, n)
    x[f(i)] += v             →    _at0 = f(i)
                                  x[_at0] += inplace_value(x[_at0], v)
    np.add(a, a.T, a)        →    np.add(unshared(a, a), unshared(a, a.T), ufunc_out(a, (a, a.T)))
    np.add(f(a), b, out=c)   →    np.add(inplace_value(c, f(a)), inplace_value(c, b), out=c)

The value is evaluated once, after the target, as Python evaluates it; the target is written twice, so any part
of it that is not a plain read (a call) is evaluated once first, into a temporary, in Python's order. The
update itself stays an in-place operator: on arrays it writes the caller's array, on scalars it rebinds.
A ufunc's output is checked against all its inputs at once, for NumPy's message naming every operand, where
the inputs are views that may be read again (names, attributes, basic slices); otherwise each input is checked
on its own, and the message names two shapes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Mapping

import libcst as cst
import numpy as np

from ..normalize.names import Fresh, all_names
from .bindings import Binding, Import

Arity = Callable[[cst.BaseExpression], "tuple[int, int] | None"]

INTRINSICS = ("inplace_value", "pow_exponent", "unshared", "ufunc_out")  # runtime/intrinsics.py's, that this calls
_PURE_CALLS = frozenset({"len", "abs", "min", "max", "int", "float"})


def needs_pow_check(value: cst.BaseExpression) -> bool:
    """`t **= value` needs `pow_exponent` unless the exponent is a literal Numba treats as Python does: a
    non-negative integer, or a non-negative integral float."""
    if isinstance(value, cst.Integer):
        return False
    return not (isinstance(value, cst.Float) and float(value.value).is_integer())


def ufunc_arity(names: Mapping[str, Binding]) -> Arity:
    """For a call's function, (inputs, outputs) when it is a NumPy ufunc by the module's `names` (`np.add`,
    `from numpy import add`), else None."""

    def arity(func: cst.BaseExpression) -> tuple[int, int] | None:
        value = None
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            binding = names.get(func.value.value)
            if isinstance(binding, Import) and binding.attr is None:
                value = getattr(sys.modules.get(binding.module), func.attr.value, None)
        elif isinstance(func, cst.Name):
            binding = names.get(func.value)
            if isinstance(binding, Import) and binding.attr is not None:
                value = getattr(sys.modules.get(binding.module), binding.attr, None)
        return (value.nin, value.nout) if isinstance(value, np.ufunc) else None

    return arity


def _pure(node: cst.BaseExpression) -> bool:
    """Evaluating `node` twice gives the same value and does nothing else (reads, arithmetic, `len`)."""
    if isinstance(node, cst.Name | cst.Integer | cst.Float | cst.Imaginary | cst.SimpleString | cst.Ellipsis):
        return True
    if isinstance(node, cst.Attribute):
        return _pure(node.value)
    if isinstance(node, cst.UnaryOperation):
        return _pure(node.expression)
    if isinstance(node, cst.BinaryOperation):
        return _pure(node.left) and _pure(node.right)
    if isinstance(node, cst.Comparison):
        return _pure(node.left) and all(_pure(c.comparator) for c in node.comparisons)
    if isinstance(node, cst.Tuple):
        return all(_pure(e.value) for e in node.elements)
    if isinstance(node, cst.Subscript):
        return _pure(node.value) and all(_pure_slice(e.slice) for e in node.slice)
    if isinstance(node, cst.Call):
        return isinstance(node.func, cst.Name) and node.func.value in _PURE_CALLS \
            and all(a.keyword is None and not a.star and _pure(a.value) for a in node.args)
    return False


def _view(node: cst.BaseExpression) -> bool:
    """Evaluating `node` again makes no array: a name, a number, an attribute, a basic slice of one."""
    if isinstance(node, cst.Name | cst.Integer | cst.Float):
        return True
    if isinstance(node, cst.UnaryOperation):
        return isinstance(node.expression, cst.Integer | cst.Float)
    if isinstance(node, cst.Attribute):
        return _view(node.value)
    if isinstance(node, cst.Subscript):
        return _view(node.value) and all(
            isinstance(e.slice, cst.Slice) and _pure_slice(e.slice)
            or isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Integer) for e in node.slice)
    return False


def _pure_slice(part: cst.BaseSlice) -> bool:
    if isinstance(part, cst.Index):
        return _pure(part.value)
    assert isinstance(part, cst.Slice)
    return all(x is None or _pure(x) for x in (part.lower, part.upper, part.step))


class _Hoist:
    """Takes the impure parts of a target out into temporaries, in evaluation order."""

    def __init__(self, fresh: Fresh):
        self.fresh = fresh
        self.assigns: list[cst.Assign] = []

    def expr(self, node: cst.BaseExpression) -> cst.BaseExpression:
        if _pure(node):
            return node
        name = cst.Name(self.fresh("_at"))
        self.assigns.append(cst.Assign([cst.AssignTarget(name)], node))
        return name

    def target(self, node: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(node, cst.Subscript):
            value = self.target(node.value) if isinstance(node.value, cst.Subscript) else self.expr(node.value)
            elements = [e.with_changes(slice=self.part(e.slice)) for e in node.slice]
            return node.with_changes(value=value, slice=elements)
        if isinstance(node, cst.Attribute):
            return node.with_changes(value=self.expr(node.value))
        return node

    def part(self, part: cst.BaseSlice) -> cst.BaseSlice:
        if isinstance(part, cst.Index):
            return part.with_changes(value=self.expr(part.value))
        assert isinstance(part, cst.Slice)
        lower, upper, step = (None if x is None else self.expr(x) for x in (part.lower, part.upper, part.step))
        return part.with_changes(lower=lower, upper=upper, step=step)


class InplaceUpdates(cst.CSTTransformer):
    """Rewrites the in-place updates in `checked` (statements, by identity: those analysis/shapes.py says
    need run-time care), every `**=` whose exponent needs Python's checks, and every ufunc call (`arity`) with
    a positional output. `used` names the intrinsics the result calls."""

    def __init__(self, function: cst.FunctionDef, checked: Collection[cst.SimpleStatementLine],
                 names: Mapping[str, str], arity: Arity = lambda func: None):
        super().__init__()
        self.checked = {id(s) for s in checked}
        self.arity = arity
        self.names = dict(names)  # INTRINSICS → the module's name for each
        self.fresh = Fresh(all_names(function))
        self.used: set[str] = set()

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        small = updated.body[0]
        if not isinstance(small, cst.AugAssign):
            return updated
        done = isinstance(small.value, cst.Call) and isinstance(small.value.func, cst.Name) \
            and small.value.func.value in self.names.values()  # rewritten already: the pass is idempotent
        wrap = id(original) in self.checked and not done
        power = isinstance(small.operator, cst.PowerAssign) and needs_pow_check(small.value) and not done
        if not (wrap or power):
            return updated
        hoist = _Hoist(self.fresh)
        target = hoist.target(small.target)
        value = small.value
        if wrap:
            value = self.call("inplace_value", target, value)
        if power:
            value = self.call("pow_exponent", target, value)
        line = updated.with_changes(body=[small.with_changes(target=target, value=value)])
        if not hoist.assigns:
            return line
        first = [updated.with_changes(body=[a]) for a in hoist.assigns]
        rest = [line.with_changes(leading_lines=())]
        return cst.FlattenSentinel([first[0], *(s.with_changes(leading_lines=()) for s in first[1:]), *rest])

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        """`np.add(x, y, out)` and `np.add(x, y, out=o)`: NumPy reads inputs that overlap the output as if copied
        first (`np.add(a[::-1], 1, out=a)`); Numba does not."""
        arity = self.arity(updated.func)
        args = updated.args
        if arity is None or any(a.star for a in args):
            return updated
        nin, nout = arity
        positional = [k for k, a in enumerate(args) if a.keyword is None]
        named = [a.value for a in args if a.keyword is not None and a.keyword.value == "out"]
        if len(positional) > nin:
            outs = [args[k].value for k in positional[nin:nin + nout]]
        elif named:
            outs = [e.value for e in named[0].elements] if isinstance(named[0], cst.Tuple) else named
        else:
            return updated
        if len(positional) < nin or not all(_pure(out) for out in outs):
            return updated
        inputs = [args[k].value for k in positional[:nin]]
        if any(isinstance(v, cst.Call) and isinstance(v.func, cst.Name) and v.func.value in self.names.values()
               for v in inputs):
            return updated  # rewritten already: the pass is idempotent
        together = nout == 1 and all(_view(v) for v in inputs)
        new = list(args)
        for k, value in zip(positional[:nin], inputs):
            for out in outs:
                value = self.call("unshared" if together else "inplace_value", out, value)
            new[k] = args[k].with_changes(value=value)
        if together:
            checked = self.call("ufunc_out", outs[0], cst.Tuple([cst.Element(v.deep_clone()) for v in inputs]))
            if len(positional) > nin:
                new[positional[nin]] = args[positional[nin]].with_changes(value=checked)
            else:
                k = next(k for k, a in enumerate(args) if a.keyword is not None and a.keyword.value == "out")
                new[k] = args[k].with_changes(value=checked)  # `out=(o,)` too, which Numba refuses
        return updated.with_changes(args=new)

    def call(self, which: str, target: cst.BaseExpression, value: cst.BaseExpression) -> cst.Call:
        self.used.add(which)
        return cst.Call(cst.Name(self.names[which]), [cst.Arg(target.deep_clone()), cst.Arg(value)])
