"""An f-string → the concatenation Python evaluates for it, each field by `str`, `repr` or `format`.

    f"x = {x}, {y:.3f} {z!r}"    →    ('x = ' + format(x, '') + ', ' + format(y, '.3f') + ' ' + repr(z))
    f"{x=}"                       →    ('x=' + repr(x))

Numba's own f-strings print a float as "<object type:float64>"; as calls, the lowering gives each field
Python's text by its type (lower/prints.py). `f"{x}"` is `format(x, '')`, not `str(x)`: NumPy formats a float32
as the Python float it converts to (f"{np.float32(0.1)}" is 0.10000000149011612, its str 0.1).
frontend/subset.py refuses what this cannot write: `!a`, and a format spec with a field of its own
(`{x:{width}}`).
"""

from __future__ import annotations

import libcst as cst


def _text(start: str, end: str, raw: str) -> cst.SimpleString:
    """The literal of one text part, with the f-string's own prefix (r, b) and quotes, braces undoubled."""
    prefix = "".join(c for c in start[: -len(end)] if c not in "fF")
    return cst.SimpleString(prefix + end + raw.replace("{{", "{").replace("}}", "}") + end)


def _call(name: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name(name), [cst.Arg(a) for a in args])


class FStrings(cst.CSTTransformer):
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
            if conversion in ("r", "s"):
                value = _call("repr" if conversion == "r" else "str", value)
            if spec or not conversion:
                pieces.append(_call("format", value, cst.SimpleString(repr(spec))))
            else:
                pieces.append(value)
        if not pieces:
            return cst.SimpleString("''")
        out = pieces[0]
        for piece in pieces[1:]:
            out = cst.BinaryOperation(out, cst.Add(), piece)
        return out.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
