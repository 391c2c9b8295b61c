"""A parallel loop over rows whose body runs loops along the row (row softmax, LayerNorm, row sums) as a kernel
with a block per row: the block's threads stride through each inner loop, so a warp reads 32 neighbouring
elements at once, and an inner reduction is reduced across the block (warp shuffles, then shared memory) and
handed to every thread.

    for i in prange(n):                         for i in range(cuda.blockIdx.x, n, cuda.gridDim.x):
        m = x[i, 0]                                 m = x[i, 0]
        for j in range(1, x.shape[1]):              for j in range(1 + _t0, x.shape[1], _b0):
            m = max(m, x[i, j])                         m = max(m, x[i, j])
        …                                           (m of the whole block: shuffles, shared memory)
                                                    cuda.syncthreads()
                                                    …

Why: one thread per row (the grid kernel) reads a row in order — 32 rows, 32 far-apart addresses per warp
load — and a 8192×8192 softmax ran at 4% of torch's speed (bench/gpu_results.md).

Every thread of a block runs the row's own statements (the same values: they depend on the row and on what
the block reductions hand to all), so only the inner loops are split. An inner loop is split when each of its
iterations is independent of the others but for reductions: what it writes is indexed by its own variable,
bare, on one axis (a different element per iteration); an array it writes it reads only at that same
element; an array it reads under another name is one the launcher proves apart from the written ones (the
loop's run-time overlap checks, or an array the function allocated); every other name it binds is set before
it is read in the iteration and dead after the loop. A reduction `acc = max(acc, v)` (min, np.maximum, np.minimum,
the NaN-counted maximum_nonan/minimum_nonan) starts from `acc` on every thread (they are idempotent: NaN and
ordering as Python's, one element at a time); `acc += v` (`-=`, `*=`, NumPy's sums) starts from `acc` on thread 0
and from the identity on the others, so one thread (the serial twin) adds in Python's order. Any other shape — a
row statement that writes an array, a call that may, an inner loop with a carried value — keeps one thread per row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from ..cfg.uses import calls_in, reads_in, subscripts_in
from ..normalize.names import Fresh, assigned_names
from ..normalize.origins import origin_of, with_origin
from .cuda import BUILTINS, Context, DeviceCode, Kernel, Raised, Stmts, _function, free_names
from .cuda_jam import jam, jammable

SHUFFLED = frozenset({"float32", "float64", "int32", "int64"})  # the types cuda.shfl_down_sync moves
IDEMPOTENT = frozenset({"max", "min", "maximum", "minimum", "maximum_nonan", "minimum_nonan"})
SUMS = {cst.AddAssign: ("+", "0"), cst.SubtractAssign: ("+", "0"), cst.MultiplyAssign: ("*", "1")}
PURE_BUILTINS = frozenset({"max", "min", "abs", "float", "int", "bool", "len", "range", "round"})


class _NotRows(Exception):
    """The nest keeps one thread per row (the reason is for the reader of this module, not the user)."""


def row_kernel(name: str, loop: cst.For, count: cst.BaseExpression, ctx: Context, fresh: Fresh, errs: str,
               offset: int, dtype_of: Callable[[str], str | None], apart: Callable[[str, str], bool]
               ) -> tuple[Kernel, Raised, str | None, list[str]] | None:
    """The block-per-row kernel of `for i in prange(count)` (codegen/parallel.py's form), or None when the
    body is not rows of splittable inner loops. Returns the kernel, its recorded failures, the width of its
    first split loop when the host can compute it (threads per block), and what it reduces."""
    assert isinstance(loop.target, cst.Name) and isinstance(loop.body, cst.IndentedBlock)
    device = DeviceCode(ctx, errs, cst.Name(loop.target.value), can_return=False, offset=offset)
    body: Stmts = []
    for stmt in loop.body.body:
        done = stmt.visit(device)
        body += list(done.nodes) if isinstance(done, cst.FlattenSentinel) else [done]  # type: ignore[list-item]
    if device.raises:  # a `raise` stops its thread, which a block's barriers cannot wait for
        return None
    rows = _Rows(ctx, fresh, dtype_of, apart, loop.target.value, assigned_names(loop.body))
    try:
        new_body = rows.block(body, [])
    except _NotRows:
        return None
    if not rows.split or not rows.stores_apart(body):
        return None
    line = origin_of(loop)
    t, b = rows.t, rows.b
    head = [_stmt(f"{t} = cuda.threadIdx.x", line), _stmt(f"{b} = cuda.blockDim.x", line)]
    head += [_stmt(f"{sm} = cuda.shared.array(256, {ctx.numpy}.{dtype})", line) for sm, dtype in rows.shared]
    rng = cst.parse_expression("range(cuda.blockIdx.x, 0, cuda.gridDim.x)")
    assert isinstance(rng, cst.Call)
    rng = rng.with_changes(args=[rng.args[0], cst.Arg(count, comma=rng.args[1].comma), rng.args[2]])
    stmts: Stmts = [*head, loop.with_changes(iter=rng, body=loop.body.with_changes(body=new_body))]
    bound = assigned_names(cst.Module(stmts)) | {loop.target.value}  # type: ignore[arg-type]
    params = free_names(stmts, ctx, bound)
    kernel = Kernel(name, "grid", tuple(params), _function(name, params, stmts, line), (line, line) if line else None)
    width = rows.width if rows.width is not None and not set(_reads(rows.width)) & bound else None
    return kernel, [], width, rows.reduced


class _Rows:
    def __init__(self, ctx: Context, fresh: Fresh, dtype_of: Callable[[str], str | None],
                 apart: Callable[[str, str], bool], row: str, row_names: set[str]):
        self.ctx, self.fresh, self.dtype_of, self.apart, self.row = ctx, fresh, dtype_of, apart, row
        self.row_names = row_names  # bound somewhere in the row's body
        self.t, self.b = fresh("_t"), fresh("_b")
        self.shared: list[tuple[str, str]] = []
        self.split = 0
        self.width: str | None = None
        self.reduced: list[str] = []
        self.stores: set[str] = set()  # arrays the row's own statements store into
        self.inner_writes: set[str] = set()  # arrays the split loops write

    def block(self, stmts: Sequence[cst.BaseStatement], after: Sequence[cst.BaseStatement]) -> Stmts:
        out: Stmts = []
        for k, stmt in enumerate(stmts):
            rest = [*stmts[k + 1:], *after]
            if isinstance(stmt, cst.For):
                out += self.inner(stmt, rest)
            elif isinstance(stmt, cst.If):
                body = stmt.body.with_changes(body=self.block(stmt.body.body, rest))  # type: ignore[arg-type]
                orelse = stmt.orelse
                if isinstance(orelse, cst.Else):
                    orelse = orelse.with_changes(body=orelse.body.with_changes(
                        body=self.block(orelse.body.body, rest)))  # type: ignore[arg-type]
                elif orelse is not None:
                    raise _NotRows("elif")
                out.append(stmt.with_changes(body=body, orelse=orelse))
            elif isinstance(stmt, cst.SimpleStatementLine) and all(self.row_statement(s) for s in stmt.body):
                out.append(stmt)
            elif isinstance(stmt, cst.SimpleStatementLine) and self.row_store(stmt):
                guarded = cst.parse_statement(f"if {self.t} == 0:\n    pass\n")
                assert isinstance(guarded, cst.If)
                out.append(with_origin(guarded.with_changes(body=guarded.body.with_changes(body=[stmt])),
                                       origin_of(stmt)))
            else:
                raise _NotRows("a row statement that is not an assignment of a name, a test or a recorded error")
        return out

    def row_statement(self, small: cst.BaseSmallStatement) -> bool:
        """Every thread runs it with the same values: it binds names only and calls nothing that writes,
        but the recording of an error (idempotent: the same code and values from every thread)."""
        if isinstance(small, cst.Assign):
            ok = all(isinstance(t.target, cst.Name) for t in small.targets)
        elif isinstance(small, cst.AugAssign):
            ok = isinstance(small.target, cst.Name)
        else:
            ok = isinstance(small, cst.Expr | cst.Pass)
        record = {self.ctx.record_error, "_record_error_values"}
        return ok and all(self.pure(c) or (isinstance(c.func, cst.Name) and c.func.value in record)
                          for c in calls_in(small))

    def row_store(self, stmt: cst.SimpleStatementLine) -> bool:
        """`a[…] = value` of the row: thread 0 stores it (every thread has the value). Sound when the row
        never reads `a` and reads nothing that may share its memory (`stores_apart`, once the body is seen)."""
        small = stmt.body[0]
        if len(stmt.body) != 1 or not isinstance(small, cst.Assign) or not all(
                isinstance(t.target, cst.Subscript) and isinstance(t.target.value, cst.Name) for t in small.targets):
            return False
        if not all(self.pure(c) for c in calls_in(small)):
            return False
        self.stores.update(t.target.value.value for t in small.targets)  # type: ignore[attr-defined]
        return True

    def stores_apart(self, body: Sequence[cst.BaseStatement]) -> bool:
        """The arrays the row stores are never read in it, nor written by its inner loops, and apart from
        every array it reads."""
        if not self.stores:
            return True
        targets = {id(t.target) for s in _all_statements(body) if isinstance(s, cst.SimpleStatementLine)
                   for small in s.body if isinstance(small, cst.Assign) for t in small.targets}
        read = {sub.value.value for s in body for sub in subscripts_in(s)
                if isinstance(sub.value, cst.Name) and id(sub) not in targets}
        return not (read & self.stores or self.stores & self.inner_writes) and all(
            self.apart(a, b) for a in self.stores for b in read)

    def pure(self, call: cst.Call) -> bool:
        func = call.func
        if isinstance(func, cst.Name):
            return func.value in self.ctx.device_helpers or (func.value in PURE_BUILTINS and func.value in BUILTINS
                                                             and func.value not in self.ctx.module_names)
        return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
            and func.value.value in (self.ctx.numpy, self.ctx.math)

    # -- an inner loop ------------------------------------------------------------------------------------

    def inner(self, loop: cst.For, after: Sequence[cst.BaseStatement]) -> Stmts:
        j, start, stop = self.header(loop)
        body: Stmts = list(loop.body.body)  # type: ignore[arg-type]
        every = _all_statements(body)
        if any(not isinstance(s, cst.SimpleStatementLine | cst.If) for s in every) or any(
                isinstance(s, cst.If) and s.orelse is not None and not isinstance(s.orelse, cst.Else) for s in every):
            raise _NotRows("an inner loop with loops, elif or exits inside")
        smalls = [small for s in every if isinstance(s, cst.SimpleStatementLine) for small in s.body]
        if any(not isinstance(s, cst.Assign | cst.AugAssign | cst.Pass) for s in smalls):
            raise _NotRows("an inner statement that is not an assignment")
        if any(not self.pure(c) for s in smalls for c in calls_in(s)):
            raise _NotRows("a call that may write memory or record an error")
        bound = assigned_names(loop.body)
        if j in bound:
            raise _NotRows("the index is assigned")
        reductions = {}
        for name in sorted(bound):
            found = _reduction(name, smalls, self.ctx)
            if found is not None:
                reductions[name] = found
            elif not _set_first(name, body) or _live(name, after):
                raise _NotRows(f"'{name}' is carried or read after the loop")
        if _live(j, after):
            raise _NotRows("the index is read after the loop")
        writes = self.arrays(j, smalls, bound)
        line = origin_of(loop)
        # A thread may reach the loop while another still reads, in the row's statements before it, what the
        # loop overwrites.
        pre: Stmts = [_stmt("cuda.syncthreads()", line)] if writes else []
        post: Stmts = []
        for acc, (label, combine, identity) in reductions.items():
            dtype = self.dtype_of(acc)
            if dtype not in SHUFFLED:
                raise _NotRows(f"'{acc}' is not a type warp shuffles move")
            sm = self.fresh("_sm")
            self.shared.append((sm, dtype))
            zero = None if identity is None else f"{self.ctx.numpy}.{dtype}({identity})"
            if zero is not None:
                pre.append(_stmt(f"{acc} = {acc} if {self.t} == 0 else {zero}", line))
            post += self.reduce(acc, combine, zero, sm, line)
            self.reduced.append(f"{acc} {label}")
        split: Stmts = [loop.with_changes(iter=cst.parse_expression(
            f"range({start} + {self.t}, {cst.Module([]).code_for_node(stop)}, {self.b})"))]
        if jammable(body):  # UNROLL elements a trip, loads first (codegen/cuda_jam.py): the row's bytes in flight
            split = jam(split[0], stop, frozenset(reductions), self.fresh, f"{start} + {self.t}", self.b)  # type: ignore
        if self.width is None:
            self.width = cst.Module([]).code_for_node(stop) + (f" - {start}" if start != "0" else "")
        self.split += 1
        return [*pre, *split, *post, _stmt("cuda.syncthreads()", line)]

    def header(self, loop: cst.For) -> tuple[str, str, cst.BaseExpression]:
        it = loop.iter
        if not (isinstance(loop.target, cst.Name) and isinstance(it, cst.Call) and isinstance(it.func, cst.Name)
                and it.func.value == "range" and len(it.args) in (1, 2) and loop.orelse is None):
            raise _NotRows("not a range loop")
        start = "0"
        if len(it.args) == 2:
            value = it.args[0].value
            if not (isinstance(value, cst.Integer) and int(value.value, 0) >= 0):
                raise _NotRows("a start other than a literal >= 0")
            start = value.value
        if loop.target.value in _reads(it.args[-1].value):
            raise _NotRows("the stop reads the index")
        return loop.target.value, start, it.args[-1].value

    def arrays(self, j: str, smalls: Sequence[cst.BaseSmallStatement], bound: set[str]) -> set[str]:
        """Each iteration writes elements of its own (`a[…, j, …]`, the rest of the index the same for all),
        reads a written array only there, and reads other arrays only when they are apart from the written.
        Returns the arrays it writes."""
        code = cst.Module([]).code_for_node
        written: dict[str, tuple[str, ...]] = {}
        for small in smalls:
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                [small.target] if isinstance(small, cst.AugAssign) else []
            for target in targets:
                if not isinstance(target, cst.Subscript):
                    continue
                if not isinstance(target.value, cst.Name):
                    raise _NotRows("a write through an expression")
                parts = _index(target)
                if any(p is None for p in parts) or not any(isinstance(p, cst.Name) and p.value == j for p in parts) \
                        or any(set(_reads(p)) & (bound | {j}) for p in parts
                               if not (isinstance(p, cst.Name) and p.value == j)):
                    raise _NotRows("a write not at the iteration's own element")
                self.inner_writes.add(target.value.value)
                text = tuple(code(p) for p in parts)  # type: ignore[arg-type]
                if written.setdefault(target.value.value, text) != text:
                    raise _NotRows("one array written at two places")
        for small in smalls:
            for node in subscripts_in(small):
                if isinstance(node.value, cst.Attribute) and node.value.attr.value == "shape":
                    continue  # a.shape[k]: a number
                if not isinstance(node.value, cst.Name):
                    raise _NotRows("an element of an expression")
                array = node.value.value
                if array in written:
                    if tuple(code(p) if p is not None else "" for p in _index(node)) != written[array]:
                        raise _NotRows("a written array read at another element")
                elif written and not all(self.apart(array, w) for w in written):
                    raise _NotRows(f"'{array}' may share memory with a written array")
        return set(written)

    def reduce(self, acc: str, combine: Callable[[str, str], str], zero: str | None, sm: str,
               line: int | None) -> Stmts:
        """`acc` of the whole block, in every thread: each warp's partials by shuffles, then the warps' in
        warp 0 through `sm` (the simulator has no shuffles: a tree in `sm`, `_WARPS` false). One thread (the
        serial twin) has nothing to combine."""
        t, b, w = self.t, self.b, self.fresh("_w")
        fill = zero if zero is not None else f"{sm}[0]"  # max/min: any partial is neutral

        def shuffle(indent: str) -> str:
            step = combine(acc, f"cuda.shfl_down_sync(0xFFFFFFFF, {acc}, {w})")
            return (f"{indent}{w} = 16\n{indent}while {w} > 0:\n{indent}    {acc} = {step}\n"
                    f"{indent}    {w} //= 2\n")

        text = (f"if {b} > 1:\n"
                "    if _WARPS:\n"
                f"{shuffle(' ' * 8)}"
                f"        if {t} % 32 == 0:\n            {sm}[{t} // 32] = {acc}\n"
                "        cuda.syncthreads()\n"
                f"        if {t} < 32:\n            {acc} = {sm}[{t}] if {t} < {b} // 32 else {fill}\n"
                f"{shuffle(' ' * 12)}"
                f"            if {t} == 0:\n                {sm}[0] = {acc}\n"
                "    else:\n"
                f"        {sm}[{t}] = {acc}\n        {w} = {b} // 2\n        while {w} > 0:\n"
                "            cuda.syncthreads()\n"
                f"            if {t} < {w}:\n                {sm}[{t}] = {combine(f'{sm}[{t}]', f'{sm}[{t} + {w}]')}\n"
                f"            {w} //= 2\n"
                "    cuda.syncthreads()\n"
                f"    {acc} = {sm}[0]\n")
        return [with_origin(s, line) for s in cst.parse_module(text).body]


def _reduction(name: str, smalls: Sequence[cst.BaseSmallStatement], ctx: Context
               ) -> tuple[str, Callable[[str, str], str], str | None] | None:
    """How partials of `name` combine, and the identity other threads start from (None: idempotent, every
    thread starts from the value before the loop), when the loop's one mention of `name` updates it so."""
    uses = [s for s in smalls if name in {n.value for n in reads_in(s)} or name in assigned_names(s)]
    if len(uses) != 1:
        return None
    small = uses[0]
    if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name) and small.target.value == name \
            and type(small.operator) in SUMS and name not in {n.value for n in reads_in(small.value)}:
        op, identity = SUMS[type(small.operator)]
        return op, (lambda a, b: f"({a} {op} {b})"), identity
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
            and small.targets[0].target.value == name and isinstance(small.value, cst.Call)
            and isinstance(small.value.func, cst.Name) and len(small.value.args) == 2):
        return None
    func, (first, second) = small.value.func.value, small.value.args
    if not (isinstance(first.value, cst.Name) and first.value.value == name) \
            or name in {n.value for n in reads_in(second.value)}:
        return None
    if func in ("max", "min") and func not in ctx.module_names:
        return func, (lambda a, b: f"{func}({a}, {b})"), None
    if func in ctx.device_helpers and func in IDEMPOTENT:
        return func, (lambda a, b: f"{func}({a}, {b})"), None
    if func in ctx.device_helpers and func == "add_any_order":
        return "+", (lambda a, b: f"{func}({a}, {b})"), "0"
    return None


