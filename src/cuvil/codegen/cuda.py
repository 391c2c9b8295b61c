"""CUDA kernels from a Plan's regions: grid-stride kernels for parallel nests, single-thread kernels for serial
code that touches arrays (codegen/launch.py launches them in plan order and decides what runs on the host).

    for i in range(len(x)):               @cuda.jit
        v = x[i]                          def gelu_k0(out, x):  # L17
        out[i] = 0.5 * v * …                  for i in range(cuda.grid(1), len(x), cuda.gridsize(1)):  # L17
                                                  v = x[i]  # L18
                                                  out[i] = 0.5 * v * …  # L19

A reduction variable is a thread's private partial, started from the operator's identity (an argument, typed
on the host); after the loop a block reduces the partials in shared memory and one thread adds (or maxes, mins)
the block's result into a one-element device array with an atomic, which the launcher combines with the
variable's value before the loop. Statements that may raise test first and record an error code: in a grid
kernel codegen/parallel.py's checks, in a single-thread kernel codegen/cuda_checks.py's (with the recording
twins of runtime/cuda_checks.py where no condition describes the failure); a `raise` left in kernel code
records too. The launcher raises what the code stands for, at the user's line.
"""

from __future__ import annotations

import builtins
import dataclasses
from collections.abc import Callable, Mapping, Sequence

import libcst as cst

from ..cfg.effects import Calls
from ..cfg.uses import reads_in
from ..errors import CuvilSyntaxError
from ..library.numpy import DIVISIONS, DOMAINS, MATH_RAISES, OVERFLOWS, math_name
from ..normalize.names import Fresh, assigned_names
from ..normalize.origins import origin_of, with_origin
from .cuda_checks import Failure, SerialChecks
from .cuda_jam import jam, jammable

Stmts = list[cst.BaseStatement]
BUILTINS = frozenset(dir(builtins))
# np.<ufunc>(scalar) has no CUDA implementation in numba-cuda 0.30; math's has, with NumPy's result types
# for float32 and float64 operands.
NP_TO_MATH = {"exp": "exp", "log": "log", "sqrt": "sqrt", "sin": "sin", "cos": "cos", "tan": "tan",
              "tanh": "tanh", "sinh": "sinh", "cosh": "cosh", "arcsin": "asin", "arccos": "acos",
              "arctan": "atan", "arctan2": "atan2", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
              "log10": "log10", "log2": "log2", "log1p": "log1p", "expm1": "expm1", "hypot": "hypot"}
NP_SCALARS = frozenset({"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
                        "uint32", "uint64", "bool_", "complex64", "complex128", "inf", "nan", "pi", "e"})
ATOMIC = {"+": "add", "-": "add", "max": "max", "min": "min"}


@dataclasses.dataclass(frozen=True)
class Kernel:
    name: str
    kind: str  # "grid" (a parallel nest) or "serial" (one thread)
    params: tuple[str, ...]
    function: cst.FunctionDef
    lines: tuple[int, int] | None
    reductions: tuple[tuple[str, str, str], ...] = ()  # (variable, operator, dtype) reduced by atomics

    def source(self) -> str:
        """With numba-cuda's disk cache when the module is a file of a cache entry (`_CACHE`,
        runtime/cuda_runtime.disk_cache): its machine code, per compute capability, beside the module."""
        return "@cuda.jit(cache=_CACHE)\n" + cst.Module([self.function]).code


@dataclasses.dataclass
class Context:
    """What kernels need of their module: its global names (not arguments), the numpy module's name in it,
    the user's file (errors), and the names of the device error helper."""

    module_names: frozenset[str]
    numpy: str
    math: str
    filename: str
    source_line: Callable[[int], str]
    record_error: str
    device_helpers: frozenset[str]  # module names that have a device twin (runtime/cuda_device.py)
    host_only: frozenset[str] = frozenset()  # module names kernels cannot call (the user's njit helpers …)
    calls: Calls | None = None  # what each call may raise (cfg/effects.py): single-thread kernels' checks
    # module name → Cuvil's own helper it binds: a refusal names the user's construct the helper stands for
    # (HELPER_CONSTRUCTS), never the helper
    helpers: Mapping[str, str] = dataclasses.field(default_factory=dict)


