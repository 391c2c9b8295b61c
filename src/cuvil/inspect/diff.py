"""`cuvil.diff(fn, a, b)`: how two variants of a function differ, in words and as a unified diff of their plans;
`sweep(fn, make_args, sizes)`: the sizes at which a batch-size change changes the compiled structure.

The words come from comparing the two variants' signatures (dtypes, static or dynamic dims) and, per line of
the user's source, their loops (parallel or not, extents), allocations, run-time checks and lowered statements
(names canonical, as the fingerprint sees them: inspect/structure.py). What the words miss, the plan diff shows.
"""

from __future__ import annotations

import dataclasses
import difflib
import html
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import libcst as cst

from ..frontend.walk import walk
from ..lower.plan import Alloc, Control, ParallelNest, Serial
from ..normalize.origins import origin_of
from .fingerprint import digest
from .structure import _Names, structure
from .variants import VariantPlans, plans_of, variant_for

_code = cst.Module([])


@dataclasses.dataclass(frozen=True)
class Diff:
    function: str
    a: int  # variant numbers, as cuvil.explain counts them
    b: int
    fingerprints: tuple[str, str]
    changes: list[str]  # the structural differences in words, empty when the structures are equal
    unified: str  # a unified diff of the two plans (`fn.source("plan")` of each)

    @property
    def same(self) -> bool:
        return self.fingerprints[0] == self.fingerprints[1]

    def __str__(self) -> str:
        head = f"{self.function}: variant #{self.a} ({self.fingerprints[0]}) → #{self.b} ({self.fingerprints[1]})"
        if self.same:
            return head + ": the same structure"
        return "\n".join([head, *(f"  - {c}" for c in self.changes), "", self.unified]).rstrip() + "\n"

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(str(self))}</pre>"


def diff(fn: Any, a: int | tuple[Any, ...] = -2, b: int | tuple[Any, ...] = -1) -> Diff:
    """Variants `a` and `b` (numbers as cuvil.explain counts them, negative from the newest), or the variants
    calls with the argument tuples `a` and `b` would run — compiled if needed, not run."""
    numbers = [variant_for(fn, x).number if isinstance(x, tuple) else x for x in (a, b)]
    left, right = (plans_of(fn, n) for n in numbers)
    prints = (digest(structure(left)), digest(structure(right)))
    unified = "".join(difflib.unified_diff(left.text.splitlines(keepends=True), right.text.splitlines(keepends=True),
                                           f"variant #{left.number}", f"variant #{right.number}"))
    changes = [] if prints[0] == prints[1] else describe(left, right)
    return Diff(fn.py_func.__qualname__, left.number, right.number, prints, changes, unified)


def describe(left: VariantPlans, right: VariantPlans) -> list[str]:
    """The differences in words: signature first, then by line of the user's source."""
    out = _signature(left, right)
    one, two = _Lines.of(left), _Lines.of(right)
    said: set[int] = set()  # lines some sentence already names
    for line in sorted(set(one.loops) | set(two.loops)):
        words = _loops(line, one.loops.get(line, []), two.loops.get(line, []))
        out += words
        said |= {line} if words else set()
    for line in sorted(set(one.allocs) | set(two.allocs)):
        n, m = one.allocs.get(line, 0), two.allocs.get(line, 0)
        if n != m:
            what = "fused" if m < n else "split"
            out.append(f"region at {_span(one.spans.get(line) or two.spans.get(line), line)} {what}: "
                       f"{n} → {m} allocation(s)")
            said.add(line)
    for line in sorted(set(one.checks) | set(two.checks)):
        n, m = one.checks.get(line, 0), two.checks.get(line, 0)
        if n != m:
            out.append(f"checks as error codes in the parallel loop at L{line}: {n} → {m}")
            said.add(line)
    for line in sorted(set(one.statements) | set(two.statements)):
        if one.statements.get(line) != two.statements.get(line) and line not in said:
            out.append(f"code at L{line} changed")
    if len(left.plans) != len(right.plans):
        out.append(f"functions compiled: {len(left.plans)} → {len(right.plans)}")
    return out or ["the structure differs (see the plan diff)"]


def _signature(left: VariantPlans, right: VariantPlans) -> list[str]:
    out = [f"target {left.target} → {right.target}"] if left.target != right.target else []
    for name, k1, k2, s1, s2 in zip(left.params, left.args, right.args, left.shapes, right.shapes):
        if str(k1) != str(k2):
            out.append(f"{name}: {k1} → {k2}")
        for k, (d1, d2) in enumerate(zip(s1 or (), s2 or ())):
            if d1 != d2:
                out.append(f"dim {name}.shape[{k}] {_dim(d1)} → {_dim(d2)}")
    return out


def _dim(size: int | None) -> str:
    return "dynamic" if size is None else f"static {size}"