def _set_first(name: str, body: Sequence[cst.BaseStatement]) -> bool:
    """`name` is bound by an unconditional statement of the body before anything reads it."""
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign) \
                and any(isinstance(t.target, cst.Name) and t.target.value == name for t in stmt.body[0].targets):
            return name not in _reads(stmt.body[0].value)
        if name in _reads(stmt) or name in assigned_names(stmt):
            return False
    return False


def _live(name: str, after: Sequence[cst.BaseStatement]) -> bool:
    """Whether the statements after a loop may read the value `name` had at its end."""
    for stmt in after:
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign) \
                and any(isinstance(t.target, cst.Name) and t.target.value == name for t in stmt.body[0].targets):
            return name in _reads(stmt.body[0].value)
        if isinstance(stmt, cst.For) and isinstance(stmt.target, cst.Name) and stmt.target.value == name:
            if name in _reads(stmt.iter):
                return True
            continue  # its body reads its own binding; after it, a loop of no iteration leaves the old value
        if isinstance(stmt, cst.If):
            if name in _reads(stmt.test) or _live(name, stmt.body.body) or (  # type: ignore[arg-type]
                    isinstance(stmt.orelse, cst.Else) and _live(name, stmt.orelse.body.body)):  # type: ignore
                return True
            continue
        if name in _reads(stmt):
            return True
    return False


