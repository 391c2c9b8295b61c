"""Loop-carried dependences: which `for … in range` loops may run their iterations in any order, in parallel.

A loop is parallel when no iteration can touch what another writes, and nothing it does depends on order:
  * it does not leave early (`break` of this loop; `continue` is fine), print, draw random numbers, or call
    anything that may write memory it cannot name (library/numpy.py says what each call writes);
  * anything that may raise can be tested before the statement runs (cfg/raising.py): the loop records an error
    code instead, and Python's exception for the first failing iteration is raised after the loop;
  * its index is not rebound; every scalar it assigns is private (assigned before it is read, in every
    iteration, and not read after the loop) or a reduction (`s += e`, `s -= e`, `s *= e`, one operator, read
    nowhere else in the body);
  * every memory root it writes (cfg/aliases.py: views know their base) is touched, in every read and write of
    the loop, through one name indexed with the bare loop index at one fixed axis, or through a private view
    of that slot (`row = out[i]`) — so iterations touch disjoint elements. Memory allocated in the body is
    private to its iteration.
What only run time can know is checked there, right before the loop, and the serial loop runs when it fails:
that two array arguments the loop uses do not overlap (nor a written argument itself, when its layout allows),
and that the index is never negative where the analysis cannot prove it (`a[-1]` is `a[n-1]`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

import libcst as cst

from ..frontend.walk import walk
from ..normalize.names import assigned_names
from ..normalize.origins import origin_of
from .accesses import Access, Collector, index_of
from .aliases import NONE, Aliases, Roots
from .build import all_statements, build, statements
from .dataflow import live_after_loops, unassigned_reads
from .raising import Check, Opaque, statement_checks
from .uses import calls_in, reads_in

_REDUCTIONS = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign)


@dataclasses.dataclass(frozen=True)
class LoopDecision:
    loop: cst.For
    line: int | None
    parallel: bool
    reason: str  # why it is serial; for a parallel loop, what it relies on
    reductions: tuple[str, ...] = ()
    overlap: tuple[tuple[str, str], ...] = ()  # (written array, other array): their memory must not overlap
    self_overlap: tuple[str, ...] = ()  # written arrays whose elements must not overlap each other
    nonnegative: bool = True  # the index is never negative; else checked at run time
    checks: dict[cst.BaseStatement, list[Check]] = dataclasses.field(default_factory=dict)
    last_value: bool = False  # the index is read after the loop: it must end with Python's last value

    def describe(self) -> str:
        where = f"L{self.line}" if self.line else "loop"
        return f"{where}: {'parallel' if self.parallel else 'serial'}" + (f" ({self.reason})" if self.reason else "")


class _Serial(Exception):
    """The loop stays serial; the message says why."""


def _exits(stmts: Sequence[cst.BaseStatement], nested: bool = False) -> Iterator[cst.BaseStatement]:
    """`break` statements that leave the loop whose body is `stmts` (not those of inner loops)."""
    for stmt in stmts:
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Break) and not nested:
            yield stmt
        elif isinstance(stmt, cst.If):
            yield from _exits(statements(stmt.body), nested)
            if isinstance(stmt.orelse, cst.Else):
                yield from _exits(statements(stmt.orelse.body), nested)
        elif isinstance(stmt, cst.For | cst.While):
            yield from _exits(statements(stmt.body), True)


def _item_writes(stmt: cst.BaseStatement) -> Iterator[str]:
    """The names whose items `stmt` assigns: `d[k] = v`, `d[k] += v`, `a[i][j] = v`."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return
    small = stmt.body[0]
    targets: list[cst.BaseExpression] = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
        [small.target] if isinstance(small, cst.AugAssign) else []
    while targets:
        target = targets.pop()
        if isinstance(target, cst.Tuple | cst.List):
            targets.extend(e.value for e in target.elements)
        elif isinstance(target, cst.Subscript):
            base = target.value
            while isinstance(base, cst.Subscript):
                base = base.value
            if isinstance(base, cst.Name):
                yield base.value


