"""The host side of the CUDA target: a Plan printed as a plain-Python launcher (not jitted) that runs its
regions in order on device arrays, and the module that holds it with its kernels (codegen/cuda.py).

    Alloc        → `name = _rt.empty(shape, dtype)` / `_rt.full(…)`: a device array, sized on the host
    ParallelNest → a grid-stride kernel, launched `_rt.launch(k, _rt.grid(n))(…)` (`k[config]`, or
                   cuvil.profile's timed launch while it times this call); its serial twin (arguments that
                   overlap) is the same kernel on one thread; reductions come back through one-element cells;
                   a nest of two parallel axes is one grid over both (codegen/cuda_collapse.py)
    Serial       → on the host when it touches no array element (scalars, shapes, checks that raise);
                   else a single-thread kernel (a PerformanceWarning names the lines) whose scalars come back
                   in cells
    Control      → its `if`/`for`/`while` header on the host, its regions inside

Data stays on the device between kernels; the call wrapper (runtime/cuda_call.py) copies NumPy arguments in
once and written ones back once. An exception a kernel recorded is raised by the launcher after the launch,
and the call wrapper puts it at the user's line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import libcst as cst

from ..frontend.walk import walk
from ..lower.plan import Alloc, Control, ParallelNest, Plan, Region, Serial, _lines
from ..normalize.names import Fresh, Rename, all_names, assigned_names
from ..normalize.origins import origin_of, with_origin
from .cuda import ATOMIC, Context, Kernel, Stmts, assign, call, free_names, grid_kernel, serial_kernel
from .cuda_checks import Failure
from .cuda_collapse import collapse
from .cuda_flat import flatten, statements
from .cuda_refusals import refuse_unwritable
from .cuda_rows import row_kernel
from .host_ops import HostCopies, has_matmul, host_matmul
from .parallel import parallel_loop

HOST = {"error_slots": "_error_slots", "first_error": "_first_error", "overlaps": "_overlaps",
        "self_overlaps": "_self_overlaps", "error_value": "_error_value",
        "record_error_values": "_record_error_values"}  # the last runs in the kernel
RAISE_OFFSET = 1000  # codes of `raise` statements in kernel code, after codegen/parallel.py's check codes


@dataclasses.dataclass
class Printed:
    launcher: cst.FunctionDef
    kernels: list[Kernel]
    notes: list[str]  # per region, where it runs: for cuvil.explain
    serial_lines: list[tuple[int, int]]  # single-thread kernels: a PerformanceWarning names them
    # kernel → (its Plan region, the region's first and last line): cuvil.profile sets a kernel against its
    # region's cost
    regions: dict[str, tuple[str, int, int]] = dataclasses.field(default_factory=dict)


def _stmt(text: str, line: int | None) -> cst.BaseStatement:
    return with_origin(cst.parse_statement(text), line)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


class _Host:
    def __init__(self, plan: Plan, ctx: Context, scalar_dtype: Callable[[str], str | None], callees: frozenset[str]):
        self.plan, self.ctx, self.scalar_dtype, self.callees = plan, ctx, scalar_dtype, callees
        self.fresh = Fresh(all_names(plan.function) | set(ctx.module_names))
        self.kernels: list[Kernel] = []
        self.notes: list[str] = []
        self.serial_lines: list[tuple[int, int]] = []
        self.regions_of: dict[str, tuple[str, int, int]] = {}
        self.params = [p.name.value for p in plan.function.params.params]
        self.order = list(plan.walk())

    def kernel_name(self, kind: str) -> str:
        return self.fresh(f"{self.plan.name}_{kind}")

    # -- regions -------------------------------------------------------------------------------------------

    def regions(self, block: Sequence[Region], loops: tuple[Control, ...]) -> Stmts:
        out: Stmts = []
        for region in block:
            if isinstance(region, Alloc):
                out.append(self.alloc(region))
            elif isinstance(region, ParallelNest):
                out += self.nest(region)
            elif isinstance(region, Serial):
                out += self.serial(region, loops)
            else:
                inner = (*loops, region) if isinstance(region.statement, cst.For | cst.While) else loops
                stmt = region.statement
                body = stmt.body.with_changes(body=self.regions(region.body, inner) or [cst.SimpleStatementLine(
                    [cst.Pass()])])
                if isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else):
                    orelse = stmt.orelse.with_changes(body=stmt.orelse.body.with_changes(
                        body=self.regions(region.orelse, inner)))
                    out.append(stmt.with_changes(body=body, orelse=orelse))
                else:
                    out.append(stmt.with_changes(body=body))
                self.notes.append(f"{region.id} {_where(region.lines)}: control on the host")
        return out

    def alloc(self, region: Alloc) -> cst.BaseStatement:
        stmt = region.statement
        small = stmt.body[0]  # type: ignore[attr-defined]
        value: cst.Call = small.value
        kind = value.func.attr.value if isinstance(value.func, cst.Attribute) else _code(value.func)
        args = [a for a in value.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in value.args if a.keyword is not None}
        dtype = repr(region.dtype) if region.dtype != "?" else None
        if kind.endswith("_like"):
            base = _code(args[0].value)
            shape = f"{base}.shape"
            dtype = dtype or f"{base}.dtype"
            fill = args[1].value if kind == "full_like" and len(args) > 1 else None
        else:
            shape = region.shape
            fill = args[1].value if kind == "full" and len(args) > 1 else keywords.get("fill_value")
        dtype = dtype or "'float64'"
        base_kind = kind.removesuffix("_like")
        if base_kind == "empty":
            text = f"{region.name} = _rt.empty({shape}, {dtype})"
        else:
            value_text = {"zeros": "0", "ones": "1"}.get(base_kind) or (_code(fill) if fill is not None else "0")
            text = f"{region.name} = _rt.full({shape}, {value_text}, {dtype})"
        self.notes.append(f"{region.id} {_where(region.lines)}: {region.name} allocated on the device")
        return _stmt(text, region.lines[0] if region.lines else None)

    # -- parallel nests --------------------------------------------------------------------------------------

    def nest(self, nest: ParallelNest) -> Stmts:
        reductions = nest.reductions
        if any(op not in ATOMIC or dtype in ("?", "bool", "complex64", "complex128") for _, op, dtype in reductions):
            self.notes.append(f"{nest.id} {_where(nest.lines)}: a reduction without a device atomic, serial")
            return self.as_kernel(Serial(nest.id, nest.lines, (nest.loop,)), (), forced=True)
        printed = parallel_loop(nest.loop, nest.decision, self.fresh, lambda n: HOST.get(n, self.ctx.record_error))
        return self.host_nest(printed, nest, None)

    def host_nest(self, stmts: Sequence[cst.BaseStatement], nest: ParallelNest, serial: str | None) -> Stmts:
        out: Stmts = []
        for stmt in stmts:
            if isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else) and any(
                    _is_prange(s) for s in stmt.orelse.body.body):
                flag = self.fresh("_serial")
                out.append(assign(flag, stmt.test, origin_of(stmt)))
                out += self.host_nest(stmt.orelse.body.body, nest, flag)  # type: ignore[arg-type]
            elif _is_prange(stmt):
                out += self.launch_grid(stmt, nest, serial, stmts)  # type: ignore[arg-type]
            else:
                out.append(stmt)
        return out

    def launch_grid(self, loop: cst.For, nest: ParallelNest, serial: str | None,
                    around: Sequence[cst.BaseStatement]) -> Stmts:
        line = origin_of(loop)
        flat = None if nest.reductions else collapse(loop, self.fresh)
        if flat is not None:  # two parallel axes: one grid over both (codegen/cuda_collapse.py)
            loop = flat[0]
        count = loop.iter.args[0].value  # type: ignore[attr-defined]
        errs = next((s.body[0].targets[0].target.value for s in around  # type: ignore[attr-defined]
                     if isinstance(s, cst.SimpleStatementLine)
                     and isinstance(s.body[0], cst.Assign) and _code(s.body[0].value) == "_error_slots()"), None)
        own_errs = errs or self.fresh("_errs")
        out: Stmts = []
        changed = assigned_names(loop) | {v for v, _, _ in nest.reductions}
        if set(_names([count])) & changed:  # the body rebinds a name of the extent: Python read it once, before
            extent = self.fresh("_extent")
            out.append(assign(extent, count, line))
            count = cst.Name(extent)
        name = self.kernel_name("k")
        rows = None if flat is not None or nest.reductions else row_kernel(
            name, loop, count, self.ctx, self.fresh, own_errs, RAISE_OFFSET, self.scalar_dtype, self.apart(nest))
        if rows is not None:  # a block per row, its threads along the row (codegen/cuda_rows.py)
            kernel, raises, width, reduced = rows
            cells: list[str] = []
            identities: list[str] = []
        else:
            kernel, cells, identities, raises = grid_kernel(name, loop, count, nest.reductions, self.ctx,
                                                            self.fresh, own_errs, RAISE_OFFSET)
        self.kernels.append(kernel)
        self.regions_of[name] = (nest.id, *(nest.lines or (0, 0)))
        if raises and errs is None:
            out.append(_stmt(f"{own_errs} = _error_slots()", line))
        for (_, op, dtype), cell, ident in zip(nest.reductions, cells, identities):
            out.append(_stmt(f"{ident} = _rt.identity({op!r}, {dtype!r})", line))
            out.append(_stmt(f"{cell} = _rt.cell({ident})", line))
        config = f"_rt.grid({_code(count)}{', ' + serial if serial else ''})"
        if rows is not None:
            config = f"_rt.rows({_code(count)}, {width or 'None'}{', ' + serial if serial else ''})"
        out.append(_stmt(f"_rt.launch({name}, {config})({', '.join(kernel.params)})", line))
        for (var, op, _), cell in zip(nest.reductions, cells):
            out.append(_stmt(f"{var} = _rt.combine({op!r}, {var}, _rt.read({cell}))", line))
        out += self.raise_recorded(own_errs, raises)
        if rows is not None:
            self.notes.append(f"{nest.id} {_where(nest.lines)}: grid kernel {name}: block per row, "
                              f"{'256 threads' if width is None else 'up to 256 threads'} along the row"
                              + (f", reduces {', '.join(reduced)} across the block" if reduced else "")
                              + f", {config.replace('_rt.', '')}")
            return out
        self.notes.append(f"{nest.id} {_where(nest.lines)}: grid kernel {name}"
                          + (" over both axes of the nest" if flat is not None else "")
                          + f", {config.replace('_rt.', '')}"
                          + (f", reduces {', '.join(f'{v} {o}' for v, o, _ in nest.reductions)} by atomics"
                             if nest.reductions else ""))
        return out

    def apart(self, nest: ParallelNest) -> Callable[[str, str], bool]:
        """Whether two arrays of the nest never share memory: the launcher checks the pair before the parallel
        launch (the serial twin runs when they do), or one is an array the function allocated (bound once) and
        the other an argument or another such array."""
        checked = {frozenset(pair) for pair in nest.decision.overlap}
        made = self.allocated()
        params = set(self.params)

        def apart(a: str, b: str) -> bool:
            return a != b and (frozenset((a, b)) in checked or (a in made and (b in made or b in params))
                               or (b in made and a in params))

        return apart

    def allocated(self) -> set[str]:
        counts: dict[str, int] = {}
        for node in _assign_targets(flatten(self.plan)):
            counts[node] = counts.get(node, 0) + 1
        return {r.name for r in self.order if isinstance(r, Alloc) and counts.get(r.name) == 1
                and r.name not in self.params}

    def raise_recorded(self, errs: str, raises: Sequence[Failure]) -> Stmts:
        """After a launch: the exception of the code its kernel recorded. A bounds check's message is
        runtime/checks.index's, called again with the index and size the kernel recorded."""
        if not raises:
            return []
        e = self.fresh("_e")
        out: Stmts = [_stmt(f"{e} = _first_error({errs})", raises[0][2])]
        for code, exc, line, raiser in raises:
            again = ""
            if raiser is not None:
                values = [cst.Arg(call("_error_value", cst.Name(errs), cst.Integer(str(k)))) for k in (0, 1)]
                again = f"    {_code(raiser.with_changes(args=[*values, *raiser.args[2:]]))}  # L{line}\n"
            out.append(_stmt(f"if {e} == {code}:\n{again}    raise {_code(exc)}  # L{line}\n", line))
        return out

    # -- serial code -----------------------------------------------------------------------------------------

    def serial(self, region: Serial, loops: tuple[Control, ...]) -> Stmts:
        stmts = list(region.statements)
        tail: Stmts = []
        while stmts and isinstance(stmts[-1], cst.SimpleStatementLine) and isinstance(stmts[-1].body[0], cst.Return) \
                and (not has_matmul(stmts[-1]) or host_matmul(stmts[-1])):  # another `@` goes to a kernel: refused
            tail.insert(0, stmts.pop())
        if not stmts:
            return tail
        refuse_unwritable(stmts, self.scalar_dtype, self.ctx)
        if self.on_host(stmts):
            what = "'@' launched from it" if any(host_matmul(s) for s in stmts) else "scalars only"
            self.notes.append(f"{region.id} {_where(region.lines)}: serial, on the host ({what})")
            return [*stmts, *tail]
        kernel = dataclasses.replace(region, statements=tuple(stmts), lines=_lines(stmts) or region.lines)
        return [*self.as_kernel(kernel, loops, later=set(_names(tail))), *tail]  # the lines the kernel runs

    def on_host(self, stmts: Sequence[cst.BaseStatement]) -> bool:
        """No array element, array method or compiled callee: Python runs it on the host as well as a thread."""
        found = False
        callees, numpy = self.callees, self.ctx.numpy

        class Find(cst.CSTVisitor):
            def visit_MatrixMultiply(self, node: cst.MatrixMultiply) -> None:
                nonlocal found
                found = True

            def visit_Subscript(self, node: cst.Subscript) -> None:
                nonlocal found
                value = node.value
                if not (isinstance(value, cst.Attribute) and value.attr.value == "shape") \
                        and not isinstance(value, cst.Tuple):
                    found = True

            def visit_Call(self, node: cst.Call) -> None:
                nonlocal found
                func = node.func
                if isinstance(func, cst.Name) and func.value in callees:
                    found = True
                if isinstance(func, cst.Attribute) and not (isinstance(func.value, cst.Name)
                                                            and func.value.value in (numpy, "math")):
                    found = True

        for s in stmts:
            if not host_matmul(s):
                walk(s, Find())
        return not found

    def as_kernel(self, region: Serial, loops: tuple[Control, ...], forced: bool = False,
                  later: set[str] | None = None) -> Stmts:
        stmts = list(region.statements)
        line = region.lines[0] if region.lines else None
        if _escapes_block(stmts):  # a break/continue of a host loop: the host runs it
            self.notes.append(f"{region.id} {_where(region.lines)}: serial, on the host (leaves a host loop)")
            return stmts
        written = assigned_names(cst.Module(stmts))  # type: ignore[arg-type]
        before = self.before(region, loops)
        after = self.read_elsewhere(region) | (set(_names(stmts)) if loops else set()) | (later or set())
        fresh_here = _set_first(stmts)
        live_in = [n for n in _names(stmts) if n in before and n not in self.ctx.module_names | fresh_here]
        live_out = [n for n in sorted(written) if n in after]
        dtypes = {n: self.scalar_dtype(n) for n in live_out}
        if any(d is None for d in dtypes.values()):
            unknown = next(n for n, d in dtypes.items() if d is None)
            self.notes.append(f"{region.id} {_where(region.lines)}: serial, on the host ('{unknown}' is not a "
                              "scalar a kernel can hand back)")
            return stmts
        errs = self.fresh("_errs")
        name = self.kernel_name("serial")
        kernel, cells, failures = serial_kernel(name, stmts, live_in, live_out, self.ctx, errs, region.lines,
                                                RAISE_OFFSET, self.fresh)
        self.kernels.append(kernel)
        self.regions_of[name] = (region.id, *(region.lines or (0, 0)))
        if region.lines:
            self.serial_lines.append(region.lines)
        self.notes.append(f"{region.id} {_where(region.lines)}: serial kernel {name} on one GPU thread"
                          + (" (a reduction without a device atomic)" if forced else ""))
        out: Stmts = [_stmt(f"{errs} = _error_slots()", line)]
        out += [_stmt(f"{c} = _rt.empty_cell({dtypes[n]!r})", line) for c, n in zip(cells, live_out)]
        out.append(_stmt(f"_rt.launch({name}, (1, 1))({', '.join(kernel.params)})", line))
        out += self.raise_recorded(errs, failures)
        out += [_stmt(f"{n} = _rt.read({c})", line) for c, n in zip(cells, live_out)]
        return out

    def before(self, region: Region, loops: tuple[Control, ...]) -> set[str]:
        """Names that may hold a value when `region` starts: parameters, names bound by earlier regions, and
        in a loop every name its body binds."""
        names = set(self.params)
        for r in self.order:
            if r.id == region.id:
                break
            names |= _bound(r)
        for loop in loops:
            names |= assigned_names(loop.statement)
        return names

    def read_elsewhere(self, region: Region) -> set[str]:
        names: set[str] = set()
        for r in self.order:
            if r.id != region.id:
                names |= set(_names(statements(r)))
        return names