def _all_statements(stmts: Sequence[cst.BaseStatement]) -> list[cst.BaseStatement]:
    out: list[cst.BaseStatement] = []
    for s in stmts:
        out.append(s)
        if isinstance(s, cst.If):
            out += _all_statements(s.body.body)  # type: ignore[arg-type]
            if isinstance(s.orelse, cst.Else):
                out += _all_statements(s.orelse.body.body)  # type: ignore[arg-type]
        elif isinstance(s, cst.For | cst.While):
            out += _all_statements(s.body.body)  # type: ignore[arg-type]
    return out


def _index(sub: cst.Subscript) -> list[cst.BaseExpression | None]:
    """The index's parts, `a[i, j]` and `a[(i, j)]` alike; None for a slice."""
    parts = [e.slice.value if isinstance(e.slice, cst.Index) else None for e in sub.slice]
    if len(parts) == 1 and isinstance(parts[0], cst.Tuple):
        return [e.value for e in parts[0].elements]
    return parts


def _reads(node: cst.CSTNode | str | None) -> list[str]:
    if node is None:
        return []
    if isinstance(node, str):
        node = cst.parse_expression(node)
    return [n.value for n in reads_in(node)]


def _stmt(text: str, line: int | None) -> cst.BaseStatement:
    return with_origin(cst.parse_statement(text), line)
