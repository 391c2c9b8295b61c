"""Symbolic shapes, flow- and path-sensitively: what each name's shape is at each statement, over the CFG.

Each dim is an int, a symbol (`s0`, `s1`, … for dims the variant leaves dynamic) or unknown; shapes propagate
through indexing, slicing, allocation, broadcasting, `reshape`, matmul and reductions (analysis/shape_eval.py),
and ints that hold dims through assignment and `+= -= *= //= %=`. Where paths join, a name keeps what all of
them agree on (`n = 3` on one branch and `n = 4` on the other: `n` is some int).

Two uses:
- refuse, at compile time and at the user's line, what is *certain* to fail: broadcasting 3 against 4, a matmul
  whose inner dims differ, a reshape that changes the size, an array indexed with more indices than it has
  dims. Certain means the statement runs on every path through the function (cfg/dominators.py) and no
  `assert` runs before it; a contradiction on a path the program may not take (`if len(a) != len(b): return …`
  or `assert len(a) == len(b)` before `a + b`) is left to run time, where Numba raises for broadcasting,
  matmul and reshape by itself;
- find the in-place updates `t op= v` that need `inplace_value` at run time (runtime/inplace.py): all that may
  involve two arrays, except where the shapes are known to fit and `v` is fresh memory.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import libcst as cst

from ..cfg.build import CFG, build_function
from ..cfg.dominators import certain_blocks
from ..normalize.names import assigned_names, bound_names
from ..normalize.origins import origin_of
from .shape_eval import State, join
from .shape_rules import Contradiction, Dim, Shape, Sym
from .shape_transfer import Transfer

_MAX_ROUNDS = 100  # each round can only lose facts, and there are few: this is never reached in practice


@dataclasses.dataclass(frozen=True)
class ShapeError:
    line: int | None
    message: str
    argument: str | None = None
    index: bool = False  # too many indices (an IndexError), not shapes that disagree (a ValueError)
    axis: bool = False  # an axis the array does not have (NumPy's AxisError)


@dataclasses.dataclass(frozen=True)
class Checked:
    error: ShapeError | None  # the first certain contradiction
    inplace: list[cst.SimpleStatementLine]  # `t op= v` that need `inplace_value` at run time


def _apply(state: State, stmt: cst.BaseStatement) -> tuple[bool, Contradiction | None]:
    """Move `state` past `stmt`: (whether it is an in-place update to check at run time, its contradiction)."""
    try:
        return Transfer(state).statement(stmt), None
    except Contradiction as exc:
        # If the statement runs, it raises: what it would bind is unknown from here.
        for name in _binds(stmt):
            state.forget(name)
        return _is_update(stmt), exc


def _solve(cfg: CFG, start: State) -> list[State | None]:
    """The state on entry to each block (None: unreachable), iterated to a fixpoint over loops. A block's
    state only ever loses facts (it is joined with what it was), so the iteration ends."""
    entry: list[State | None] = [start] + [None] * (len(cfg.blocks) - 1)
    exits: list[State | None] = [None] * len(cfg.blocks)
    for _ in range(_MAX_ROUNDS):
        changed = False
        for block in cfg.blocks:
            if block.id:
                incoming = None
                for pred in block.preds:
                    incoming = join(incoming, exits[pred])
                old = entry[block.id]
                new = incoming if old is None else join(old, incoming) if incoming is not None else old
                if new != old:
                    entry[block.id], changed = new, True
            exits[block.id] = _run(block.stmts, entry[block.id])
        if not changed:
            return entry
    return [State({}, {}, set()) if s is not None else None for s in entry]  # know nothing: still sound


def _run(stmts: Sequence[cst.BaseStatement], state: State | None) -> State | None:
    if state is None:
        return None
    state = state.copy()
    for stmt in stmts:
        _apply(state, stmt)
    return state


def _is_update(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.AugAssign)


def _binds(stmt: cst.BaseStatement) -> set[str]:
    """Names `stmt` itself binds (a loop header: its target, not its body's names)."""
    if isinstance(stmt, cst.For):
        return bound_names(stmt.target)
    return assigned_names(stmt) if isinstance(stmt, cst.SimpleStatementLine) else set()


def check(fn: cst.FunctionDef, params: Mapping[str, Shape], certain: bool = True) -> Checked:
    """Shape contradictions in `fn` for argument shapes `params` (absent: unknown), and the in-place updates
    that need run-time care. With `certain=False` (a callee, which the entry may not call) nothing is certain:
    no error, only run-time checks."""
    cfg = build_function(fn)
    start = State(dict(params), {}, set(params))
    entry = _solve(cfg, start)
    sure = certain_blocks(cfg) if certain else frozenset()
    inplace: list[cst.SimpleStatementLine] = []
    asserted = False  # an `assert` passed on every path: what follows runs only if it holds, a guard too
    for block in cfg.blocks:  # in source order: certain blocks in the order they run
        state = entry[block.id]
        if state is None:
            continue  # never runs
        state = state.copy()
        for stmt in block.stmts:
            check_at_run_time, contradiction = _apply(state, stmt)
            if contradiction is not None and block.id in sure and not asserted:
                error = ShapeError(origin_of(stmt), str(contradiction), contradiction.argument, contradiction.index,
                                   contradiction.axis)
                return Checked(error, [])
            if check_at_run_time:
                assert isinstance(stmt, cst.SimpleStatementLine)
                inplace.append(stmt)
            asserted |= block.id in sure and isinstance(stmt, cst.SimpleStatementLine) \
                and isinstance(stmt.body[0], cst.Assert)
    return Checked(None, inplace)


def infer(fn: cst.FunctionDef, params: Mapping[str, Shape]) -> dict[int, State]:
    """The side table: for each statement reached (by `id`), what is known of shapes just before it;
    `Evaluator(table[id(stmt)]).expr(node)` is then the shape of any expression of that statement."""
    cfg = build_function(fn)
    entry = _solve(cfg, State(dict(params), {}, set(params)))
    table: dict[int, State] = {}
    for block in cfg.blocks:
        state = entry[block.id]
        if state is None:
            continue
        state = state.copy()
        for stmt in block.stmts:
            table[id(stmt)] = state.copy()
            _apply(state, stmt)
    return table


def signature_shapes(params: Sequence[str], shapes: Sequence[Sequence[int | None] | None]) -> dict[str, Shape]:
    """Parameter shapes for `check`: per array its sizes, None for a dim left dynamic (named `s0`, `s1`, …
    in order); None for an argument that is not an array."""
    out: dict[str, Shape] = {}
    count = 0
    for name, shape in zip(params, shapes):
        if shape is None:
            continue
        dims: list[Dim] = []
        for size in shape:
            if size is None:
                dims.append(Sym(f"s{count}"))
                count += 1
            else:
                dims.append(size)
        out[name] = tuple(dims)
    return out