def _is_name(node: cst.BaseExpression | None, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _line(line: int | None) -> str:
    return f"L{line}" if line else "the loop"


def _checked_copy(stmt: cst.If, aliases: Aliases) -> bool:
    """lower/checks.py's `if <a hoisted index is outside its axis>: <the loop, checked at every access>`: it
    runs only to raise Python's exception, so it stays serial (parallel, it would only cost compile time)."""
    return any(aliases.calls.effect(call).name == "cuvil.runtime.checks.outside" for call in calls_in(stmt.test))


class _Loop:
    def __init__(self, loop: cst.For, fn: cst.FunctionDef, aliases: Aliases, read_after: frozenset[str]):
        assert isinstance(loop.target, cst.Name) and isinstance(loop.iter, cst.Call)
        self.loop, self.fn, self.aliases = loop, fn, aliases
        self.var = loop.target.value
        self.body = statements(loop.body)
        self.assigned = assigned_names(loop.body)
        self.inside = {id(n) for n in _descendants(loop.body)}
        self.read_after = read_after  # live after the loop

    def decide(self) -> LoopDecision:
        line = origin_of(self.loop)
        try:
            return self._decide(line)
        except _Serial as why:
            return LoopDecision(self.loop, line, False, str(why))

    def _decide(self, line: int | None) -> LoopDecision:
        for stmt in _exits(self.body):
            raise _Serial(f"{_line(origin_of(stmt))} may leave the loop early (break or return)")
        if self.var in self.assigned:
            raise _Serial(f"its index '{self.var}' is assigned in the body")
        collected = Collector(self.aliases).statements(self.body)
        for site in collected.calls:
            if site.effect.ordered:
                raise _Serial(f"{_line(site.line)} calls {site.effect.name}, whose calls must run in order")
        for stmt in all_statements(self.loop.body):
            for base in _item_writes(stmt):
                if not self.aliases.roots(cst.Name(base)):  # a dict or a list: items are inserted, not slots
                    raise _Serial(f"{_line(origin_of(stmt))} writes an item of '{base}', which is not an array "
                                  "(a dict's or a list's writes must run in order)")
        checks: dict[cst.BaseStatement, list[Check]] = {}
        for stmt in all_statements(self.loop.body):
            try:
                found = statement_checks(stmt, self.aliases.calls)
            except Opaque as why:
                raise _Serial(f"{_line(origin_of(stmt))}: {why}") from None
            if found:
                checks[stmt] = found
        reductions, private = self.scalars()
        slots = self.slot_views(private)
        overlap, self_overlap, indexed = self.arrays(collected.accesses, private, slots)
        nonnegative = not indexed or self.index_nonnegative()
        relies = []
        if reductions:
            relies.append("reduction " + ", ".join(reductions))
        written = sorted({a for a, _ in overlap} | set(self_overlap))
        if written:
            others = {a: sorted(b for w, b in overlap if w == a) for a in written}
            relies.append("serial if at run time " + ", ".join(
                f"{a} overlaps " + " or ".join(["itself", *others[a]]) for a in written))
        if not nonnegative:
            relies.append(f"serial if {self.var} < 0")
        if checks:
            relies.append(f"raises after the loop ({sum(len(c) for c in checks.values())} check(s))")
        return LoopDecision(self.loop, line, True, "; ".join(relies), tuple(reductions), overlap, self_overlap,
                            nonnegative, checks, self.var in self.read_after)

    def scalars(self) -> tuple[list[str], set[str]]:
        """(reductions, private names); raises `_Serial` for a name carried from one iteration to the next."""
        carried = {r.name.value for r in unassigned_reads(build(self.body, {self.var}), self.assigned)}
        reductions, private = [], set()
        for name in sorted(self.assigned - {self.var}):
            if self.is_reduction(name):
                if not self.aliases.is_number(name):
                    raise _Serial(f"'{name}' is updated in place and may be an array")
                reductions.append(name)
            elif name in carried:
                raise _Serial(f"'{name}' carries a value from one iteration to the next")
            elif name in self.read_after:
                raise _Serial(f"'{name}' is assigned in the loop and read after it")
            else:
                private.add(name)
        return reductions, private

    def is_reduction(self, name: str) -> bool:
        updates = [n for n in _descendants(self.loop.body)
                   if isinstance(n, cst.AugAssign) and _is_name(n.target, name)]
        if not updates or len({type(u.operator) for u in updates}) != 1:
            return False
        if not isinstance(updates[0].operator, _REDUCTIONS):
            return False
        plain = [n for n in _descendants(self.loop.body)
                 if isinstance(n, cst.AssignTarget) and name in assigned_names(n)]
        uses = [n for n in reads_in(self.loop.body) if n.value == name]
        return not plain and len(uses) == len(updates) and not _updated_twice_in_a_block(self.loop.body, name)

    def slot_views(self, private: set[str]) -> dict[str, tuple[str, int]]:
        """Private names bound once in the body to `base[…, i, …]` (base not assigned in the loop): a view of
        iteration i's own slot of `base`, at the axis where `i` stands."""
        binds: dict[str, list[cst.BaseExpression]] = {}
        for node in _descendants(self.loop.body):
            if isinstance(node, cst.Assign):
                for target in node.targets:
                    for name in assigned_names(target):
                        binds.setdefault(name, []).append(node.value if isinstance(target.target, cst.Name)
                                                          else cst.Name("None"))
        slots = {}
        for name, values in binds.items():
            if name not in private or len(values) != 1 or not isinstance(values[0], cst.Subscript):
                continue
            value = values[0]
            if isinstance(value.value, cst.Name) and value.value.value not in self.assigned:
                axes = _axes_of(index_of(value, self.aliases.calls), self.var)
                if axes:
                    slots[name] = (value.value.value, min(axes))
        return slots

    def in_loop_roots(self, name: str | None, private: set[str], roots: Roots) -> Roots:
        """A private name holds only what the body binds to it."""
        if name is None or name not in private:
            return roots
        values = [n.value for n in _descendants(self.loop.body) if isinstance(n, cst.Assign)
                  and any(name in assigned_names(t) for t in n.targets)]
        return frozenset().union(*(self.aliases.roots(v) for v in values)) if values else NONE

    def arrays(self, accesses: list[Access], private: set[str], slots: dict[str, tuple[str, int]]
               ) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], bool]:
        """Run-time overlap checks the loop needs, and whether it indexes shared memory by the loop index;
        raises `_Serial` for a written root other iterations may touch too."""
        resolved = []
        for access in accesses:
            roots = frozenset(r for r in self.in_loop_roots(access.name, private, access.roots)
                              if not self.aliases.made_in(r, self.inside))  # memory of its own iteration
            if roots:
                resolved.append((access, roots))
        written = frozenset().union(*(roots for a, roots in resolved if a.write))
        slot_names: dict[str, str] = {}  # written root → the name all accesses go through
        for root in sorted(written):
            if root.startswith("global:"):
                raise _Serial(f"it writes the captured constant '{root[7:]}'")
            places: set[tuple[str, int]] | None = None
            for access, roots in resolved:
                if root not in roots:
                    continue
                here = self.slots_of(access, slots)
                places = here if places is None else places & here
                if not places:
                    what = f"'{access.name}'" if access.name else "an array"
                    raise _Serial(f"{_line(access.line)}: {what} may touch memory other iterations write "
                                  f"({_root_words(root)})")
            assert places
            slot_names[root] = sorted(places)[0][0]
        overlap, self_overlap = set(), set()
        for root, name in slot_names.items():
            if not root.startswith("arg:") and not any(r.startswith("arg:") for r in self.aliases.names.get(name, ())):
                continue
            self_overlap.add(name)
            for access, roots in resolved:
                if root in roots or not any(r.startswith("arg:") for r in roots):
                    continue
                other = slots[access.name][0] if access.name in slots else access.name
                if other is None or (other in self.assigned and other not in slots):
                    raise _Serial(f"{_line(access.line)}: cannot check at run time that an array it reads does not "
                                  f"overlap '{name}'")
                overlap.add((name, other))
        return tuple(sorted(overlap)), tuple(sorted(self_overlap)), bool(slot_names)

    def slots_of(self, access: Access, slots: dict[str, tuple[str, int]]) -> set[tuple[str, int]]:
        if access.name in slots:
            return {slots[access.name]}
        if access.name is None or access.index is None or access.name in self.assigned:
            return set()
        return {(access.name, k) for k in _axes_of(access.index, self.var)}

    def index_nonnegative(self) -> bool:
        """The index provably never negative, from the range's literal and length arguments."""
        args = [a.value for a in self.loop.iter.args]  # type: ignore[attr-defined]
        if len(args) == 1:
            return True
        step = _literal(args[2]) if len(args) == 3 else 1
        if step is None:
            return False
        if step > 0:
            return _nonnegative(args[0])
        stop = _literal(args[1])
        return stop is not None and stop >= -1


