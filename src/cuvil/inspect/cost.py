"""The cost model: per Plan region, FLOPs and bytes read and written as polynomials in the symbolic dims.

What counts as one FLOP (operations on data, not on indices):
  - each arithmetic operator (+ - * / // % **, and each augmented assignment) with a data operand: an array
    element, a float literal or scalar, or a name bound to data; index arithmetic (`i - 1`) counts nothing;
  - each call of a math function on data (exp, tanh, sqrt, …, the vector intrinsics, max/min, true_divide):
    one, whatever it costs inside; casts (`np.float32(v)`, `float(v)`) count nothing;
  - each comparison of data (`z <= 4.0`).
Loops multiply by their trip counts; a loop whose extent depends on an outer loop's variable takes that
variable's mean (exact for triangular loops). A `while` loop's trip count is unknown (the symbol `trips(L<n>)`),
and an `if` on data counts both branches: the region is then not exact.

Bytes are the compulsory traffic under a streaming model: per array access, its element size times the trip
counts of the loops whose variables index it (`x[i, j]` inside loops over i and j: all of x); accesses of one
array share their footprint (the largest); a loop that indexes none of its body's arrays but holds loops (a
time-step loop) streams its body's arrays again at each trip. `np.empty` allocations cost no traffic.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import libcst as cst
import numpy as np

from ..analysis.types import Array, Scalar
from ..lower.plan import Alloc, Control, ParallelNest, Plan, Serial
from ..normalize.origins import origin_of
from .extents import Extents, all_nodes, callee
from .symbolic import Poly
from .variants import VariantPlans, plans_of

MATH = frozenset("exp expm1 log log1p log2 log10 sqrt cbrt tanh sinh cosh tan sin cos atan atan2 asin acos erf erfc "
                 "pow py_pow power hypot maximum minimum max min fmax fmin true_divide floor_divide fmod fabs abs "
                 "absolute floor ceil copysign sign add_any_order".split())
ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)
_code = cst.Module([])


def _itemsize(dtype: str) -> int:
    """Bytes per element; bfloat16, which NumPy has no dtype for, is stored in two (runtime/half.py)."""
    return 2 if dtype == "bfloat16" else np.dtype(dtype).itemsize


@dataclasses.dataclass(frozen=True)
class RegionCost:
    id: str
    kind: str  # the Plan region's class: ParallelNest, Serial, Alloc, Control
    lines: tuple[int, int] | None
    flops: Poly
    read: Poly  # bytes
    written: Poly  # bytes
    exact: bool  # False: a `while` loop or a branch on data made the FLOPs an estimate

    def intensity(self, values: dict[str, float]) -> float:
        """FLOPs per byte moved, for the symbols' values."""
        moved = self.read.evaluate(values) + self.written.evaluate(values)
        return self.flops.evaluate(values) / moved if moved else float("inf")


@dataclasses.dataclass(frozen=True)
class Cost:
    function: str
    regions: list[RegionCost]

    @property
    def flops(self) -> Poly:
        return sum((r.flops for r in self.regions), Poly())

    @property
    def bytes(self) -> Poly:
        return sum((r.read + r.written for r in self.regions), Poly())

    def __str__(self) -> str:
        lines = [f"cost of {self.function} (FLOPs; bytes read / written)"]
        for r in self.regions:
            if r.flops.terms or r.read.terms or r.written.terms:
                where = "" if r.lines is None else f" L{r.lines[0]}" + (f"-L{r.lines[1]}" if r.lines[1] != r.lines[0]
                                                                        else "")
                approx = "" if r.exact else " (estimate)"
                lines.append(f"  {r.id} {r.kind}{where}: {r.flops} FLOPs{approx}; {r.read} / {r.written} bytes")
        return "\n".join(lines)


def cost(fn: Any, variant: int = -1) -> Cost:
    vp = plans_of(fn, variant)
    return cost_of(vp)


def cost_of(vp: VariantPlans) -> Cost:
    """The entry function's regions (calls into helpers are not followed: they count as one call)."""
    plan = vp.plans[vp.entry]
    model = _Model(plan, vp)
    return Cost(vp.entry, model.regions(plan.regions, Poly.const(1), True))


@dataclasses.dataclass
class _Access:
    array: str
    footprint: Poly  # elements
    write: bool
    indices: frozenset[str]  # names the subscript reads (loop variables, after aliases)


