"""One FX partition → one Plan: a parallel nest over rows, the reductions over the last dim inside it (issue 14).

No Python source of the user's sits in between: the partition's aten nodes are written straight into loop
statements (libcst nodes), in the lowering's own Plan (lower/plan.py: a ParallelNest holding the loop and a
LoopDecision that says why it is parallel), and codegen/cpu.py's `print_plan` prints it as a `prange` loop
(run as row chunks on threads: dynamo/compiled.py).

    for r in numba.prange(R):              rows are independent: each writes its own outputs' row
        a0 = -inf                          reductions of level 1 (they read only inputs and level-0 values)
        for c in range(C):
            t_x = x[r, c]
            a0 = maximum(a0, t_x)
        t_amax = a0
        a1 = 0.0                           level 2: may read level-1 results (a softmax's max)
        for c in range(C):
            ...
        for c in range(C):                 the last loop writes the full-shape outputs
            out0[r, c] = ...

An element's value is recomputed in each loop that needs it rather than stored (a row is in cache by then), as
inductor does, except a costly one (exp, erf, …: reuse.py), kept in the row of an output it feeds, or, when
every output is a half (too narrow to hold it), in a float32 row the kernel allocates once: shared by the rows,
which is sound because the nest's rows run serially within a call (compiled.py splits them into calls).

A partition without reductions or per-row/per-column operands is one flat loop over all elements instead.
Values compute in float32 for float32 and half tensors (loads widen, stores narrow: the runtime/half.py
conversions) and in float64 for float64 ones.
"""

from __future__ import annotations

import dataclasses
import math
import operator
import re
from typing import Any

import libcst as cst
import torch
import torch.fx

from ..cfg.dependence import LoopDecision
from ..lower.plan import ParallelNest, Plan, Serial
from . import layout as L
from . import ops, reuse
from .spec import Spec

_MATH = re.compile(r"\b(exp|log|tanh|sigmoid|erf)\(")
_WIDEN = {"float16": "f16_to_f32", "bfloat16": "bf16_to_f32"}
_NARROW = {"float16": "f16", "bfloat16": "bf16"}
SCRATCH = "row"  # the float32 row a nest with only half outputs keeps a costly value in


def compute_type(dtype: torch.dtype) -> str:
    return {torch.float64: "float64", torch.bool: "bool"}.get(dtype, "float32")


def literal(x: Any, ct: str) -> str:
    if ct == "bool":
        return repr(bool(x))
    x = float(x)
    text = "np.nan" if math.isnan(x) else ("np.inf" if x > 0 else "-np.inf") if math.isinf(x) else repr(x)
    return text if ct == "float64" else f"np.float32({text})"


def cast(expr: str, source: str, target: str) -> str:
    if source == target:
        return expr
    return f"({expr} != 0)" if target == "bool" else f"np.{target}({expr})"


@dataclasses.dataclass(frozen=True)
class Kernel:
    spec: Spec  # what the call needs (spec.py)
    plan: Plan


def _op(node: torch.fx.Node) -> str:
    """`add` for aten.add.Tensor, `getitem` for operator.getitem: the readable part of a value's name."""
    return str(getattr(node.target, "__name__", node.target)).split(".")[0]


def _stmt(text: str) -> cst.BaseStatement:
    return cst.parse_statement(text + "\n")


def _loop(var: str, extent: str, body: list[cst.BaseStatement]) -> cst.For:
    return cst.For(cst.Name(var), cst.Call(cst.Name("range"), [cst.Arg(cst.Name(extent))]),
                   cst.IndentedBlock(body or [_stmt("pass")]))