# What the user wrote that the lowering turned into a call of one of Cuvil's helpers without a device form.
HELPER_CONSTRUCTS = {
    "inplace_value": "an in-place update whose operands may overlap or broadcast (`x[1:] += x[:-1]`)",
    "unshared": "an in-place update whose operands may overlap (`x[1:] += x[:-1]`)",
    "ufunc_out": "a NumPy function's out= array", "check_operands": "a NumPy function's out= array",
    "python_int_as": "a Python int combined with or stored into an integer array",
    "python_float_as": "a float stored into an integer array (or given to an integer dtype)",
    "numpy_int_as": "a NumPy integer stored into a narrower integer array",
    "clip_low": "np.clip with a Python int bound", "clip_high": "np.clip with a Python int bound",
}
CHECKED_FITS = frozenset({"python_int_as", "python_float_as", "numpy_int_as"})  # kernels record their failures
# runtime/pyint.py's and pymath.py's helpers that raise (codegen/cuda_checks.OUTCOMES names their errors)
CHECKED_INTS = frozenset({*OVERFLOWS, *DIVISIONS, "absolute", "power", "lshift", "floordiv", "to_int", "round_int",
                          "round_int_ndigits", "as_index"})
CHECKED_MATH = frozenset({*DOMAINS, *MATH_RAISES})


def _line(small: cst.BaseSmallStatement, line: int | None) -> cst.SimpleStatementLine:
    return with_origin(cst.SimpleStatementLine([small]), line)


def assign(name: str, value: cst.BaseExpression, line: int | None) -> cst.SimpleStatementLine:
    return _line(cst.Assign([cst.AssignTarget(cst.Name(name))], value), line)


def call(func: str | cst.BaseExpression, *args: cst.BaseExpression) -> cst.Call:
    f = cst.parse_expression(func) if isinstance(func, str) else func
    return cst.Call(f, [cst.Arg(a) for a in args])


def free_names(nodes: Sequence[cst.CSTNode], ctx: Context, bound: set[str]) -> list[str]:
    """Names the nodes read that neither they bind nor the module holds, in order of first use."""
    seen: list[str] = []
    for node in nodes:
        for name in reads_in(node):
            v = name.value
            if v not in bound and v not in ctx.module_names and v not in BUILTINS and v not in seen:
                seen.append(v)
    return seen