def _span(span: tuple[int, int] | None, line: int) -> str:
    if span is None or span[0] == span[1]:
        return f"L{line}"
    return f"L{span[0]}–L{span[1]}"


def _loops(line: int, one: list[tuple[bool, str]], two: list[tuple[bool, str]]) -> list[str]:
    p1, p2 = sum(p for p, _ in one), sum(p for p, _ in two)
    out = []
    if p2 > p1:
        out.append(f"loop L{line} became parallel" + (f" ({p1} → {p2} parallel loops)" if p1 else ""))
    elif p2 < p1:
        out.append(f"loop L{line} became serial" + (f" ({p1} → {p2} parallel loops)" if p2 else ""))
    if len(one) != len(two):
        out.append(f"loops at L{line}: {len(one)} → {len(two)}")
    else:
        for (_, e1), (_, e2) in zip(sorted(one), sorted(two)):
            if e1 != e2:
                out.append(f"loop L{line} over {e1} → {e2}")
    return out


@dataclasses.dataclass
class _Lines:
    """One variant's structure keyed by the user's lines."""

    loops: dict[int, list[tuple[bool, str]]] = dataclasses.field(default_factory=lambda: defaultdict(list))
    allocs: Counter[int] = dataclasses.field(default_factory=Counter)
    checks: Counter[int] = dataclasses.field(default_factory=Counter)
    statements: dict[int, list[str]] = dataclasses.field(default_factory=lambda: defaultdict(list))
    spans: dict[int, tuple[int, int]] = dataclasses.field(default_factory=dict)

    @classmethod
    def of(cls, vp: VariantPlans) -> _Lines:
        found = cls()
        for plan in vp.plans.values():
            names = _Names(plan)
            for region in plan.walk():
                found.add(region, names)
        return found

    def add(self, region: Any, names: _Names) -> None:
        line = region.lines[0] if region.lines else 0
        if isinstance(region, Alloc):
            self.allocs[line] += 1
            self.spans.setdefault(line, region.lines or (line, line))
            self.simple([region.statement], names)
        elif isinstance(region, ParallelNest):
            self.loops[line].append((True, f"range({region.extent})"))
            self.checks[line] += region.checks
            self.spans.setdefault(line, region.lines or (line, line))
            self.simple(_statements(region.loop.body), names)
        elif isinstance(region, Serial):
            self.simple(region.statements, names)
        elif isinstance(region, Control) and isinstance(region.statement, cst.For):
            self.loops[line].append((False, _code.code_for_node(region.statement.iter)))

    def simple(self, stmts: Iterable[cst.CSTNode], names: _Names) -> None:
        for stmt in stmts:
            for node in _statements(stmt):
                if isinstance(node, cst.For):
                    self.loops[origin_of(node) or 0].append((False, _code.code_for_node(node.iter)))
                elif isinstance(node, cst.SimpleStatementLine):
                    self.statements[origin_of(node) or 0].append(names.tokens(node))


def _statements(node: cst.CSTNode) -> list[cst.CSTNode]:
    """Every loop and simple statement under `node` (itself included), in order."""
    found: list[cst.CSTNode] = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, child: cst.CSTNode) -> bool:
            if isinstance(child, cst.For | cst.SimpleStatementLine):
                found.append(child)
            return not isinstance(child, cst.SimpleStatementLine)

    walk(node, Collect())
    return found


@dataclasses.dataclass(frozen=True)
class Sweep:
    function: str
    rows: list[tuple[int, int, str]]  # (size, variant number, fingerprint), in the order swept
    changes: list[tuple[int, list[str]]]  # (size, what changed from the size before) where the structure changed

    def __str__(self) -> str:
        lines = [f"{self.function}: {len(self.rows)} size(s), {len({r[1] for r in self.rows})} variant(s), "
                 f"structure changed at {', '.join(str(s) for s, _ in self.changes) or 'no size'}"]
        for size, words in self.changes:
            lines.append(f"  at {size}: " + "; ".join(words))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(str(self))}</pre>"


def sweep(fn: Any, make_args: Callable[[int], tuple[Any, ...]], sizes: Iterable[int]) -> Sweep:
    """Compile (not run) a fresh copy of `fn` for `make_args(size)` at each size in order, as calls in that
    order would, and list the sizes whose variant's structure differs from the size before. The copy keeps
    `fn`'s own variants and compile history out of it."""
    from ..runtime.dispatcher import Dispatcher

    fresh = Dispatcher(fn.py_func, fn.options)
    rows: list[tuple[int, int, str]] = []
    changes: list[tuple[int, list[str]]] = []
    for size in sizes:
        number = variant_for(fresh, tuple(make_args(size))).number
        vp = plans_of(fresh, number)
        print_ = digest(structure(vp))
        if rows and print_ != rows[-1][2]:
            changes.append((size, describe(plans_of(fresh, rows[-1][1]), vp)))
        rows.append((size, number, print_))
    return Sweep(fn.py_func.__qualname__, rows, changes)