class _Builder:
    def __init__(self, gm: torch.fx.GraphModule):
        self.nodes = list(gm.graph.nodes)
        self.params = [n for n in self.nodes if n.op == "placeholder"]
        self.body = [n for n in self.nodes if n.op == "call_function"]
        out = next(n for n in self.nodes if n.op == "output")
        self.result_nodes = out.args[0]
        for p in self.params:
            if not isinstance(ops.value(p), torch.Tensor):
                raise L.NotFusable("a partition input is not a tensor")
        shapes = [list(v.shape) for n in self.params + self.body for v in self.vals(n)]
        self.ref = L.reference(shapes)
        self.input_shapes = [list(ops.value(p).shape) for p in self.params]
        self.cls: dict[torch.fx.Node, str] = {}
        self.level: dict[torch.fx.Node, int] = {}
        self.flat_rows: set[torch.fx.Node] = set()  # reductions without keepdim: (R,), not (R, 1)
        self.ct = {n: compute_type(self.dtype(n)) for n in self.params + self.body}
        self.classify()

    @staticmethod
    def vals(node: torch.fx.Node) -> list[torch.Tensor]:
        v = ops.value(node)
        return [x for x in (v if isinstance(v, tuple | list) else (v,)) if isinstance(x, torch.Tensor)]

    def dtype(self, node: torch.fx.Node) -> torch.dtype:
        return self.vals(node)[0].dtype

    def classify(self) -> None:
        for p in self.params:
            self.cls[p], self.level[p] = L.classify(list(ops.value(p).shape), self.ref), 0
        for n in self.body:
            entry = ops.TABLE.get(n.target)
            if n.target is operator.getitem:
                source, index = n.args
                self.cls[n] = self.cls[source]
                self.level[n] = self.level[source] - (1 if index == 1 else 0)  # var_mean: (var, mean)
                self.flat_rows |= {n} if source in self.flat_rows else set()
                continue
            if isinstance(entry, ops.Reduction):
                x = n.args[0]
                if self.cls[x] != L.FULL or x in self.flat_rows:
                    raise L.NotFusable(f"{n.target} reduces a tensor that is not full-shape")
                self.cls[n] = L.ROW
                self.level[n] = self.level[x] + (2 if entry.op in ("var", "var_mean") else 1)
                if not ops.keepdim(n):
                    self.flat_rows.add(n)
                continue
            assert isinstance(entry, ops.Elementwise)
            operands = [a for a in self.operands(n, entry) if isinstance(a, torch.fx.Node)]
            flat = [a for a in operands if a in self.flat_rows]
            if flat and any(self.cls[a] != L.SCALAR and a not in self.flat_rows for a in operands):
                raise L.NotFusable(f"{n.target} combines a reduction taken without keepdim with a full tensor")
            self.cls[n] = L.join([self.cls[a] for a in operands])
            self.level[n] = max([self.level[a] for a in operands], default=0)
            if flat:
                self.flat_rows.add(n)
            elif L.classify(list(ops.value(n).shape), self.ref) not in (self.cls[n], L.SCALAR):
                raise L.NotFusable(f"{n.target} has a shape the nest does not index as {self.cls[n]}")

    @staticmethod
    def operands(n: torch.fx.Node, entry: ops.Elementwise) -> list[Any]:
        return [n.args[i] for i in entry.operands if i < len(n.args)]