class DeviceCode(cst.CSTTransformer):
    """Kernel statements as numba.cuda takes them: `np.exp(v)` → `math.exp(v)`; a NumPy call left as written
    (an array operation the Plan could not lower) is a CuvilSyntaxError at its line; `raise` records its error
    code (and leaves the thread when it may)."""

    def __init__(self, ctx: Context, errs: str | None, iteration: cst.BaseExpression, can_return: bool,
                 offset: int = 0):
        super().__init__()
        self.ctx, self.errs, self.iteration, self.can_return = ctx, errs, iteration, can_return
        self.offset = offset
        self.raises: list[Failure] = []  # (code, exception, line, None)
        self.line: int | None = None

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.line = origin_of(node) or self.line

    def visit_If(self, node: cst.If) -> None:
        self.line = origin_of(node) or self.line

    def visit_List(self, node: cst.List) -> None:
        self.refuse("a list cannot be built inside a CUDA kernel (a list needs the heap)",
                    "use a tuple, or an array passed in, or compile this function with target='cpu'")

    def visit_Dict(self, node: cst.Dict) -> None:
        self.heap("dict")

    def visit_Set(self, node: cst.Set) -> None:
        self.heap("set")

    def heap(self, kind: str) -> None:
        self.refuse(f"a {kind} cannot be built inside a CUDA kernel (a {kind} needs the heap)",
                    "use an array passed in, or compile this function with target='cpu'")

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
                and func.value.value == self.ctx.numpy:
            attr = func.attr.value
            if attr in NP_TO_MATH:
                return updated.with_changes(func=cst.Attribute(cst.Name(self.ctx.math), cst.Name(NP_TO_MATH[attr])))
            if attr in NP_SCALARS:
                return updated
            self.refuse(f"np.{attr} cannot run inside a CUDA kernel: Cuvil could not turn it into loops",
                        "write it as a loop over the elements, or compile this function with target='cpu'")
        called = func.value if isinstance(func, cst.Name) else None
        if called in ("set", "dict") and not updated.args:  # a comprehension's `set()` (normalize/comprehensions.py)
            self.heap(called)
        full = self.ctx.helpers.get(called) if called is not None else None
        helper = full.rsplit(".", 1)[1] if full is not None else None
        if self.errs is None and full is not None:  # a device function has no error slot to record in
            self.unreported(full, len(updated.args))
        if helper is not None and called in self.ctx.host_only:
            what = HELPER_CONSTRUCTS.get(helper, "an operation of this line")
            self.refuse(f"{what} cannot run inside a CUDA kernel: Cuvil has no device form of it",
                        "write it as a loop over the elements, or compile this function with target='cpu'")
        if isinstance(func, cst.Name) and func.value in self.ctx.host_only:
            self.refuse(f"'{func.value}' cannot be called inside a CUDA kernel",
                        "call a plain Python function (Cuvil compiles it for the device) instead")
        if isinstance(func, cst.Attribute) and func.attr.value in ("copy", "sum", "max", "min", "mean", "astype",
                                                                  "reshape", "ravel", "fill", "prod"):
            self.refuse(f".{func.attr.value}() of an array cannot run inside a CUDA kernel",
                        "write it as a loop over the elements, or compile this function with target='cpu'")
        return updated

    def unreported(self, helper: str, count: int) -> None:
        """A check in a function called from a kernel: it has no error slot to record a failure in, so what
        Python or NumPy would raise there is refused at the line instead of computed another way."""
        module, name = helper.rsplit(".", 1)
        hint = "compute it in the calling function, or compile this function with target='cpu'"
        if module == "cuvil.runtime.elementwise" and name in CHECKED_FITS:
            what = f"{HELPER_CONSTRUCTS[name]} is checked as NumPy checks it (an error where it does not fit)"
        elif module == "cuvil.runtime.pyint" and name in CHECKED_INTS and (count == 2 or name not in (
                "add", "sub", "mul")):
            what = "Python's int arithmetic is checked as Python checks it (OverflowError beyond int64, " \
                   "ZeroDivisionError)"
            hint = "compute it in the calling function, pass overflow=\"wrap\" to cuvil.jit for int64 wrap-around, " \
                   "or compile this function with target='cpu'"
        elif module == "cuvil.runtime.pymath" and name in CHECKED_MATH:
            what = f"{math_name(name)} is checked as Python checks it (its ValueError or OverflowError)"
        else:
            return
        self.refuse(f"{what}, which a function called from a CUDA kernel cannot report", hint)

    def leave_BinaryOperation(self, original: cst.BinaryOperation,
                              updated: cst.BinaryOperation) -> cst.BaseExpression:
        if isinstance(updated.operator, cst.MatrixMultiply):
            self.refuse("'@' (a matrix product) cannot run inside a CUDA kernel",
                        "write the product as loops, or compile this function with target='cpu'")
        return updated

    def refuse(self, message: str, hint: str) -> None:
        line = self.line or 1
        text = self.ctx.source_line(line)
        raise CuvilSyntaxError(message, self.ctx.filename, line, len(text) - len(text.lstrip()) + 1, text, hint)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine,
                                  updated: cst.SimpleStatementLine) -> cst.BaseStatement:
        small = updated.body[0]
        if not isinstance(small, cst.Raise) or small.exc is None or self.errs is None:
            return updated  # a device function: numba.cuda ignores its raise (it has no error slot)
        line = origin_of(original)
        code = self.offset + len(self.raises) + 1
        self.raises.append((code, small.exc, line, None))
        record = [_line(cst.Expr(call(self.ctx.record_error, cst.Name(self.errs), self.iteration,
                                      cst.Integer(str(code)))), line)]
        if self.can_return:
            record.append(_line(cst.Return(), line))
        return cst.FlattenSentinel(record)  # type: ignore[return-value]