def _assign_targets(node: cst.CSTNode) -> list[str]:
    """Every name bound in `node`, once per binding (a name bound twice is listed twice)."""
    from ..normalize.names import bound_names

    found: list[str] = []

    class Find(cst.CSTVisitor):
        def visit_AssignTarget(self, target: cst.AssignTarget) -> None:
            found.extend(sorted(bound_names(target.target)))

        def visit_AugAssign(self, aug: cst.AugAssign) -> None:
            found.extend(sorted(bound_names(aug.target)))

        def visit_For(self, loop: cst.For) -> None:
            found.extend(sorted(bound_names(loop.target)))

    walk(node, Find())
    return found


def _is_prange(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.For) and _code(stmt.iter).startswith("numba.prange(")


def _bound(region: Region) -> set[str]:
    if isinstance(region, Alloc):
        return {region.name}
    if isinstance(region, Control):
        return assigned_names(region.statement) if isinstance(region.statement, cst.For) else set()
    return assigned_names(cst.Module(list(statements(region))))  # type: ignore[arg-type]


def _names(stmts: Sequence[cst.CSTNode]) -> list[str]:
    from ..cfg.uses import reads_in

    return list(dict.fromkeys(n.value for s in stmts for n in reads_in(s)))


def _set_first(stmts: Sequence[cst.BaseStatement]) -> set[str]:
    """The names `stmts` assign, unconditionally, before anything reads them: their values from before (a host
    loop's previous iteration, say) are not the kernel's to take, and may not exist on the first iteration."""
    seen: set[str] = set()
    first: set[str] = set()
    for stmt in stmts:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if isinstance(small, cst.Assign) and all(isinstance(t.target, cst.Name) for t in small.targets):
            seen |= set(_names([small.value]))
            targets = {t.target.value for t in small.targets}  # type: ignore[attr-defined]
            first |= targets - seen
            seen |= targets
        else:
            seen |= set(_names([stmt])) | assigned_names(cst.Module([stmt]))  # type: ignore[list-item]
    return first


