"""InplaceUpdates: literal before/after source. The value is evaluated once, the target's impure parts once and
first, `**=` keeps updating in place; a second run changes nothing."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from cuvil.codegen.updates import INTRINSICS, InplaceUpdates


def _arity(func: cst.BaseExpression) -> tuple[int, int] | None:
    """A stand-in for the module's names: `np.add` is a ufunc of two inputs, `np.modf` of one input, two outputs."""
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "np":
        return {"add": (2, 1), "modf": (1, 2)}.get(func.attr.value)
    return None


def _rewrite(before: str, checked_lines: set[int]) -> str:
    """Run the pass with the statements on `checked_lines` (1-based, of the body) marked as needing checks."""
    module = cst.parse_module(textwrap.dedent(before).lstrip("\n"))
    fn = module.body[0]
    assert isinstance(fn, cst.FunctionDef)
    body = list(fn.body.body)
    checked = [body[k - 1] for k in checked_lines]
    names = {n: n for n in INTRINSICS}
    out = fn.visit(InplaceUpdates(fn, checked, names, _arity))  # type: ignore[arg-type]
    again = out.visit(InplaceUpdates(out, [], names, _arity))  # type: ignore[arg-type]
    code = cst.Module([out]).code  # type: ignore[list-item]
    assert cst.Module([again]).code == code  # type: ignore[list-item]
    return code


@pytest.mark.parametrize(("before", "lines", "after"), [
    ("""
     def f(a, x):
         a += a.T  # L2
         x[1:] *= x[:-1]  # L3
         s += 1.0  # L4
     """, {1, 2}, """
     def f(a, x):
         a += inplace_value(a, a.T)  # L2
         x[1:] *= inplace_value(x[1:], x[:-1])  # L3
         s += 1.0  # L4
     """),
    ("""
     def f(x, c):
         x[pick(c):, len(c)] += bump(c)  # L2
     """, {1}, """
     def f(x, c):
         _at0 = pick(c)  # L2
         x[_at0:, len(c)] += inplace_value(x[_at0:, len(c)], bump(c))  # L2
     """),
    ("""
     def f(a, n, x):
         a **= n  # L2
         a **= 2  # L3
         x[0] **= -1  # L4
     """, {1}, """
     def f(a, n, x):
         a **= pow_exponent(a, inplace_value(a, n))  # L2
         a **= 2  # L3
         x[0] **= pow_exponent(x[0], -1)  # L4
     """),
    ("""
     def f(rows, k, v):
         rows(k)[0] += v  # L2
     """, {1}, """
     def f(rows, k, v):
         _at0 = rows(k)  # L2
         _at0[0] += inplace_value(_at0[0], v)  # L2
     """),
    ("""
     def f(a, x, y):
         np.add(a, a.T, a)  # L2
         np.add(x, 1.0)  # L3
         np.modf(x, y, a[0])  # L4
         np.add(x, y, out=x)  # L5
         np.add(x, y, f(x))  # L6
         np.add(x[1:, 0], -1.0, out=(y,))  # L7
         np.add(g(x), y[x], out=y)  # L8
     """, set(), """
     def f(a, x, y):
         np.add(unshared(a, a), unshared(a, a.T), ufunc_out(a, (a, a.T)))  # L2
         np.add(x, 1.0)  # L3
         np.modf(inplace_value(a[0], inplace_value(y, x)), y, a[0])  # L4
         np.add(unshared(x, x), unshared(x, y), out=ufunc_out(x, (x, y)))  # L5
         np.add(x, y, f(x))  # L6
         np.add(unshared(y, x[1:, 0]), unshared(y, -1.0), out=ufunc_out(y, (x[1:, 0], -1.0)))  # L7
         np.add(inplace_value(y, g(x)), inplace_value(y, y[x]), out=y)  # L8
     """),
])
def test_inplace_updates_rewrite(before, lines, after):
    assert _rewrite(before, lines) == textwrap.dedent(after).lstrip("\n")