def block_reduction(var: str, op: str, dtype: str, cell: str, fresh: Fresh, numpy: str,
                    line: int | None) -> Stmts:
    """The block's partials of `var` reduced in shared memory, then one atomic into `cell`."""
    sm, t, w = fresh("_sm"), fresh("_t"), fresh("_w")
    combine = f"{sm}[{t}] + {sm}[{t} + {w}]" if op in ("+", "-") else f"{op}({sm}[{t}], {sm}[{t} + {w}])"
    text = (f"{sm} = cuda.shared.array(256, {numpy}.{dtype})\n"
            f"{t} = cuda.threadIdx.x\n"
            f"{sm}[{t}] = {var}\n"
            "cuda.syncthreads()\n"
            f"{w} = cuda.blockDim.x // 2\n"
            f"while {w} > 0:\n"
            f"    if {t} < {w}:\n"
            f"        {sm}[{t}] = {combine}\n"
            "    cuda.syncthreads()\n"
            f"    {w} //= 2\n"
            f"if {t} == 0:\n"
            f"    cuda.atomic.{ATOMIC[op]}({cell}, 0, {sm}[0])\n")
    return [with_origin(s, line) for s in cst.parse_module(text).body]


Raised = list[Failure]  # (code, exception, the user's line, the call that raises it again with the values)


def grid_kernel(name: str, loop: cst.For, count: cst.BaseExpression, reductions: Sequence[tuple[str, str, str]],
                ctx: Context, fresh: Fresh, errs: str, offset: int) -> tuple[Kernel, list[str], list[str], Raised]:
    """The kernel of a parallel loop `for k in prange(count)` (codegen/parallel.py's form, checks included).
    Returns the kernel, the cell names of its atomic reductions and of their identities (in order), and the
    codes of the `raise` statements in its body."""
    line = origin_of(loop)
    assert isinstance(loop.target, cst.Name) and isinstance(loop.body, cst.IndentedBlock)
    k = loop.target.value
    cells, identities = [], []
    device = DeviceCode(ctx, errs, cst.Name(k), can_return=not reductions, offset=offset)
    body = [s.visit(device) for s in loop.body.body]
    head: Stmts = []
    tail: Stmts = []
    for var, op, dtype in reductions:
        cell, ident = fresh(f"_cell_{var.strip('_')}"), fresh(f"_id_{var.strip('_')}")
        cells.append(cell)
        identities.append(ident)
        head.append(assign(var, cst.Name(ident), line))
        tail += block_reduction(var, op, dtype, cell, fresh, ctx.numpy, line)
    rng = call("range", call("cuda.grid", cst.Integer("1")), count, call("cuda.gridsize", cst.Integer("1")))
    kernel_loop = loop.with_changes(iter=rng, body=loop.body.with_changes(body=body))
    if jammable(body) and not device.raises:  # UNROLL iterations at once: loads in flight (codegen/cuda_jam.py)
        keep = frozenset(var for var, _, _ in reductions)
        stmts = [*head, *jam(kernel_loop, count, keep, fresh), *tail]
    else:
        stmts = [*head, kernel_loop, *tail]
    module = cst.Module(stmts)  # type: ignore[arg-type]
    bound = assigned_names(module) | {var for var, _, _ in reductions} | {k}
    params = free_names(stmts, ctx, bound)
    params = [p for p in params if p not in cells and p not in identities] + cells + identities
    if device.raises and errs not in params:
        params.append(errs)
    _messages_on_the_host(device.raises, bound, ctx)
    fn = _function(name, params, stmts, line)
    kernel = Kernel(name, "grid", tuple(params), fn, (line, line) if line else None, tuple(reductions))
    return kernel, cells, identities, device.raises