def build(gm: torch.fx.GraphModule, name: str) -> Kernel:
    b = _Builder(gm)
    outputs = list(b.result_nodes) if isinstance(b.result_nodes, tuple | list) else [b.result_nodes]
    for o in outputs:
        if not isinstance(o, torch.fx.Node) or o.op != "call_function":
            raise L.NotFusable("a partition output is not a computed tensor")
    reductions = [n for n in b.body if isinstance(ops.TABLE.get(n.target), ops.Reduction)]
    flat = not reductions and all(b.cls[n] in (L.FULL, L.SCALAR) for n in b.params + b.body)
    for o in outputs:
        if b.cls[o] == L.COL or (b.cls[o] == L.SCALAR and not flat):
            raise L.NotFusable(f"an output that is one {b.cls[o]} broadcast over the nest")
    writer = _Writer(b, flat)
    loop = writer.nest(outputs)
    params = ["N"] if flat else ["R", "C"]
    params += [f"in{i}" for i in range(len(b.params))] + [f"out{k}" for k in range(len(outputs))]
    header = cst.FunctionDef(cst.Name(name), cst.Parameters([cst.Param(cst.Name(p)) for p in params]),
                             cst.IndentedBlock([_stmt("pass")]))
    decision = LoopDecision(loop, None, True, "the rows of an FX partition are independent")
    nest = ParallelNest("r0", None, loop.target.value, loop.iter.args[0].value.value, (),  # type: ignore[attr-defined]
                        tuple(sorted(writer.assigned)), tuple(params[-len(outputs) - len(b.params):-len(outputs)]),
                        tuple(params[-len(outputs):]), 0, (), loop, decision)
    regions: tuple[Any, ...] = (nest,)
    if writer.scratch:  # one row per call: compiled.py runs the rows as serial chunks, each its own call
        regions = (Serial("s0", None, (_stmt(f"{SCRATCH} = np.empty(C, np.float32)"),)), nest)  # 4 KiB: no advice
    plan = Plan(name, header, regions)
    locate = [L.locate(d, b.input_shapes) for d in b.ref]
    out_specs = tuple((b.cls[o], b.dtype(o), tuple(L.locate(d, b.input_shapes) for d in ops.value(o).shape))
                      for o in outputs)
    index = {o: k for k, o in enumerate(outputs)}
    result = tuple(index[o] for o in b.result_nodes) if isinstance(b.result_nodes, tuple | list) \
        else index[b.result_nodes]
    spec = Spec(name, "flat" if flat else "rows", tuple((b.cls[p], b.dtype(p)) for p in b.params), out_specs,
                tuple(locate), result, tuple(str(n.target) for n in b.body))
    return Kernel(spec, plan)


