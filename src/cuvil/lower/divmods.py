"""`np.divmod(a, b)` as `(np.floor_divide(a, b), np.remainder(a, b))`, which is what NumPy computes (one
`npy_divmod` for both), so the pair goes through the lowering and the NumPy-meaning helpers of each half.

Numba's own np.divmod differs: its integer quotient of INT_MIN by -1 is 0 (NumPy: INT_MIN, wrapped), and for
int8 and int64 scalars it executes the x86 division that traps, killing the interpreter (SIGFPE). Operands are
evaluated twice, so only operands without calls are rewritten; any other divmod is refused at its line (CuvilTypeError).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..cfg.effects import Calls
from ..cfg.uses import calls_in
from ..normalize.origins import origin_of
from .precision import Located


class Divmods(cst.CSTTransformer):
    def __init__(self, calls: Calls, numpy: Callable[[], str], filename: str | None):
        super().__init__()
        self.calls, self.numpy = calls, numpy
        self.where = Located(filename)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.where.line = origin_of(node)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.calls.effect(original).name != "numpy.divmod":
            return updated
        if len(updated.args) != 2 or any(a.keyword is not None or a.star for a in updated.args) \
                or any(calls_in(a.value) for a in original.args):
            raise self.where.error("np.divmod with an `out`, keywords or an operand that calls a function: write "
                                   "its operands into names first (Cuvil evaluates them once per half)")
        halves = [cst.Call(cst.Attribute(cst.Name(self.numpy()), cst.Name(name)), list(updated.args))
                  for name in ("floor_divide", "remainder")]
        return cst.Tuple([cst.Element(h) for h in halves], lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
