"""The Plan: a function as regions, target-neutral, built after the last rewrite (DESIGN §1 lower/plan.py).

    Alloc         an array the function makes: name, shape, dtype
    ParallelNest  a loop whose iterations are independent: its axis and extent, reductions (variable,
                  operator, dtype), privates, the arrays it reads and writes, the checks it turns into error
                  codes, the run-time conditions under which its serial twin runs instead
    Serial        statements that run in order
    Control       an `if`, or a loop that stays serial, around regions that are not all serial

Each region has a stable id (r0, r1, … in source order) and the user's lines it comes from. Targets print a
Plan (codegen/cpu.py: Numba source with `prange`; the CUDA target: kernels and a launcher); `fn.source("plan")`
is `Plan.text()`. The statements a region holds are the typed, lowered statements of the function (libcst
nodes), so every target prints the same code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import UNKNOWN
from ..cfg.accesses import Collector
from ..cfg.aliases import Aliases
from ..cfg.build import statements
from ..cfg.dependence import LoopDecision
from ..frontend.walk import walk
from ..library import numpy as library
from ..normalize.names import assigned_names
from ..normalize.origins import origin_of

_AUGMENTED = {cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*"}
_ALLOCATORS = frozenset(f"numpy.{n}" for n in library.named("allocate") | {"empty_like", "zeros_like", "ones_like",
                                                                            "full_like"})


@dataclasses.dataclass(frozen=True)
class Alloc:
    id: str
    lines: tuple[int, int] | None
    name: str
    shape: str  # the shape expression, as written in the generated code
    dtype: str
    statement: cst.BaseStatement


@dataclasses.dataclass(frozen=True)
class ParallelNest:
    id: str
    lines: tuple[int, int] | None
    axis: str  # the loop variable
    extent: str
    reductions: tuple[tuple[str, str, str], ...]  # (variable, operator, dtype)
    privates: tuple[str, ...]
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    checks: int  # statements that may raise, tested first (error codes)
    serial_if: tuple[str, ...]  # run-time conditions under which the serial loop runs instead
    loop: cst.For
    decision: LoopDecision


@dataclasses.dataclass(frozen=True)
class Serial:
    id: str
    lines: tuple[int, int] | None
    statements: tuple[cst.BaseStatement, ...]


@dataclasses.dataclass(frozen=True)
class Control:
    id: str
    lines: tuple[int, int] | None
    statement: cst.If | cst.For | cst.While  # its header; the bodies are the regions below
    body: tuple[Region, ...]
    orelse: tuple[Region, ...]


Region = Alloc | ParallelNest | Serial | Control


@dataclasses.dataclass(frozen=True)
class Plan:
    name: str
    function: cst.FunctionDef  # the header; the body is `regions`
    regions: tuple[Region, ...]

    def text(self) -> str:
        """The Plan in words, one region per line, nested regions indented."""
        params = ", ".join(p.name.value for p in self.function.params.params)
        return "\n".join([f"plan {self.name}({params})", *_describe(self.regions, "  ")]) + "\n"

    def walk(self) -> Iterator[Region]:
        yield from _walk(self.regions)


def _walk(regions: Sequence[Region]) -> Iterator[Region]:
    for region in regions:
        yield region
        if isinstance(region, Control):
            yield from _walk(region.body)
            yield from _walk(region.orelse)


def _where(lines: tuple[int, int] | None) -> str:
    if lines is None:
        return ""
    return f"  # L{lines[0]}" if lines[0] == lines[1] else f"  # L{lines[0]}-L{lines[1]}"


def _describe(regions: Sequence[Region], indent: str) -> list[str]:
    code = cst.Module([])
    out: list[str] = []
    for r in regions:
        if isinstance(r, Alloc):
            out.append(f"{indent}{r.id} Alloc {r.name}: {r.dtype}{r.shape}{_where(r.lines)}")
        elif isinstance(r, ParallelNest):
            parts = [f"{r.axis} in range({r.extent})"]
            if r.reductions:
                parts.append("reduce " + ", ".join(f"{v} {op} {dt}" for v, op, dt in r.reductions))
            if r.privates:
                parts.append("private " + ", ".join(r.privates))
            parts.append("reads " + (", ".join(r.reads) or "-"))
            parts.append("writes " + (", ".join(r.writes) or "-"))
            if r.checks:
                parts.append(f"{r.checks} check(s) as error codes")
            if r.serial_if:
                parts.append("serial if " + " or ".join(r.serial_if))
            out.append(f"{indent}{r.id} ParallelNest {'; '.join(parts)}{_where(r.lines)}")
        elif isinstance(r, Serial):
            out.append(f"{indent}{r.id} Serial ({len(r.statements)} statement(s)){_where(r.lines)}")
        else:
            header = code.code_for_node(r.statement).splitlines()[0].split("#")[0].rstrip()
            out.append(f"{indent}{r.id} Control {header}{_where(r.lines)}")
            out += _describe(r.body, indent + "    ")
            if r.orelse:
                out.append(f"{indent}  else:")
                out += _describe(r.orelse, indent + "    ")
    return out


class _Builder:
    def __init__(self, decisions: dict[cst.For, LoopDecision], types: Types | None, aliases: Aliases):
        self.decisions, self.types, self.aliases = decisions, types, aliases
        self.count = 0

    def next_id(self) -> str:
        self.count += 1
        return f"r{self.count - 1}"

    def block(self, stmts: Sequence[cst.BaseStatement]) -> tuple[Region, ...]:
        regions: list[Region] = []
        serial: list[cst.BaseStatement] = []

        def flush() -> None:
            if serial:
                regions.append(Serial(self.next_id(), _lines(serial), tuple(serial)))
                serial.clear()

        for stmt in stmts:
            alloc = self.alloc(stmt)
            decision = self.decisions.get(stmt) if isinstance(stmt, cst.For) else None
            if alloc is not None:
                flush()
                regions.append(dataclasses.replace(alloc, id=self.next_id()))
            elif decision is not None and decision.parallel:
                flush()
                regions.append(self.nest(stmt, decision))  # type: ignore[arg-type]
            elif isinstance(stmt, cst.If | cst.For | cst.While) and self.holds_parallel(stmt) or \
                    isinstance(stmt, cst.If) and self.holds_alloc(stmt):  # its arrays advised as the function's
                flush()
                region_id = self.next_id()
                body = self.block(statements(stmt.body))
                orelse: tuple[Region, ...] = ()
                if isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else):
                    orelse = self.block(statements(stmt.orelse.body))
                regions.append(Control(region_id, _lines([stmt]), stmt, body, orelse))
            else:
                serial.append(stmt)
        flush()
        return tuple(regions)

    def holds_parallel(self, stmt: cst.CSTNode) -> bool:
        found = False

        class Find(cst.CSTVisitor):
            def visit_For(inner, node: cst.For) -> None:  # noqa: N805
                nonlocal found
                decision = self.decisions.get(node)
                found = found or (decision is not None and decision.parallel)

        walk(stmt, Find())
        return found

    def holds_alloc(self, stmt: cst.If) -> bool:
        """An allocation in a branch, not in a loop (lower/row_loops.py's whole-array branch)."""
        inside = [*statements(stmt.body), *(statements(stmt.orelse.body) if isinstance(stmt.orelse, cst.Else) else [])]
        return any(self.alloc(s) is not None or (isinstance(s, cst.If) and self.holds_alloc(s)) for s in inside)

    def alloc(self, stmt: cst.BaseStatement) -> Alloc | None:
        if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign)):
            return None
        small = stmt.body[0]
        if len(small.targets) != 1 or not isinstance(small.targets[0].target, cst.Name) \
                or not isinstance(small.value, cst.Call) or self.types is None:
            return None
        if self.types.calls.effect(small.value).name not in _ALLOCATORS:
            return None
        kind = self.types.of(small.value)
        dtype = getattr(kind, "dtype", None) if kind is not UNKNOWN else None
        shape = cst.Module([]).code_for_node(small.value.args[0].value) if small.value.args else "?"
        return Alloc("", _lines([stmt]), small.targets[0].target.value, shape if shape.startswith("(") else
                     f"({shape},)", dtype or "?", stmt)

    def nest(self, loop: cst.For, decision: LoopDecision) -> ParallelNest:
        assert isinstance(loop.target, cst.Name) and isinstance(loop.iter, cst.Call)
        code = cst.Module([])
        extent = ", ".join(code.code_for_node(a.value) for a in loop.iter.args)
        reductions = tuple((name, _operator(loop, name), self.dtype(name)) for name in decision.reductions)
        privates = tuple(sorted(assigned_names(loop.body) - set(decision.reductions)))
        reads: set[str] = set()
        writes: set[str] = set()
        for access in Collector(self.aliases).statements(statements(loop.body)).accesses:
            if access.name is not None:
                (writes if access.write else reads).add(access.name)
        serial_if = tuple([f"{a} overlaps {b}" for a, b in decision.overlap]
                          + [f"{a} overlaps itself" for a in decision.self_overlap]
                          + ([f"{loop.target.value} < 0"] if not decision.nonnegative else []))
        return ParallelNest(self.next_id(), _lines([loop]), loop.target.value, extent, reductions, privates,
                            tuple(sorted(reads - writes)), tuple(sorted(writes)),
                            sum(len(c) for c in decision.checks.values()), serial_if, loop, decision)

    def dtype(self, name: str) -> str:
        kind = self.types.name(name) if self.types is not None else UNKNOWN
        return str(getattr(kind, "dtype", "?"))