def _root_words(root: str) -> str:
    kind, _, name = root.partition(":")
    return {"arg": f"argument '{name}'", "global": f"constant '{name}'"}.get(kind, "an array made in the function")


def _literal(node: cst.BaseExpression) -> int | None:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _literal(node.expression)
        return None if inner is None else -inner
    return int(node.value, 0) if isinstance(node, cst.Integer) else None


def _nonnegative(node: cst.BaseExpression) -> bool:
    value = _literal(node)
    if value is not None:
        return value >= 0
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len":
        return True
    return isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) \
        and node.value.attr.value == "shape"


def _axes_of(index: tuple[cst.BaseExpression | None, ...], var: str) -> set[int]:
    return {k for k, part in enumerate(index) if _is_name(part, var)}


def _updated_twice_in_a_block(body: cst.BaseSuite, name: str) -> bool:
    """`s += a[i]; s += 1.0` with no compound statement between: Numba's parallel loop takes one update of a
    reduction per basic block (more is its "Use of reduction variable … not permitted"), so the loop stays
    serial; updates in different branches or separated by a compound statement are fine."""
    for block in (n for n in _descendants(body) if isinstance(n, cst.IndentedBlock)):
        seen = 0
        for stmt in block.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                seen = 0
                continue
            seen += sum(isinstance(small, cst.AugAssign) and _is_name(small.target, name) for small in stmt.body)
            if seen > 1:
                return True
    return False


