"""An f-string → the concatenation Python evaluates for it, each field by `str`, `repr` or `format`.

    f"x = {x}, {y:.3f} {z!r}"    →    ('x = ' + format(x, '') + ', ' + format(y, '.3f') + ' ' + repr(z))
    f"{x=}"                       →    ('x=' + repr(x))

Numba's own f-strings print a float as "<object type:float64>"; as calls, the lowering gives each field
Python's text by its type (lower/prints.py). `f"{x}"` is `format(x, '')`, not `str(x)`: NumPy formats a float32
as the Python float it converts to (f"{np.float32(0.1)}" is 0.10000000149011612, its str 0.1).
frontend/subset.py refuses what this cannot write: `!a`, and a format spec with a field of its own
(`{x:{width}}`). `"{} of {:.2f}".format(a, b)` on a literal is written the same way, where the fields name
arguments plainly (`{}`, `{0}`, `{name}`) and each argument is evaluated as often as Python does or is free
to evaluate again (no call in it).
"""

from __future__ import annotations

import string

import libcst as cst


def _text(start: str, end: str, raw: str) -> cst.SimpleString:
    """The literal of one text part, with the f-string's own prefix (r, b) and quotes, braces undoubled."""
    prefix = "".join(c for c in start[: -len(end)] if c not in "fF")
    return cst.SimpleString(prefix + end + raw.replace("{{", "{").replace("}}", "}") + end)


def _call(name: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name(name), [cst.Arg(a) for a in args])


def _has_call(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Call) or any(_has_call(c) for c in node.children)


def _field(value: cst.BaseExpression, conversion: str | None, spec: str) -> cst.BaseExpression:
    if conversion in ("r", "s"):
        value = _call("repr" if conversion == "r" else "str", value)
    if spec or not conversion:
        return _call("format", value, cst.SimpleString(repr(spec)))
    return value


def _joined(pieces: list[cst.BaseExpression]) -> cst.BaseExpression:
    if not pieces:
        return cst.SimpleString("''")
    out = pieces[0]
    for piece in pieces[1:]:
        out = cst.BinaryOperation(out, cst.Add(), piece)
    return out.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _str_format(call: cst.Call) -> cst.BaseExpression | None:
    """`"{} of {:.2f}".format(a, b)` as the f-string it equals, or None where it is not one plainly."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "format" and isinstance(func.value, cst.SimpleString)
            and all(not a.star for a in call.args)):
        return None
    positional = [a.value for a in call.args if a.keyword is None]
    named = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    try:
        parsed = list(string.Formatter().parse(str(func.value.evaluated_value)))
    except ValueError:
        return None  # Python's own ValueError for a malformed string: raised where it runs
    pieces: list[cst.BaseExpression] = []
    used: list[str] = []
    auto = 0
    for text, field, spec, conversion in parsed:
        if text:
            pieces.append(cst.SimpleString(repr(text)))
        if field is None:
            continue
        if field == "":
            field, auto = str(auto), auto + 1
        if "{" in (spec or "") or conversion not in (None, "r", "s"):
            return None
        value = positional[int(field)] if field.isdigit() and int(field) < len(positional) else named.get(field)
        if value is None:
            return None  # `{0.real}`, `{x[1]}`, a missing argument: as written (Python's error where it runs)
        used.append(field)
        pieces.append(_field(value, conversion, spec or ""))
    every = [str(k) for k in range(len(positional))] + list(named)
    if used != every and any(_has_call(v) for v in (*positional, *named.values())):
        return None  # an argument with a call evaluated once, in order, by Python: only as the fields use them
    return _joined(pieces)


class FStrings(cst.CSTTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        return _str_format(updated) or updated

    def leave_FormattedString(self, original: cst.FormattedString,
                              updated: cst.FormattedString) -> cst.BaseExpression:
        pieces: list[cst.BaseExpression] = []
        for part in updated.parts:
            if isinstance(part, cst.FormattedStringText):
                if part.value:
                    pieces.append(_text(updated.start, updated.end, part.value))
                continue
            assert isinstance(part, cst.FormattedStringExpression)
            value = part.expression
            spec = "".join(p.value for p in part.format_spec or () if isinstance(p, cst.FormattedStringText))
            conversion = part.conversion
            if part.equal is not None:  # `{x=}`: the field's source, then its repr unless a spec or `!s` says
                show = cst.Module([]).code_for_node
                written = show(part.whitespace_before_expression) + show(part.expression) + show(part.equal)
                pieces.append(cst.SimpleString(repr(written)))
                conversion = conversion or ("r" if part.format_spec is None else None)
            pieces.append(_field(value, conversion, spec))
        return _joined(pieces)
