"""Chained comparisons → `and` of single comparisons.

    lo <= x < hi    →    (lo <= x and x < hi)

The middle operand is evaluated twice; the subset check (frontend/subset.py) guarantees it has no calls with
side effects, so that is invisible.
"""

from __future__ import annotations

import libcst as cst


class ChainedCompare(cst.CSTTransformer):
    def leave_Comparison(
        self, original: cst.Comparison, updated: cst.Comparison
    ) -> cst.BaseExpression:
        if len(updated.comparisons) < 2:
            return updated
        left = updated.left
        parts: list[cst.BaseExpression] = []
        for target in updated.comparisons:
            parts.append(cst.Comparison(left=left, comparisons=[target]))
            left = target.comparator
        expr = parts[0]
        for part in parts[1:]:
            expr = cst.BooleanOperation(left=expr, operator=cst.And(), right=part)
        return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
