"""A grid-stride loop whose thread runs UNROLL iterations at once, statement by statement (unroll and jam), so
that each thread has UNROLL loads in flight before its first store:

    for i in range(cuda.grid(1), len(x), cuda.gridsize(1)):     _n0 = len(x)  # L36
        v = x[i]                                                _s0 = cuda.gridsize(1)  # L36
        out[i] = 0.5 * v * …                                    _k0 = cuda.grid(1)  # L36
                                                                if _s0 > 1:  # L36
                                                                    while _k0 + 3 * _s0 < _n0:  # L36
                                                                        i = _k0  # L36
                                                                        _i1 = i + _s0  # L36
                                                                        …
                                                                        v = x[i]  # L37
                                                                        _v1 = x[_i1]  # L37
                                                                        …
                                                                        out[i] = 0.5 * v * …  # L38
                                                                        out[_i1] = 0.5 * _v1 * …  # L38
                                                                        …
                                                                        _k0 = _i3 + _s0  # L36
                                                                for i in range(_k0, _n0, _s0):  # L36
                                                                    (the body as written)

Why: a thread's load waits ~600 ns for memory; with one element per iteration the loads of the next
iteration cannot move above the store of this one (numba.cuda marks no array `restrict`), so a thread has one
4-byte load in flight, and a full H200 (2048 threads per multiprocessor) then holds ~8 KB per multiprocessor
in flight — about a third of what its bandwidth needs (1.7 of 4.8 TB/s measured: bench/gpu_results.md). Four
independent loads per thread are what torch's vectorized elementwise kernels issue.

Sound because the loop is parallel (the dependence analysis proved its iterations independent, and the
launcher's run-time checks hold — else the serial twin runs): any interleaving of iterations is a valid order,
as long as each iteration's own statements stay in order. The serial twin (one thread, `gridsize == 1`: the
arrays overlap) runs the loop as written. Only a body of plain assignments is jammed: a `raise` leaves the
thread, and an `if` would make the copies' loads conditional.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from ..normalize.names import Fresh, Rename, assigned_names
from ..normalize.origins import origin_of, with_origin

UNROLL = 4


def jammable(body: Sequence[object]) -> bool:
    """Plain assignments only: no control flow, no call statement, no raise or return (nor what a recorded
    raise became)."""
    return bool(body) and all(isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
                              and isinstance(s.body[0], cst.Assign | cst.AugAssign) for s in body)


def jam(loop: cst.For, count: cst.BaseExpression, keep: frozenset[str], fresh: Fresh, start: str = "cuda.grid(1)",
        stride: str = "cuda.gridsize(1)") -> list[cst.BaseStatement]:
    """The statements that replace the strided loop `for k in range(start, count, stride)` (`loop`, its body
    jammable; a grid-stride loop by default, a block's threads along a row in codegen/cuda_rows.py): UNROLL
    iterations a trip, then the rest as written. `keep`: names every copy shares (reduction variables, whose
    updates stay in the order of the iterations); every other name the body binds is a copy's own."""
    assert isinstance(loop.target, cst.Name) and isinstance(loop.body, cst.IndentedBlock)
    k = loop.target.value
    line = origin_of(loop)
    body = list(loop.body.body)
    n, s, k0 = fresh("_n"), fresh("_s"), fresh("_k")
    private = sorted(assigned_names(loop.body) - keep - {k})
    copies: list[list[cst.BaseStatement]] = []
    indices = [k]
    for u in range(UNROLL):
        if u == 0:
            copies.append(body)
            continue
        names = {p: fresh(f"_{p.strip('_')}") for p in [k, *private]}
        indices.append(names[k])
        copies.append([s_.visit(Rename(names)) for s_ in body])  # type: ignore[misc]
    trip: list[cst.BaseStatement] = [_stmt(f"{k} = {k0}", line)]
    trip += [_stmt(f"{indices[u]} = {indices[u - 1]} + {s}", line) for u in range(1, UNROLL)]
    for statements in zip(*copies):  # statement by statement: every copy's loads before the first store
        trip += list(statements)
    trip.append(_stmt(f"{k0} = {indices[-1]} + {s}", line))
    head = [with_origin(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(n))], count)]), line),
            _stmt(f"{s} = {stride}", line), _stmt(f"{k0} = {start}", line)]
    main = cst.parse_statement(f"if {s} > 1:\n    while {k0} + {UNROLL - 1} * {s} < {n}:\n        pass\n")
    assert isinstance(main, cst.If)
    inner = main.body.body[0]
    assert isinstance(inner, cst.While)
    inner = with_origin(inner.with_changes(body=inner.body.with_changes(body=trip)), line)
    main = with_origin(main.with_changes(body=main.body.with_changes(body=[inner])), line)
    rest = loop.with_changes(iter=cst.parse_expression(f"range({k0}, {n}, {s})"))
    return [*head, main, rest]


def _stmt(text: str, line: int | None) -> cst.BaseStatement:
    return with_origin(cst.parse_statement(text), line)
