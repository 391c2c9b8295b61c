"""Every expression on one line: the user's layout inside a statement is dropped before any rewrite moves it.

    return (a[:-1] +      # tail        →    return (a[:-1] + a[1:])  # L4
            a[1:])

A line break inside an expression is legal only within brackets or after a backslash. Later passes lift
subexpressions out of their brackets (fused nests, hoisted checks, temporaries), and a break carried along
made a module that did not import. Origins are per statement ("# L<n>", stamped before this pass), so
nothing the source map needs is lost; comments inside an expression go with the layout.
"""

from __future__ import annotations

import libcst as cst

_SPACE = cst.SimpleWhitespace(" ")


class FlatLayout(cst.CSTTransformer):
    def leave_ParenthesizedWhitespace(
        self, original: cst.ParenthesizedWhitespace, updated: cst.ParenthesizedWhitespace
    ) -> cst.SimpleWhitespace:
        return _SPACE

    def leave_SimpleWhitespace(
        self, original: cst.SimpleWhitespace, updated: cst.SimpleWhitespace
    ) -> cst.SimpleWhitespace:
        return _SPACE if "\\" in updated.value or "\n" in updated.value else updated