def _descendants(root: cst.CSTNode) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            found.append(node)
            return True

    walk(root, Find())
    return found


def _rows_else(stmt: cst.If, aliases: Aliases) -> bool:
    """lower/row_loops.py's `if whole_rows(<arrays fit>): <whole arrays> else: <the loop as written>`: the loop
    runs only where the arrays do not fit, so it stays serial (parallel, it would only cost compile time)."""
    test = stmt.test
    return isinstance(test, cst.Call) and aliases.calls.effect(test).name == "cuvil.runtime.parallel.whole_rows"


def _is_range_loop(stmt: cst.CSTNode) -> bool:
    return (isinstance(stmt, cst.For) and isinstance(stmt.target, cst.Name) and isinstance(stmt.iter, cst.Call)
            and isinstance(stmt.iter.func, cst.Name) and stmt.iter.func.value == "range")


def loop_decisions(fn: cst.FunctionDef, aliases: Aliases) -> list[LoopDecision]:
    """A decision for every range loop that is not inside a parallel one, in source order. Numba runs a
    parallel loop nested in another serially, so the outermost parallel loop wins."""
    found: list[LoopDecision] = []
    live = live_after_loops(statements(fn.body))

    def visit(stmts: Sequence[cst.BaseStatement]) -> None:
        for stmt in stmts:
            if isinstance(stmt, cst.For) and _is_range_loop(stmt):
                decision = _Loop(stmt, fn, aliases, live[id(stmt)]).decide()
                found.append(decision)
                if decision.parallel:
                    continue
            if isinstance(stmt, cst.If):
                if not _checked_copy(stmt, aliases):
                    visit(statements(stmt.body))
                if isinstance(stmt.orelse, cst.Else) and not _rows_else(stmt, aliases):
                    visit(statements(stmt.orelse.body))
            elif isinstance(stmt, cst.For | cst.While):
                visit(statements(stmt.body))

    visit(statements(fn.body))
    return found
