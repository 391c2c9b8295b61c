"""`elif` chains → nested `if`/`else`, so every `if` has at most two successors.

    if a:            if a:
        x = 1            x = 1
    elif b:    →     else:
        x = 2            if b:
                             x = 2
"""

from __future__ import annotations

import libcst as cst


class ElifChain(cst.CSTTransformer):
    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        if isinstance(updated.orelse, cst.If):
            nested = cst.IndentedBlock(body=[updated.orelse])
            return updated.with_changes(orelse=cst.Else(body=nested))
        return updated
