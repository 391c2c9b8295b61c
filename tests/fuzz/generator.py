"""`programs()`: a hypothesis strategy of whole modules inside Cuvil's subset (DESIGN.md §3), each with the
strategy of inputs it is defined on.

A program is module constants, a few plain helpers, and `f(a, b, n)`: `a` and `b` 1-D int64 or float64 arrays
(sometimes of one shared length), `n` a small int. By construction it never raises, never indexes out of
bounds, always terminates, keeps every int inside int64 and every float finite, and assigns every local before
any read (all locals are initialized first). So any difference between two ways of running it is a bug in one
of them, never undefined behaviour. Source text is built directly: it is what the user would have written.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import strategies as st

from cuvil.testing import arrays, inputs, scalars

from .scope import FLOAT_VAR, INT_VAR, Array, Ctx, Helper, Scope
from .statements import INDENT, Statements

DTYPES = {"i": "int64", "f": "float64"}
INPUT_BOUND = {"i": 1000, "f": 1e3}  # cuvil.testing's default elements
HELPER_TRIPS = 20


@dataclasses.dataclass(frozen=True)
class Program:
    source: str
    a_kind: str
    b_kind: str
    same_length: bool
    name: str = "f"

    def inputs(self, like: tuple[Any, ...] | None = None) -> st.SearchStrategy[tuple[Any, ...]]:
        """Arguments of drawn sizes, or of the sizes of the arguments `like` (new values, the same guard)."""
        dims = ("m",), ("m",) if self.same_length else ("k",)
        sizes: Any = st.integers(0, 12) if like is None else {"m": len(like[0]), "k": len(like[1])}
        return inputs(arrays(DTYPES[self.a_kind], dims[0]), arrays(DTYPES[self.b_kind], dims[1]),
                      scalars(int, -3, 20), dims=sizes)

    def __repr__(self) -> str:  # hypothesis prints this for a failing example: show the program itself
        return (f"Program(a={DTYPES[self.a_kind]}, b={DTYPES[self.b_kind]}, same_length={self.same_length}):\n"
                f"{self.source}")

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis's printer asks for this first
        printer.text(repr(self))


@st.composite
def programs(draw: Any, max_statements: int = 16) -> Program:
    base = Scope(draw)
    a_kind, b_kind = base.pick(["f", "i"]), base.pick(["f", "i"])
    same_length = base.coin(0.4)
    header = ["import math", "", "import numpy as np", "", "import cuvil", ""]
    constants = constants_for(base)
    header += [f"{name} = {text}" for name, text in constants] + [""]
    helpers: list[Helper] = []
    functions: list[str] = []
    for number in range(base.pick([0, 1, 2, 1, 3])):
        helper, text = helper_function(draw, base, helpers, number)
        helpers.append(helper)
        functions += ["", *text]
    main = main_function(draw, base, helpers, a_kind, b_kind, same_length, max_statements)
    source = "\n".join(header + functions + ["", *main]).strip("\n") + "\n"
    return Program(source, a_kind, b_kind, same_length)


def constants_for(s: Scope) -> list[tuple[str, str]]:
    out = [("K0", s.pick(["7", "-3", "2"])), ("F0", s.pick(["0.25", "-1.5", "3.0"]))]
    s.constants_ = [("K0", "i", 7), ("F0", "f", 3.0)]
    if s.coin(0.5):
        values = tuple(s.pick([3, -2, 5, 0]) for _ in range(s.pick([2, 3])))
        s.tuple_const = ("T0", values)
        out.append(("T0", repr(values)))
    if s.coin(0.5):
        s.arrays["W0"] = Array("W0", "f", "L3", False, 2.0, (3,))
        out.append(("W0", "np.array([0.5, -1.5, 2.0])"))
        out.append(("W0.flags.writeable", "False"))  # a constant, as Cuvil compiles it in (else it warns)
    return out


def new_scope(draw: Any, base: Scope, helpers: list[Helper], max_trips: int) -> Scope:
    s = Scope(draw, max_trips)
    s.constants_, s.tuple_const, s.helpers = base.constants_, base.tuple_const, list(helpers)
    s.arrays = {n: a for n, a in base.arrays.items() if n == "W0"}
    return s


def locals_for(s: Scope, ints: int, floats: int) -> None:
    for k in range(ints):
        s.declare(f"k{k}", "i", s.literal("i"))
    for k in range(floats):
        s.declare(f"x{k}", "f", s.literal("f"))


def base_ctx(s: Scope, nonempty: frozenset[str] = frozenset()) -> Ctx:
    fixed = {a.group for a in s.arrays.values() if a.shape} | {f"{a.name}.cols" for a in s.arrays.values()
                                                                 if a.ndim == 2}
    return Ctx(nonempty=frozenset(fixed) | nonempty)


def function_text(signature: str, s: Scope, body: list[str], prelude: list[str] = ()) -> list[str]:
    inits = [f"{name} = {value}" for name, value in s.inits.items()]
    return [signature, *[INDENT + line for line in [*inits, *prelude, *body]]]


def helper_function(draw: Any, base: Scope, helpers: list[Helper], number: int) -> tuple[Helper, list[str]]:
    s = new_scope(draw, base, helpers, HELPER_TRIPS)
    kind = s.pick(["f", "i", "pair", "writer"])
    name = {"f": "h", "i": "g", "pair": "p", "writer": "fill"}[kind] + str(number)
    params, kinds = {"f": (("x", "k"), ("f", "i")), "i": (("k", "x"), ("i", "f")), "pair": (("x", "y"), ("f", "f")),
                     "writer": (("out", "v"), ("array", "f"))}[kind]
    default = None
    if kind in ("f", "i") and s.coin(0.5):
        default = s.literal(kinds[-1])
    for p, k in zip(params, kinds):
        if k == "array":
            s.arrays[p] = Array(p, "f", "out", True, FLOAT_VAR)
        else:
            s.bounds[p] = (k, INT_VAR if k == "i" else FLOAT_VAR)
            s.assignable.add(p)
    s.counts = [f"abs({p}) % 5" for p, k in zip(params, kinds) if k == "i"] or ["3"]
    locals_for(s, 1, 1)
    returns = {"f": ("f",), "i": ("i",), "pair": ("f", "i"), "writer": ()}[kind]
    gen = Statements(s, returns)
    s.stmts_left = s.pick([1, 2, 3, 4])
    ctx = base_ctx(s)
    body = []
    if kind == "writer":  # the one loop every writer has: fill `out` from `v`
        value = gen.bounded(gen.float_expr(Ctx(ctx.nonempty | {"out"}, (("i", frozenset({"out"})),), True,
                                                frozenset({"i"}), HELPER_TRIPS, 1)), "f")
        s.declare("i", "i", "0", 64, assignable=False)
        body += ["for i in range(len(out)):", f"{INDENT}out[i] = {value.text}"]
    body += gen.block(ctx, s.stmts_left)
    if kind != "writer":
        body.append(gen.return_stmt(ctx))
    bound = max(INT_VAR, FLOAT_VAR)  # returns are clamped like assignments
    signature = ", ".join(params) + (f"={default}" if default is not None else "")
    cost = HELPER_TRIPS * (HELPER_TRIPS if helpers else 1)
    helper = Helper(name, params, kinds, default, kind, bound, cost)
    decorator = ["@cuvil.jit"] if s.coin(0.25) else []  # decorated callees compile with the entry point too
    return helper, decorator + function_text(f"def {name}({signature}):", s, body)


def main_function(draw: Any, base: Scope, helpers: list[Helper], a_kind: str, b_kind: str, same_length: bool,
                  max_statements: int) -> list[str]:
    s = new_scope(draw, base, helpers, 4000)
    write_b = s.coin(0.2)
    s.arrays["a"] = Array("a", a_kind, "a", False, INPUT_BOUND[a_kind])
    b_bound = (FLOAT_VAR if b_kind == "f" else INT_VAR) if write_b else INPUT_BOUND[b_kind]
    s.arrays["b"] = Array("b", b_kind, "a" if same_length else "b", write_b, b_bound)
    s.bounds["n"] = ("i", 20)
    params = "a, b, n"
    if s.coin(0.2):
        params += ", d=3"
        s.bounds["d"] = ("i", 3)
    s.counts = ["n", "min(n, 6)", "max(n, 0) % 5"]
    locals_for(s, s.pick([1, 2, 3]), s.pick([1, 2, 3]))
    prelude = local_arrays(s, a_kind, b_kind)
    returns = return_spec(s)
    gen = Statements(s, returns)
    s.stmts_left = s.pick(range(3, max_statements + 1))
    ctx = base_ctx(s)
    body = []
    if s.coin(0.3):
        guarded = s.pick([("len(a) == 0", {"a"}), ("len(a) == 0 or len(b) == 0", {"a", s.arrays["b"].group}),
                          ("len(b) < 1", {s.arrays["b"].group})])
        body += [f"if {guarded[0]}:", INDENT + gen.return_stmt(ctx)]
        ctx = base_ctx(s, frozenset(guarded[1]))
    if s.coin(0.2):
        body += maybe_unassigned(gen, ctx)
    body += gen.block(ctx, s.stmts_left)
    body.append(gen.return_stmt(ctx))
    return function_text(f"def f({params}):", s, body, prelude)


def maybe_unassigned(gen: Statements, ctx: Ctx) -> list[str]:
    """`z0`, assigned only when a condition holds: every later read has a path that assigns it, so Cuvil
    compiles the function, and must raise UnboundLocalError on the inputs where Python does."""
    s = gen.scope
    kind = s.pick(["f", "i"])
    lines = [f"if {gen.cond(ctx)}:", f"{INDENT}z0 = {gen.bounded(gen.expr(kind, ctx), kind).text}"]
    s.bounds["z0"] = (kind, INT_VAR if kind == "i" else FLOAT_VAR)  # readable and assignable, never initialized
    s.assignable.add("z0")
    return lines


def local_arrays(s: Scope, a_kind: str, b_kind: str) -> list[str]:
    """Allocate 1-3 local arrays (in the inits) and return the statements that fill the uninitialized ones."""
    b_group = s.arrays["b"].group
    options = [("a.copy()", a_kind, "a", ()), ("b.copy()", b_kind, b_group, ()), ("np.zeros(len(b))", "f", b_group, ()),
               ("np.zeros(len(a), dtype=np.int64)", "i", "a", ()), ("np.full(4, 1.5)", "f", "L4", (4,)),
               ("np.ones(3)", "f", "L3", (3,)), ("np.zeros_like(b)", b_kind, b_group, ()),
               ("np.empty(len(a))", "f", "a", ()), ("np.empty_like(b)", b_kind, b_group, ()),
               ("np.zeros((2, 3))", "f", "g", (2, 3)), ("np.full((3, 2), -1.0)", "f", "g", (3, 2))]
    prelude = []
    for k in range(s.pick([1, 2, 1, 3])):
        init, kind, group, shape = s.pick(options)
        name = f"c{k}"
        s.arrays[name] = Array(name, kind, f"{name}.rows" if len(shape) == 2 else group, True,
                               INT_VAR if kind == "i" else FLOAT_VAR, shape)
        s.inits[name] = init
        if "empty" in init:
            prelude.append(f"{name}[:] = {s.literal(kind)}")
    return prelude


def return_spec(s: Scope) -> tuple[str, ...]:
    local = [n for n in s.arrays if n.startswith("c")]
    arr = s.pick(local) if local else None
    shapes: list[tuple[str, ...]] = [("i",), ("f",), ("f", "i"), ("i", "f", "f")]
    if arr is not None:
        shapes += [(arr,), (arr, "f"), ("i", arr)]
    return s.pick(shapes)