def _escapes_block(stmts: Sequence[cst.BaseStatement]) -> bool:
    """A `break` or `continue` outside any loop of `stmts`: it belongs to a loop around them."""
    found = False

    class Find(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> bool:
            return False

        def visit_While(self, node: cst.While) -> bool:
            return False

        def visit_Break(self, node: cst.Break) -> None:
            nonlocal found
            found = True

        def visit_Continue(self, node: cst.Continue) -> None:
            nonlocal found
            found = True

    for s in stmts:
        walk(s, Find())
    return found


def _where(lines: tuple[int, int] | None) -> str:
    if lines is None:
        return "L?"
    return f"L{lines[0]}" if lines[0] == lines[1] else f"L{lines[0]}-L{lines[1]}"


def print_launcher(plan: Plan, ctx: Context, scalar_dtype: Callable[[str], str | None],
                   callees: frozenset[str], host_renames: dict[str, str]) -> Printed:
    host = _Host(plan, ctx, scalar_dtype, callees)
    body = host.regions(plan.regions, ())
    launcher = plan.function.with_changes(body=plan.function.body.with_changes(body=body))
    launcher = launcher.visit(HostCopies())  # type: ignore[assignment]
    if host_renames:
        # The CPU helpers under their host names (the module's plain names are the device twins).
        launcher = launcher.visit(Rename(host_renames))  # type: ignore[assignment]
    return Printed(launcher, host.kernels, host.notes, host.serial_lines, host.regions_of)


__all__ = ["Printed", "call", "free_names", "print_launcher"]
