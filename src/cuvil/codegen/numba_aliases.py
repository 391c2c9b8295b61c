"""Teach Numba's dead-code elimination which values may hold the arrays they were made from.

Numba removes a store `r[k] = v` when it believes nothing live can see `r` (`ir_utils.remove_dead`). Its alias
analysis (`find_potential_aliases`) knows that `M[i]`, `M.T` and `M.reshape(...)` view `M`, but not that the
result of a call may be one of its arguments (`r = row_of(M, i)`, `np.asarray(M)`, a callee returning a tuple
that holds `M`), nor that a tuple built from `M` holds it. The elimination runs whenever an `inline="always"`
overload was inlined (our checked index is one: `r[index(0, ...)] = v`) and throughout `parallel=True`, so such
stores vanished: a wrong answer in the user's array with no error (issue 36, class 1).

The rule added here is conservative: a mutable value produced by a call, a tuple or list display, tuple
unpacking or an attribute may alias every mutable value it was made from. It only keeps statements alive that
Numba would have dropped; it never removes one. It is registered in Numba's own extension table
(`alias_analysis_extensions`, keyed by statement type, the hook Numba's parfors use for their own node), once per
process, for the CPU compiler and, when CUDA is compiled, for numba-cuda's copy of the IR.
"""

from __future__ import annotations

import types as pytypes
from typing import Any

_MADE_FROM_OPERAND = frozenset({"exhaust_iter", "pair_first", "pair_second", "getiter", "iternext",
                                "typed_getitem", "getattr"})
_DISPLAYS = frozenset({"build_tuple", "build_list", "build_set"})


def _sources(expr: Any, func_ir: Any, ir: pytypes.ModuleType) -> list[Any]:
    """The variables whose arrays `expr`'s value may hold."""
    if expr.op == "call":
        found = list(expr.args) + [v for _, v in expr.kws]
        if expr.vararg is not None:
            found.append(expr.vararg)
        try:
            callee = func_ir.get_definition(expr.func)
        except Exception:  # Numba's own lookup raises for names it cannot follow; then there is no receiver
            callee = None
        if isinstance(callee, ir.Expr) and callee.op == "getattr":
            found.append(callee.value)  # a method: `x.view()`, `x.swapaxes(0, 1)`
        return found
    if expr.op in _DISPLAYS:
        return list(expr.items)
    if expr.op in _MADE_FROM_OPERAND:
        return [expr.value]
    if expr.op == "binop":  # `t + (M,)`: a tuple that holds M
        return [expr.lhs, expr.rhs]
    return []


def _rule(ir: pytypes.ModuleType, ir_utils: pytypes.ModuleType, types: pytypes.ModuleType):
    def aliases_of_assign(instr, args, typemap, func_ir, alias_map, arg_aliases) -> None:
        expr = instr.value
        lhs = instr.target.name
        if not isinstance(expr, ir.Expr) or ir_utils.is_immutable_type(lhs, typemap):
            return
        if expr.op == "binop" and not _is_container(typemap.get(lhs) if typemap else None, types):
            return  # arithmetic makes a new array
        for source in _sources(expr, func_ir, ir):
            if isinstance(source, ir.Var) and source.name != lhs and \
                    not ir_utils.is_immutable_type(source.name, typemap):
                ir_utils._add_alias(lhs, source.name, alias_map, arg_aliases)

    return aliases_of_assign


def _is_container(typ: Any, types: pytypes.ModuleType) -> bool:
    return typ is None or isinstance(typ, (types.BaseTuple, types.List))


def _install(ir: pytypes.ModuleType, ir_utils: pytypes.ModuleType, types: pytypes.ModuleType) -> None:
    table = ir_utils.alias_analysis_extensions
    if ir.Assign not in table:
        table[ir.Assign] = _rule(ir, ir_utils, types)


def install_cpu() -> None:
    from numba.core import ir, ir_utils, types

    _install(ir, ir_utils, types)


def install_cuda() -> None:
    """numba-cuda keeps its own IR classes and its own table; without it, the CPU rule alone does nothing there."""
    try:
        from numba.cuda import types
        from numba.cuda.core import ir, ir_utils
    except ImportError:  # an older numba-cuda compiles through numba.core, which install_cpu covers
        return
    _install(ir, ir_utils, types)