@dataclasses.dataclass
class _Walk:
    flops: Poly = dataclasses.field(default_factory=Poly)
    accesses: list[_Access] = dataclasses.field(default_factory=list)
    exact: bool = True

    def add(self, other: _Walk) -> None:
        self.flops = self.flops + other.flops
        self.accesses += other.accesses
        self.exact = self.exact and other.exact


class _Model(Extents):
    def __init__(self, plan: Plan, vp: VariantPlans):
        super().__init__()
        self.data: set[str] = set()
        self.aliases: dict[str, set[str]] = {}
        for name, kind, shape in zip(vp.params, vp.args, vp.shapes):
            if isinstance(kind, Array):
                dims = [Poly.const(d) if d is not None else Poly.symbol(f"{name}.shape[{k}]")
                        for k, d in enumerate(shape or (None,) * kind.ndim)]
                self.arrays[name] = (_itemsize(kind.dtype), dims)
            elif isinstance(kind, Scalar) and kind.dtype.startswith(("float", "complex")):
                self.data.add(name)
        self.scan(plan)

    def scan(self, plan: Plan) -> None:
        """Bindings of the function: each name assigned once (its value), data names (a fixpoint), aliases."""
        assigned: dict[str, list[cst.BaseExpression]] = {}
        for node in all_nodes(plan.function.body):
            if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
                assigned.setdefault(node.targets[0].target.value, []).append(node.value)
            elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
                assigned.setdefault(node.target.value, []).append(node.value)
        for region in plan.walk():
            if isinstance(region, Alloc):
                kind = "empty" if "empty" in _code.code_for_node(region.statement) else "filled"
                self.arrays[region.name] = (_itemsize(region.dtype) if region.dtype != "?" else 8,
                                            self.shape(cst.parse_expression(region.shape)))
                self.env[region.name] = kind
        for name, values in assigned.items():
            self.aliases[name] = {n.value for v in values for n in all_nodes(v) if isinstance(n, cst.Name)}
            if len(values) == 1 and name not in self.arrays:
                self.env[name] = self.value(values[0])
        changed = True
        while changed:
            changed = False
            for name, values in assigned.items():
                if name not in self.data and name not in self.arrays and any(self.is_data(v) for v in values):
                    self.data.add(name)
                    changed = True

    # --- data and FLOPs ---------------------------------------------------------------------------------------

    def is_data(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Float | cst.Imaginary):
            return True
        if isinstance(node, cst.Name):
            return node.value in self.data
        if isinstance(node, cst.Subscript):
            return isinstance(node.value, cst.Name) and node.value.value in (self.arrays.keys() | self.data)
        if isinstance(node, cst.BinaryOperation):
            return self.is_data(node.left) or self.is_data(node.right)
        if isinstance(node, cst.UnaryOperation):
            return self.is_data(node.expression)
        if isinstance(node, cst.Call):
            return callee(node) not in ("len", "range", "index", "span", "broadcast_shape") and \
                any(self.is_data(a.value) for a in node.args)
        if isinstance(node, cst.IfExp):
            return self.is_data(node.body) or self.is_data(node.orelse)
        if isinstance(node, cst.Tuple):
            return any(self.is_data(e.value) for e in node.elements)
        return False

    def ops(self, node: cst.CSTNode) -> int:
        """FLOPs of one evaluation of an expression or simple statement."""
        count = 0
        for child in all_nodes(node):
            if isinstance(child, cst.BinaryOperation) and isinstance(child.operator, ARITHMETIC):
                count += self.is_data(child)
            elif isinstance(child, cst.AugAssign) and isinstance(child.operator, _AUGMENTED):
                count += self.is_data(child.target) or self.is_data(child.value)
            elif isinstance(child, cst.Call) and _math(callee(child)):
                count += any(self.is_data(a.value) for a in child.args)
            elif isinstance(child, cst.Comparison):
                count += sum(self.is_data(child.left) or self.is_data(t.comparator) for t in child.comparisons)
        return count

    # --- walking statements -----------------------------------------------------------------------------------

    def walk(self, stmts: Iterable[cst.CSTNode]) -> _Walk:
        out = _Walk()
        for stmt in stmts:
            if isinstance(stmt, cst.SimpleStatementLine):
                out.flops = out.flops + Poly.const(self.ops(stmt))
                out.accesses += self.accesses(stmt)
            elif isinstance(stmt, cst.For):
                out.add(self.loop(stmt, self.trips(stmt.iter), stmt.body.body))
            elif isinstance(stmt, cst.While):
                trips = Poly.symbol(f"trips(L{origin_of(stmt) or 0})")
                body = self.loop(stmt, trips, stmt.body.body, test=stmt.test)
                body.exact = False
                out.add(body)
            elif isinstance(stmt, cst.If) and _checked_copy(stmt):
                out.add(self.walk(stmt.orelse.body.body))  # type: ignore[union-attr]
            elif isinstance(stmt, cst.If):
                out.flops = out.flops + Poly.const(self.ops(stmt.test))
                branches = self.walk(stmt.body.body)
                if isinstance(stmt.orelse, cst.Else | cst.If):
                    other = self.walk([stmt.orelse] if isinstance(stmt.orelse, cst.If) else stmt.orelse.body.body)
                    if not _same(branches, other):  # a loop and its versioned copy (lower/nest.py) count once
                        branches.add(other)
                if branches.flops.terms and self.is_data(stmt.test):
                    branches.exact = False
                out.add(branches)
            elif isinstance(stmt, cst.Else):
                out.add(self.walk(stmt.body.body))
        return out

    def loop(self, stmt: cst.For | cst.While, trips: Poly | None, body: Sequence[cst.CSTNode],
             test: cst.BaseExpression | None = None) -> _Walk:
        inner = self.walk(body)
        if trips is None:
            trips = Poly.symbol(f"trips(L{origin_of(stmt) or 0})")
            inner.exact = False
        var = stmt.target.value if isinstance(stmt, cst.For) and isinstance(stmt.target, cst.Name) else None
        if var is not None and isinstance(stmt, cst.For) and isinstance(stmt.iter, cst.Call) and stmt.iter.args:
            args = [self.poly(a.value) for a in stmt.iter.args]
            start, stop = (Poly(), args[0]) if len(args) == 1 else (args[0], args[1])
            mean = (start + stop - 1) * Poly.const(Fraction(1, 2))
            inner.flops = inner.flops.substitute(var, mean)
            for a in inner.accesses:
                a.footprint = a.footprint.substitute(var, mean)
        flops = inner.flops * trips + Poly.const(self.ops(test) if test is not None else 0) * (trips + 1)
        indexed = any(var in a.indices for a in inner.accesses) if var else False
        time_loop = not indexed and _holds_loop(body)
        for a in inner.accesses:
            if (var is not None and var in a.indices) or time_loop:
                a.footprint = a.footprint * trips
        return _Walk(flops, inner.accesses, inner.exact)

    def accesses(self, stmt: cst.SimpleStatementLine) -> list[_Access]:
        out = []
        writes = {id(t.target) for s in stmt.body if isinstance(s, cst.Assign) for t in s.targets} | \
                 {id(s.target) for s in stmt.body if isinstance(s, cst.AugAssign)}
        augmented = {id(s.target) for s in stmt.body if isinstance(s, cst.AugAssign)}
        for node in all_nodes(stmt):
            if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value in self.arrays:
                names = {n.value for e in node.slice for n in all_nodes(e) if isinstance(n, cst.Name)}
                indices = frozenset(self.closure(names))
                for write in ([True, False] if id(node) in augmented else [id(node) in writes]):
                    out.append(_Access(node.value.value, Poly.const(1), write, indices))
        return out

    def closure(self, names: set[str]) -> set[str]:
        seen, todo = set(), list(names)
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo += self.aliases.get(name, ())
        return seen

    # --- regions ----------------------------------------------------------------------------------------------

    def regions(self, regions: Sequence[Any], times: Poly, exact: bool) -> list[RegionCost]:
        out: list[RegionCost] = []
        for r in regions:
            if isinstance(r, Control):
                header, trips, mean, var = r.statement, Poly.const(1), None, None
                if isinstance(header, cst.For):
                    trips = self.trips(header.iter) or Poly.symbol(f"trips(L{origin_of(header) or 0})")
                    var = header.target.value if isinstance(header.target, cst.Name) else None
                    args = [self.poly(a.value) for a in header.iter.args] if isinstance(header.iter, cst.Call) else []
                    if var and args:
                        start, stop = (Poly(), args[0]) if len(args) == 1 else (args[0], args[1])
                        mean = (start + stop - 1) * Poly.const(Fraction(1, 2))
                elif isinstance(header, cst.While):
                    trips, exact = Poly.symbol(f"trips(L{origin_of(header) or 0})"), False
                if isinstance(header, cst.If) and _checked_copy(header):
                    inner = self.regions(r.orelse, times, exact)
                elif isinstance(header, cst.If):
                    inner = self.regions(r.body, times, exact)
                    other = self.regions(r.orelse, times, exact)
                    if not _same_regions(inner, other):  # one of them runs: the sum is an upper bound
                        inner = [dataclasses.replace(c, exact=False) for c in inner + other]
                else:
                    inner = self.regions([*r.body, *r.orelse], times * trips, exact)
                if var and mean is not None:
                    inner = [dataclasses.replace(c, flops=c.flops.substitute(var, mean), read=c.read.substitute(
                        var, mean), written=c.written.substitute(var, mean)) for c in inner]
                out += inner
                continue
            walked = self.walk([r.loop] if isinstance(r, ParallelNest) else r.statements if isinstance(r, Serial)
                               else [])
            read, written = self.traffic(walked.accesses)
            if isinstance(r, Alloc) and self.env.get(r.name) == "filled":
                itemsize, dims = self.arrays[r.name]
                written = written + _product(dims) * itemsize
            out.append(RegionCost(r.id, type(r).__name__, r.lines, walked.flops * times, read * times,
                                  written * times, exact and walked.exact))
        return out

    def traffic(self, accesses: list[_Access]) -> tuple[Poly, Poly]:
        found: dict[tuple[str, bool], Poly] = {}
        for a in accesses:
            key = (a.array, a.write)
            old = found.get(key)
            if old is None or _size(a.footprint) > _size(old):
                found[key] = a.footprint
        read, written = Poly(), Poly()
        for (array, write), elements in sorted(found.items()):
            itemsize, _ = self.arrays[array]
            if write:
                written = written + elements * itemsize
            else:
                read = read + elements * itemsize
        return read, written


