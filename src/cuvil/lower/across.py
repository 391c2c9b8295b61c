"""A reduction along an axis that is not the last, in the order memory is laid out (CPU).

Reducing `x.mean(axis=0)` of a C-ordered 4000 × 1000 array one column at a time walks memory with a stride of a
row: 8.6 ms where NumPy takes 0.4. Here the accumulators are an array (the lanes: one per element of the kept
axes after the reduced one), the reduced axis runs outside them and the lanes inside, so each step reads one
contiguous row and updates a row of accumulators. A float32 sum or mean adds in float32, in row order, as NumPy
does along a leading axis: NumPy's bits (lower/reductions._in_rows). Every lane loop starts at 0, which lets
LLVM drop Numba's negative-index wrap-around and vectorize it (blocks of lanes, `range(lo, hi)`, stayed scalar:
6 ms).

With no axis kept before the reduced one, the rows are cut into `chunks` stretches, each with lanes of its own
(the nest's loop, over chunks: parallel under `parallel=True`), and the chunks' lanes are combined in order after
it. A var or std (whose second pass needs the whole mean) and an argmax or argmin (a value and its index) stay one
chunk, as serial code always does: each lane then takes its elements in row order. Measured on 2 cores
(4000 × 1000 float32 sum, Numba by hand): serial 0.65 ms, 2 or 16 contiguous chunks 0.19 ms; rows dealt
round-robin (`range(c, n, chunks)`, no index arithmetic) 0.96 ms; a parallel loop over the lanes inside the
serial loop over rows, one parallel region per row, 14.6 ms.

    m = x.mean(axis=0)   →   _nc0 = 1        # parallel: max(min(_d0, 16), 1) chunks of -(-_d0 // _nc0) rows
                             _acc0 = np.empty((_nc0, _d1), np.float32)
                             m = np.empty((_d1,), np.float32)
                             for _c0 in range(_nc0):
                                 for _i1 in range(_d1):
                                     _acc0[_c0, _i1] = np.float32(-0.0)
                                 for _i0 in range(_d0):       # parallel: _lo0, _hi0 = chunk_bounds(_c0, _nc0, _d0)
                                                              #   before, and range(_lo0, _hi0)
                                     for _i1 in range(_d1):
                                         _acc0[_c0, _i1] = add_any_order(_acc0[_c0, _i1], x[_i0, _i1])
                             for _i1 in range(_d1):
                                 for _k0 in range(1, _nc0):   # only with more than one chunk
                                     _acc0[0, _i1] = _acc0[0, _i1] + _acc0[_k0, _i1]
                                 m[_i1] = true_divide(_acc0[0, _i1], np.float32(_d0))

With axes kept before the reduced one (`x.sum(axis=1)` of a 3-D array), the first of those is the nest's loop
instead (fused with its neighbours, parallel under `parallel=True`), with lanes of its own per index. A two-pass
reduction (lower/reductions.Variance) runs the rows twice, its `between` step on the lanes in the middle.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from .nest import Alloc, Nest, Stmts, assign, loop, subscript
from .reductions import Fresh, Pieces, kept_extreme


def across(pieces: Pieces, variables: list[str], extents: list[str], keys: list[str | None], axis: int,
           pre: Stmts, out: Alloc, store: cst.BaseStatement, numpy: str, fresh: Fresh, chunks: int,
           origin: int | None, intrinsic: Callable[[str, str], str]) -> Nest:
    """The nest of a reduction along `axis` (< the last) whose result is stored by `store` into `out`."""
    # two partial results of a two-pass reduction, or of an argmax, do not simply combine
    chunks = 1 if pieces.again or any(not op for _, op in pieces.state.values()) else chunks
    lead = [k for k in range(len(variables)) if k < axis]
    trail = [k for k in range(len(variables)) if k > axis]
    if lead:
        outer, count = variables[lead[0]], extents[lead[0]]
    else:
        outer, count = fresh("_c"), fresh("_nc")
        at_least_one = cst.Call(cst.Name("max"), [cst.Arg(cst.Call(cst.Name("min"), [
            cst.Arg(cst.Name(extents[axis])), cst.Arg(cst.Integer(str(chunks)))])), cst.Arg(cst.Integer("1"))])
        pre = [*pre, assign(cst.Name(count), cst.Integer("1") if chunks == 1 else at_least_one, origin)]
    shape = cst.Tuple([cst.Element(cst.Name(e)) for e in [count, *(extents[k] for k in trail)]])
    allocations = [assign(cst.Name(name), cst.Call(cst.Attribute(cst.Name(numpy), cst.Name("empty")), [
        cst.Arg(shape), cst.Arg(cst.Attribute(cst.Name(numpy), cst.Name("bool_" if dtype == "bool" else dtype)))]),
        origin) for name, (dtype, _) in pieces.state.items()]
    own = _Lanes(set(pieces.state), [cst.Name(outer), *(cst.Name(variables[k]) for k in trail)])

    def over_lanes(body: Stmts) -> Stmts:
        if not body:
            return []
        for k in reversed(trail):
            body = [loop(variables[k], cst.Name(extents[k]), body, origin)]
        return body

    init = over_lanes(own.each(pieces.init))
    update = over_lanes(own.each(pieces.update))
    between = over_lanes(own.each(pieces.between))
    again = over_lanes(own.each(pieces.again))
    pre = [*pre, *pieces.check, *allocations, out.statement]
    if lead:
        body: Stmts = [*init, loop(variables[axis], cst.Name(extents[axis]), update, origin)]
        if again:
            body += [*between, loop(variables[axis], cst.Name(extents[axis]), again, origin)]
        body += over_lanes(own.each([*pieces.finish, store]))
        for k in reversed(lead[1:]):
            body = [loop(variables[k], cst.Name(extents[k]), body, origin)]
        return Nest(origin, pre, [out], outer, cst.Name(count), keys[lead[0]], body, [], {out.name, *extents},
                    result=out.name)
    other = fresh("_k")
    row: Stmts = list(init)
    rows: cst.BaseExpression = cst.Call(cst.Name("range"), [cst.Arg(cst.Name(extents[axis]))])
    if chunks > 1:  # chunk c: rows c * step up to the next chunk's (runtime/parallel.chunk_bounds)
        lo, hi = fresh("_lo"), fresh("_hi")
        bounds = cst.Call(cst.Name(intrinsic("cuvil.runtime.parallel", "chunk_bounds")), [
            cst.Arg(cst.Name(outer)), cst.Arg(cst.Name(count)), cst.Arg(cst.Name(extents[axis]))])
        row = [assign(cst.Tuple([cst.Element(cst.Name(lo)), cst.Element(cst.Name(hi))]), bounds, origin), *row]
        rows = cst.Call(cst.Name("range"), [cst.Arg(cst.Name(lo)), cst.Arg(cst.Name(hi))])
    row.append(loop(variables[axis], cst.Integer("0"), update, origin).with_changes(iter=rows))
    if again:
        row += [*between, loop(variables[axis], cst.Integer("0"), again, origin).with_changes(iter=rows)]
    first = _Lanes(set(pieces.state), [cst.Integer("0"), *(cst.Name(variables[k]) for k in trail)])
    others = _Lanes(set(pieces.state), [cst.Name(other), *(cst.Name(variables[k]) for k in trail)])
    folds: Stmts = [assign(first.one(name), _combined(op, first.one(name), others.one(name)), origin)
             for name, (_, op) in pieces.state.items()]
    combine = [loop(other, cst.Integer("0"), folds, origin).with_changes(
        iter=cst.Call(cst.Name("range"), [cst.Arg(cst.Integer("1")), cst.Arg(cst.Name(count))]))] if chunks > 1 else []
    post = over_lanes([*combine, *first.each([*pieces.finish, store])])
    return Nest(origin, pre, [out], outer, cst.Name(count), None, row, post,
                {out.name, count, *extents, *pieces.state}, result=out.name)


def _combined(op: str, a: cst.BaseExpression, b: cst.BaseExpression) -> cst.BaseExpression:
    if op in ("max", "min"):  # a NaN in a chunk's lane wins
        return kept_extreme(a, b, op == "max")
    return cst.BinaryOperation(a, cst.Add() if op == "+" else cst.Multiply(), b)


class _Lanes(cst.CSTTransformer):
    """Each accumulator name → its lane, `acc[c, i1]`."""

    def __init__(self, names: set[str], index: list[cst.BaseExpression]):
        super().__init__()
        self.names, self.index = names, index

    def one(self, name: str) -> cst.Subscript:
        return subscript(cst.Name(name), list(self.index))

    def each(self, stmts: Stmts) -> Stmts:
        return [s.visit(self) for s in stmts]  # type: ignore[misc]

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return subscript(updated, list(self.index)) if updated.value in self.names else updated
