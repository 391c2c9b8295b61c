"""Random expressions inside Cuvil's subset that CPython and an int64/float64 machine evaluate alike.

Every expression carries a static bound on its magnitude. Multiplying operands whose bounds would pass
`LIMIT` wraps one in a clamp first, so no value ever leaves the range where Python's unbounded ints and
Numba's int64 agree, and no float becomes inf (Python raises OverflowError where IEEE gives inf). Divisors are
nonzero by construction (`abs(e) + 1`), float → int conversions see bounded values, and array indices are in
bounds because they come from the scope (`Scope.index`).
"""

from __future__ import annotations

import dataclasses

from .scope import Ctx, Scope

LIMIT = {"i": 2**60, "f": 1e200}
CLAMP = {"i": 2**30, "f": 1e6}  # what a clamped value is bounded by


@dataclasses.dataclass(frozen=True)
class E:
    text: str
    kind: str  # "i" (an int, Python's or NumPy's) or "f" (a float)
    bound: float  # |value| <= bound on every path


def clamp(e: E, scope: Scope, small: bool = False) -> E:
    """`e` brought back to CLAMP[kind] (1009 when `small`) in one of several Python-semantics-heavy forms."""
    if e.kind == "i":
        m = 1009 if small else 1000003
        form = scope.pick([f"({e.text} % {m})", f"({e.text} % -{m})", f"min(max({e.text}, -{m}), {m})",
                           f"max(min({e.text}, {m}), -{m})"])
        return E(form, "i", m)
    m2 = 1e3 if small else CLAMP["f"]
    form = scope.pick([f"min(max({e.text}, -{m2}), {m2})", f"({e.text} % {m2 / 4})",
                       f"{scope.pick(['math', 'np'])}.fmod({e.text}, {m2})", f"max(min({e.text}, {m2}), -{m2})"])
    return E(form, "f", m2)