_AUGMENTED = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign, cst.FloorDivideAssign,
              cst.ModuloAssign, cst.PowerAssign)


def _checked_copy(stmt: cst.If) -> bool:
    """lower/checks.py's `if <an index outside its axis>: <the loop checked at every access> else: <the loop>`:
    the copy runs only to raise, so only the loop counts."""
    return isinstance(stmt.orelse, cst.Else) and any(
        isinstance(c, cst.Call) and re.fullmatch(r"outside(_\d+)?", callee(c)) for c in all_nodes(stmt.test))


def _same(a: _Walk, b: _Walk) -> bool:
    """Whether two branches do the same work: a loop and its copy that the lowering versions on run-time
    broadcast flags (the copy indexes `x[i]` where the loop has `x[i * flag]`)."""
    return a.flops == b.flops and sorted((x.array, x.write, str(x.footprint)) for x in a.accesses) == \
        sorted((x.array, x.write, str(x.footprint)) for x in b.accesses)


def _same_regions(a: list[RegionCost], b: list[RegionCost]) -> bool:
    return len(a) == len(b) and all((x.kind, x.flops, x.read, x.written) == (y.kind, y.flops, y.read, y.written)
                                    for x, y in zip(a, b))


def _math(name: str) -> bool:
    """A math function, by its name in the generated module (`exp_1`, `tanh_f32` are imports renamed)."""
    base = re.sub(r"_f(16|32|64)$", "", re.sub(r"_\d+$", "", name))
    return base in MATH


def _holds_loop(body: Sequence[cst.CSTNode]) -> bool:
    return any(isinstance(n, cst.For | cst.While) for stmt in body for n in all_nodes(stmt))


def _product(dims: Sequence[Poly]) -> Poly:
    out = Poly.const(1)
    for d in dims:
        out = out * d
    return out


def _size(p: Poly) -> tuple[int, float]:
    """For choosing the larger of two footprints: the degree, then the value with every dim large."""
    return max((len(m) for m in p.terms), default=0), p.evaluate(dict.fromkeys(p.symbols, 2.0 ** 20))