class _Writer:
    """The statements of the nest: row prologue, one column loop per reduction level, the output loop."""

    def __init__(self, b: _Builder, flat: bool):
        self.b, self.flat = b, flat
        # Named by position and operation, never by the FX node's name: partitions that differ only in naming
        # (a graph traced again with symbolic sizes) print the same text and share one module (modules.py).
        self.names = {p: f"x{i}" for i, p in enumerate(b.params)}
        self.names |= {n: f"t{i}_{_op(n)}" for i, n in enumerate(b.body)}
        self.acc = {n: str(i) for i, n in enumerate(b.body)}
        self.args = {p: f"in{i}" for i, p in enumerate(b.params)}
        self.assigned: set[str] = set()
        self.scratch = False  # the nest keeps a costly value in a float32 row of its own (reuse())

    def index(self, cls: str) -> str:
        if self.flat:
            return "i" if cls == L.FULL else "0"
        return {L.FULL: "r, c", L.ROW: "r", L.COL: "c", L.SCALAR: "0"}[cls]

    def assign(self, name: str, expr: str) -> cst.BaseStatement:
        self.assigned.add(name)
        return _stmt(f"{name} = {expr}")

    def value(self, n: torch.fx.Node) -> str:
        """The statement-free expression of an elementwise node or a load, in its compute type."""
        b = self.b
        if n.op == "placeholder":
            load = f"{self.args[n]}[{self.index(b.cls[n])}]"
            widen = _WIDEN.get(ops.FLOATS.get(b.dtype(n), ""))
            return f"{widen}({load})" if widen else load
        entry = ops.TABLE[n.target]
        assert isinstance(entry, ops.Elementwise)
        ct = b.ct[n]
        if entry.compare:
            vals = [ops.value(a) for a in _Builder.operands(n, entry)]
            ct = compute_type(torch.result_type(*vals))

        def operand(i: int) -> str:
            arg = n.args[i]
            want = "bool" if n.target is ops.aten.where.self and i == 0 else ct
            if isinstance(arg, torch.fx.Node):
                return cast(self.names[arg], b.ct[arg], want)
            return literal(arg, want)

        expr = entry.emit(operand, lambda x: literal(x, ct), n)
        suffix = "f64" if ct == "float64" else "f32"
        return _MATH.sub(lambda m: f"{m.group(1)}_{suffix}(", expr)

    @staticmethod
    def needed(targets: list[torch.fx.Node], done: set[torch.fx.Node],
               leaves: Any = ()) -> set[torch.fx.Node]:
        need: set[torch.fx.Node] = set()
        stack = list(targets)
        while stack:
            n = stack.pop()
            if n in done or n in need:
                continue
            need.add(n)
            if n.op == "call_function" and n not in leaves:
                stack += [a for a in n.args if isinstance(a, torch.fx.Node)]
        return need

    def closure(self, targets: list[torch.fx.Node], done: set[torch.fx.Node], stash: Any = None,
                loaded: Any = None) -> list[cst.BaseStatement]:
        """Statements computing `targets` and what they need, skipping the values in `done` (row values);
        `stash`: values also written to an output (its element is this row's own), `loaded`: values read
        back from there instead of computed again."""
        stash, loaded = stash or {}, loaded or {}
        need = self.needed(targets, done, loaded)
        out = []
        for n in self.b.params + self.b.body:
            if n in need:
                if n in loaded:
                    out.append(self.assign(self.names[n], self.element(loaded[n])))
                    continue
                if n.op == "call_function" and not isinstance(ops.TABLE.get(n.target), ops.Elementwise):
                    raise L.NotFusable(f"{n.target} is needed inside a loop before its reduction is done")
                out.append(self.assign(self.names[n], self.value(n)))
                if n in stash:
                    out.append(_stmt(f"{self.element(stash[n])} = {self.names[n]}"))
                done.add(n)
        return out

    def loop_targets(self, level: int) -> list[torch.fx.Node]:
        """What the column loop of `level` reduces (a var's mean is a level before its variance)."""
        out = []
        for n in self.b.body:
            entry = ops.TABLE.get(n.target)
            if isinstance(entry, ops.Reduction) and (self.b.level[n] == level or (
                    entry.op in ("var", "var_mean") and self.b.level[n] - 1 == level)):
                out.append(n.args[0])
        return out

    def element(self, buffer: str) -> str:
        """This row's element `c` of a buffer that holds a costly value between loops."""
        return f"{buffer}[c]" if buffer == SCRATCH else f"{buffer}[r, c]"

    def reuse(self, outputs: list[torch.fx.Node], top: int, rows: set[torch.fx.Node]) -> tuple[Any, Any]:
        """The buffer is a float output's own row; with only half outputs (their 16 bits cannot hold a float32
        value), a row of float32 scratch, allocated once per call of the kernel: a bfloat16 softmax computed
        exp twice per element without it (0.58x inductor, measured)."""
        b = self.b
        full = [o for o in outputs if b.cls[o] == L.FULL]
        wide = [(k, o) for k, o in enumerate(outputs) if o in full and b.dtype(o) in (torch.float32, torch.float64)]
        if not full or not top:
            return {}, {}
        buffer, ct = (f"out{wide[0][0]}", compute_type(b.dtype(wide[0][1]))) if wide else (SCRATCH, "float32")
        loops = [(level, self.loop_targets(level)) for level in range(1, top + 1)]
        loops = [(level, t) for level, t in loops if t] + [(top + 1, full)]

        def candidate(n: torch.fx.Node) -> bool:
            return n.op == "call_function" and b.cls[n] == L.FULL and b.ct[n] == ct \
                and any(m.target in reuse.COSTLY for m in self.needed([n], rows))

        stash_at, load_at = reuse.schedule(loops, candidate, buffer, lambda t, leaves: self.needed(t, rows, leaves),
                                           {n: i for i, n in enumerate(b.body)})
        self.scratch = bool(stash_at) and buffer == SCRATCH
        return stash_at, load_at

    def store(self, k: int, n: torch.fx.Node) -> cst.BaseStatement:
        b = self.b
        narrow = _NARROW.get(ops.FLOATS.get(b.dtype(n), ""))
        value = f"{narrow}({self.names[n]})" if narrow else cast(self.names[n], b.ct[n], compute_type(b.dtype(n)))
        where = self.index(L.FULL if b.cls[n] == L.FULL else L.ROW)
        return _stmt(f"out{k}[{where}] = {value}")

    def nest(self, outputs: list[torch.fx.Node]) -> cst.For:
        b = self.b
        if self.flat:
            return _loop("i", "N", self.closure(outputs, set()) + [self.store(k, o) for k, o in enumerate(outputs)])
        rows = {n for n in b.params + b.body if b.cls[n] in (L.ROW, L.SCALAR)}
        done: set[torch.fx.Node] = set()
        body: list[cst.BaseStatement] = []
        top = max(b.level.values(), default=0)
        stash_at, load_at = self.reuse(outputs, top, rows)
        for level in range(top + 1):
            if level:
                body += self.reductions(level, done, stash_at.get(level), load_at.get(level))
            ready = [n for n in b.params + b.body if n in rows and b.level[n] == level and n not in done
                     and not isinstance(ops.TABLE.get(n.target), ops.Reduction)]
            for n in ready:
                body += self.closure([n], done)
        full = [(k, o) for k, o in enumerate(outputs) if b.cls[o] == L.FULL]
        if full:
            inner = self.closure([o for _, o in full], set(done), loaded=load_at.get(top + 1))
            inner += [self.store(k, o) for k, o in full]
            body.append(_loop("c", "C", inner))
        body += [self.store(k, o) for k, o in enumerate(outputs) if b.cls[o] != L.FULL]
        return _loop("r", "R", body)

    def reductions(self, level: int, done: set[torch.fx.Node], stash: Any = None,
                   loaded: Any = None) -> list[cst.BaseStatement]:
        """One column loop for every reduction finishing at `level` (a var's mean finishes a level earlier)."""
        b = self.b
        parts: list[tuple[torch.fx.Node, str, str, str]] = []  # node, accumulator, op, what it adds
        for n in b.body:
            entry = ops.TABLE.get(n.target)
            if not isinstance(entry, ops.Reduction):
                continue
            x = self.names[n.args[0]]
            if entry.op in ("var", "var_mean"):
                if b.level[n] - 1 == level:
                    parts.append((n, f"m{self.acc[n]}", "mean", x))
                elif b.level[n] == level:
                    d = f"({x} - m{self.acc[n]})"
                    parts.append((n, f"a{self.acc[n]}", "var", f"{d} * {d}"))
            elif b.level[n] == level:
                parts.append((n, f"a{self.acc[n]}", entry.op, x))
        if not parts:
            return []
        out: list[cst.BaseStatement] = []
        for n, acc, op, _ in parts:
            ct = b.ct[n.args[0]]
            init = {"max": -math.inf, "min": math.inf}.get(op, 0.0)
            out.append(self.assign(acc, literal(init, ct)))
        inner = self.closure([n.args[0] for n, *_ in parts], set(done), stash, loaded)  # type: ignore[misc, unused-ignore]  # torch present or not
        for _n, acc, op, add in parts:
            if op in ("max", "min"):
                inner.append(self.assign(acc, f"{'maximum' if op == 'max' else 'minimum'}({acc}, {add})"))
            else:
                inner.append(self.assign(acc, f"{acc} + {add}"))
        out.append(_loop("c", "C", inner))
        for n, acc, op, _ in parts:
            ct = b.ct[n.args[0]]
            count = "C" if op in ("mean", "sum", "max", "min") else f"(C - {ops.correction(n)!r})"
            if op == "mean":
                out.append(self.assign(acc, f"{acc} / {cast(count, 'int', ct)}"))
            if op == "var":
                out.append(self.assign(acc, f"{acc} / {cast(count, 'float64', ct)}"))
            entry = ops.TABLE[n.target]
            if entry.op == "var_mean":  # type: ignore[union-attr]
                for user in n.users:
                    if user.args[1] == (1 if op == "mean" else 0):
                        out.append(self.assign(self.names[user], acc))
                        done.add(user)
            elif not (entry.op == "var" and op == "mean"):  # type: ignore[union-attr]
                out.append(self.assign(self.names[n], acc))
                done.add(n)
        return out