class Expressions:
    """Mixin over a Scope: `int_expr`, `float_expr`, `cond`; `pure=True` keeps calls out (chained comparisons)."""

    scope: Scope

    def expr(self, kind: str, ctx: Ctx, depth: int = 2, pure: bool = False) -> E:
        return self.int_expr(ctx, depth, pure) if kind == "i" else self.float_expr(ctx, depth, pure)

    def any_expr(self, ctx: Ctx, depth: int = 2, pure: bool = False) -> E:
        return self.expr(self.scope.pick(["i", "f"]), ctx, depth, pure)

    # ------------------------------------------------------------------ leaves

    def leaf(self, kind: str, ctx: Ctx) -> E:
        s = self.scope
        options: list[E] = [E(s.literal(kind), kind, 1000 if kind == "i" else 1e3)]
        options += [E(v, kind, s.bound_of(v)) for v in s.readable(kind, ctx)]
        options += [E(c, kind, b) for c, b in s.constants(kind)]
        for arr in s.arrays_of(kind, ctx):
            index = s.index(arr, ctx)
            if index is not None:
                options.append(E(f"{arr.name}[{index}]", kind, arr.bound))
        if kind == "i":
            options += [E(f"len({arr.name})", "i", 64) for arr in s.arrays_of(None, ctx) if arr.ndim == 1]
        return s.pick(options)

    # -------------------------------------------------------------------- ints

    def int_expr(self, ctx: Ctx, depth: int = 2, pure: bool = False) -> E:
        s = self.scope
        if depth <= 0 or not s.coin(0.6):
            return self.leaf("i", ctx)
        op = s.pick(["+", "-", "*", "//", "%", "abs", "neg", "minmax", "ternary", "pow", "floor", "slice_len",
                     "sum", "andor", "call", "argmax", "tuple_const"])
        sub = depth - 1
        if op in ("+", "-", "*"):
            return self.arith(op, self.int_expr(ctx, sub, pure), self.int_expr(ctx, sub, pure))
        if op in ("//", "%"):
            left = self.int_expr(ctx, sub, pure)
            div, _ = self.divisor("i", ctx, sub, pure)
            return E(f"({left.text} {op} {div.text})", "i", left.bound + 1 if op == "//" else div.bound)
        if op in ("abs", "neg"):
            e = self.int_expr(ctx, sub, pure)
            return E(f"abs({e.text})" if op == "abs" else f"(-{e.text})", "i", e.bound)
        if op == "minmax":
            parts = [self.int_expr(ctx, sub, pure) for _ in range(s.pick([2, 2, 3]))]
            return E(f"{s.pick(['min', 'max'])}({', '.join(p.text for p in parts)})", "i",
                     max(p.bound for p in parts))
        if op == "ternary":
            a, b = self.int_expr(ctx, sub, pure), self.int_expr(ctx, sub, pure)
            return E(f"({a.text} if {self.cond(ctx, sub, pure)} else {b.text})", "i", max(a.bound, b.bound))
        if op == "pow":
            base = self.int_expr(ctx, sub, pure)
            base = base if base.bound <= 2**20 else clamp(base, s, small=True)
            power = s.pick([2, 3] if base.bound <= 2**18 else [2])
            return E(f"({base.text} ** {power})", "i", base.bound**power)
        if op == "floor":
            f = self.float_expr(ctx, sub, pure)
            f = f if f.bound <= 1e15 else clamp(f, s)
            return E(f"{s.pick(['math.floor', 'int', 'round', 'math.trunc', 'math.ceil'])}({f.text})", "i",
                     f.bound + 1)
        ones = [a for a in s.arrays_of(None, ctx) if a.ndim == 1]
        if op == "slice_len" and ones:
            return E(f"len({s.pick(ones).name}[{self.slice(ctx)}])", "i", 64)
        if op == "sum" and s.arrays_of("i", ctx):
            arr = s.pick(s.arrays_of("i", ctx))
            form = s.pick([f"np.sum({arr.name})", f"np.sum({arr.name}[{self.slice(ctx)}])"] +
                          ([] if pure else [f"{arr.name}.sum()"]))
            return E(form, "i", arr.bound * 64)
        if op == "andor":
            a, b = self.int_expr(ctx, sub, pure), self.int_expr(ctx, sub, pure)
            return E(f"({a.text} {s.pick(['or', 'and'])} {b.text})", "i", max(a.bound, b.bound))
        if op == "call" and not pure:
            call = self.helper_call("i", ctx, sub)
            if call is not None:
                return call
        if op == "argmax":
            arrays = [a for a in s.arrays_of(None, ctx) if a.ndim == 1 and a.group in ctx.nonempty]
            if arrays:
                return E(f"np.{s.pick(['argmax', 'argmin'])}({s.pick(arrays).name})", "i", 64)
        if op == "tuple_const" and s.tuple_const is not None:
            name, values = s.tuple_const
            return E(f"{name}[{s.pick(range(len(values)))}]", "i", max(abs(v) for v in values))
        return self.leaf("i", ctx)

    # ------------------------------------------------------------------ floats

    def float_expr(self, ctx: Ctx, depth: int = 2, pure: bool = False) -> E:
        s = self.scope
        if depth <= 0 or not s.coin(0.6):
            if s.coin(0.15):
                e = self.int_expr(ctx, 0, pure)
                return E(f"float({e.text})", "f", e.bound)
            return self.leaf("f", ctx)
        op = s.pick(["+", "-", "*", "/", "//", "%", "sqrt", "abs", "neg", "minmax", "ternary", "pow", "negpow",
                     "floor", "call", "max_of", "int_div"])
        sub = depth - 1
        if op in ("+", "-", "*"):
            a = self.float_expr(ctx, sub, pure)
            b = self.any_expr(ctx, sub, pure)
            return self.arith(op, *((a, b) if s.coin(0.5) else (b, a)))
        if op in ("/", "//", "%"):
            left = self.any_expr(ctx, sub, pure) if op == "/" else self.float_expr(ctx, sub, pure)
            div, least = self.divisor(s.pick(["i", "f"]) if op == "/" else "f", ctx, sub, pure)
            bound = {"/": left.bound / least, "//": left.bound / least + 1, "%": div.bound}[op]
            return E(f"({left.text} {op} {div.text})", "f", bound)
        if op == "int_div":  # int / int is a float
            a, (div, _) = self.int_expr(ctx, sub, pure), self.divisor("i", ctx, sub, pure)
            return E(f"({a.text} / {div.text})", "f", a.bound)
        if op == "sqrt":
            e = self.any_expr(ctx, sub, pure)
            form = s.pick([f"math.sqrt(abs({e.text}))", f"np.sqrt(abs({e.text}))", f"(abs({e.text}) ** 0.5)"])
            return E(form, "f", max(e.bound, 1.0) ** 0.5)
        if op in ("abs", "neg"):
            e = self.float_expr(ctx, sub, pure)
            return E(s.pick([f"abs({e.text})", f"math.fabs({e.text})", f"np.abs({e.text})"]) if op == "abs"
                     else f"(-{e.text})", "f", e.bound)
        if op == "minmax":
            a, b = self.float_expr(ctx, sub, pure), self.float_expr(ctx, sub, pure)
            return E(f"{s.pick(['min', 'max'])}({a.text}, {b.text})", "f", max(a.bound, b.bound))
        if op == "ternary":
            a, b = self.float_expr(ctx, sub, pure), self.float_expr(ctx, sub, pure)
            return E(f"({a.text} if {self.cond(ctx, sub, pure)} else {b.text})", "f", max(a.bound, b.bound))
        if op == "pow":
            base = self.float_expr(ctx, sub, pure)
            base = base if base.bound <= 1e50 else clamp(base, s)
            return E(f"({base.text} ** 2)", "f", base.bound**2)
        if op == "negpow":  # Python's int ** negative int is a float (NumPy's int64 raises: int() first)
            e = self.int_expr(ctx, sub, pure)
            return E(f"({s.pick(['int', 'float'])}(abs({e.text}) + 1) ** -{s.pick([1, 2])})", "f", 1.0)
        if op == "floor":
            e = self.float_expr(ctx, sub, pure)
            form = s.pick([f"np.floor({e.text})", f"math.copysign({e.text}, -0.5)", f"math.floor({e.text}) * 1.0"])
            if "math.floor" in form and e.bound > 1e15:
                form = f"np.floor({e.text})"
            return E(form, "f", e.bound + 1)
        if op == "call" and not pure:
            call = self.helper_call("f", ctx, sub)
            if call is not None:
                return call
        if op == "max_of":
            arrays = [a for a in s.arrays_of("f", ctx) if a.ndim == 1 and a.group in ctx.nonempty]
            if arrays:
                arr = s.pick(arrays)
                return E(f"np.{s.pick(['max', 'min'])}({arr.name})", "f", arr.bound)
        return self.leaf("f", ctx)

    # ---------------------------------------------------------------- pieces

    def arith(self, op: str, a: E, b: E) -> E:
        kind = "f" if "f" in (a.kind, b.kind) else "i"
        if op == "*" and a.bound * b.bound > LIMIT[kind]:
            if a.bound * CLAMP[kind] > LIMIT[kind]:
                a = clamp(a, self.scope, small=True)
            b = clamp(b, self.scope, small=True)
        bound = a.bound * b.bound if op == "*" else a.bound + b.bound
        return E(f"({a.text} {op} {b.text})", kind, bound)

    def divisor(self, kind: str, ctx: Ctx, depth: int, pure: bool, least: float = 0.5) -> tuple[E, float]:
        """A divisor of either sign and magnitude at least `least` (a literal, or abs(e) + 1), and its least
        magnitude."""
        s = self.scope
        if s.coin(0.4):
            lits = ["3", "-3", "7", "-2", "1", "-1"] if kind == "i" else ["2.5", "-1.5", "0.75", "-4.0", "0.5"]
            lit = s.pick([x for x in lits if abs(float(x)) >= least])
            return E(lit, kind, abs(float(lit))), abs(float(lit))
        one = "1" if kind == "i" else s.pick(["1.0", "0.5"] if least <= 0.5 else ["1.0"])
        e = self.expr(kind, ctx, depth, pure)
        return E(f"{s.pick(['', '-'])}(abs({e.text}) + {one})", kind, e.bound + 1), float(one)

    def slice(self, ctx: Ctx) -> str:
        """Any bounds at all: Python clamps slice bounds, and negative ones count from the end."""
        s = self.scope
        lo = self.int_expr(ctx, 0).text if s.coin(0.7) else ""
        hi = self.int_expr(ctx, 0).text if s.coin(0.5) else ""
        step = s.pick(["", ":2", ":-1", ":3"]) if s.coin(0.3) else ""
        return f"{lo}:{hi}{step}"

    def cond(self, ctx: Ctx, depth: int = 1, pure: bool = False) -> str:
        s = self.scope
        shape = s.pick(["cmp", "cmp", "chain", "not", "and", "or", "truth", "guarded_index", "guarded_div"])
        sub = max(depth - 1, 0)
        if shape == "chain":
            a, m, b = self.any_expr(ctx, 1, pure), self.any_expr(ctx, 1, pure=True), self.any_expr(ctx, 1, pure)
            return f"{a.text} {s.pick(['<', '<=', '<'])} {m.text} {s.pick(['<', '<=', '!=', '>'])} {b.text}"
        if shape == "not":
            return f"not ({self.cond(ctx, sub, pure)})"
        if shape in ("and", "or") and depth > 0:
            return f"({self.cond(ctx, sub, pure)}) {shape} ({self.cond(ctx, sub, pure)})"
        if shape == "truth":
            return self.int_expr(ctx, 0, pure).text
        if shape == "guarded_index":  # short-circuit: the index is only valid when the guard holds
            arrays = [a for a in s.arrays_of(None, ctx) if a.ndim == 1 and a.group not in ctx.nonempty]
            if arrays:
                arr, k = s.pick(arrays), self.int_expr(ctx, 0, pure)
                return f"(len({arr.name}) > 0 and {arr.name}[{k.text} % len({arr.name})] > {s.literal('i')})"
        if shape == "guarded_div":
            readable = s.readable("i", ctx)
            if readable:
                v, e = s.pick(readable), self.int_expr(ctx, 0, pure)
                return f"({v} != 0 and {e.text} // {v} > {s.literal('i')})"
        a, b = self.any_expr(ctx, 1, pure), self.any_expr(ctx, 1, pure)
        return f"{a.text} {s.pick(['<', '<=', '>', '>=', '==', '!='])} {b.text}"

    def helper_call(self, kind: str, ctx: Ctx, depth: int) -> E | None:
        s = self.scope
        helpers = [h for h in s.helpers if h.returns == kind and ctx.trips * h.cost <= 4000]
        if not helpers:
            return None
        h = s.pick(helpers)
        args = [self.expr(k, ctx, depth) for k in h.params]
        texts = [a.text for a in args]
        if h.default is not None and s.coin(0.5):
            texts = texts[:-1] if s.coin(0.5) else texts[:-1] + [f"{h.param_names[-1]}={texts[-1]}"]
        return E(f"{h.name}({', '.join(texts)})", kind, h.bound)