def _operator(loop: cst.For, name: str) -> str:
    found = "?"

    class Find(cst.CSTVisitor):
        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            nonlocal found
            if isinstance(node.target, cst.Name) and node.target.value == name:
                found = _AUGMENTED.get(type(node.operator), "?")

        def visit_Assign(self, node: cst.Assign) -> None:
            nonlocal found
            if isinstance(node.value, cst.Call) and isinstance(node.value.func, cst.Name) \
                    and node.value.func.value in ("max", "min"):
                found = node.value.func.value

    walk(loop.body, Find())
    return found


def _lines(stmts: Sequence[cst.CSTNode]) -> tuple[int, int] | None:
    found = [line for s in stmts for line in _all_lines(s)]
    return (min(found), max(found)) if found else None


def _all_lines(node: cst.CSTNode) -> list[int]:
    out: list[int] = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, child: cst.CSTNode) -> bool:
            if isinstance(child, cst.SimpleStatementLine | cst.If | cst.For | cst.While):
                line = origin_of(child)
                if line is not None:
                    out.append(line)
            return True

    walk(node, Collect())
    return out


def build_plan(name: str, fn: cst.FunctionDef, decisions: Sequence[LoopDecision], types: Types | None,
               aliases: Aliases) -> Plan:
    builder = _Builder({d.loop: d for d in decisions}, types, aliases)
    return Plan(name, fn, builder.block(statements(fn.body)))