def serial_kernel(name: str, stmts: Sequence[cst.BaseStatement], live_in: Sequence[str],
                  live_out: Sequence[str], ctx: Context, errs: str, lines: tuple[int, int] | None,
                  offset: int, fresh: Fresh) -> tuple[Kernel, list[str], Raised]:
    """One thread runs `stmts` in order, each statement that may raise tested first (codegen/cuda_checks.py);
    the scalars the host needs after it come back in one-element cells."""
    checked = list(stmts)
    failures: Raised = []
    if ctx.calls is not None:
        checks = SerialChecks(ctx.calls, errs, fresh, ctx.record_error, "_record_error_values")
        checked = checks.block(stmts)
        failures = checks.failures
        assert len(failures) < offset, "more checks in one kernel than error codes below the raises'"
    device = DeviceCode(ctx, errs, cst.Integer("0"), can_return=True, offset=offset)
    body = [s.visit(device) for s in checked]
    cells = [f"_out_{n}" for n in live_out]
    line = lines[0] if lines else None
    body += [_line(cst.Assign([cst.AssignTarget(cst.Subscript(cst.Name(c), [cst.SubscriptElement(
        cst.Index(cst.Integer("0")))]))], cst.Name(n)), line) for c, n in zip(cells, live_out)]
    module = cst.Module(body)  # type: ignore[arg-type]
    params = [*live_in, *[p for p in free_names(body, ctx, set(live_in) | assigned_names(module))],  # type: ignore
              *cells]
    params = list(dict.fromkeys([*params, errs]))
    _messages_on_the_host(device.raises, assigned_names(module), ctx)
    return Kernel(name, "serial", tuple(params), _function(name, params, body, line),  # type: ignore[arg-type]
                  lines), cells, [*failures, *device.raises]


def _messages_on_the_host(raises: Raised, bound: set[str], ctx: Context) -> None:
    """A kernel records which `raise` ran; the host raises it after the kernel, so its arguments may hold only
    what the host has: a value the kernel computes (`raise ValueError(f"bad {x[i]}")`) is refused, where it
    was a NameError on the host."""
    for _, exc, line, _ in raises:
        args = exc.args if isinstance(exc, cst.Call) else ()
        used = sorted({n.value for a in args for n in _names(a.value)} & bound)
        if used:
            at = line or 1
            text = ctx.source_line(at)
            raise CuvilSyntaxError(
                f"a 'raise' in a GPU kernel whose message holds a value the kernel computes ({', '.join(used)}) "
                "is not supported", ctx.filename, at, len(text) - len(text.lstrip()) + 1, text,
                "raise with a message of constants and arguments on target='cuda', or compile with target='cpu'")


def _names(node: cst.CSTNode) -> list[cst.Name]:
    if isinstance(node, cst.Name):
        return [node]
    if isinstance(node, cst.Attribute):
        return _names(node.value)
    return [n for child in node.children for n in _names(child)]


def _function(name: str, params: Sequence[str], body: Stmts, line: int | None) -> cst.FunctionDef:
    fn = cst.FunctionDef(cst.Name(name), cst.Parameters([cst.Param(cst.Name(p)) for p in params]),
                         cst.IndentedBlock(body or [cst.SimpleStatementLine([cst.Pass()])]))
    return with_origin(fn, line)
