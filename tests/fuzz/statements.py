"""Random statements: assignments of every form, array writes, if/elif/else chains, loops of every supported
kind, while with break/continue, and returns anywhere. Loops terminate (range bounds are small, while loops
count), and `Ctx.trips` caps how often a statement runs per call, which the bounds in expressions.py rely on."""

from __future__ import annotations

import dataclasses

from .expressions import E, Expressions, clamp
from .scope import AUG_STEP, VAR_BOUND, Array, Ctx, Scope

INDENT = "    "
INDEX_NAMES = ("i", "j", "l", "m")
ELEMENT_NAMES = {"f": ("u", "v", "t"), "i": ("p", "q", "r")}
COUNTERS = ("w", "w1", "w2")


class Statements(Expressions):
    def __init__(self, scope: Scope, returns: tuple[str, ...]):
        self.scope = scope
        self.returns = returns  # per returned value: "i", "f", or an array's name

    def block(self, ctx: Ctx, size: int) -> list[str]:
        lines: list[str] = []
        for _ in range(size):
            if self.scope.stmts_left <= 0:
                break
            self.scope.stmts_left -= 1
            lines += self.statement(ctx)
        return lines or ["pass"]

    def statement(self, ctx: Ctx) -> list[str]:
        s = self.scope
        if ctx.depth == 0 and s.coin(0.03):  # print at top level only: output inside loops drowns the log
            return [f"print({s.pick(['k0', 'x0', repr('k0 =') + ', k0'])})"]
        simple = ["assign", "aug", "write", "unpack", "call", "return"]
        kind = s.pick(simple + ["if", "for", "while", "if", "for"] if ctx.depth < 3 else simple)
        if kind == "if":
            return self.if_chain(ctx)
        if kind == "for":
            return self.for_loop(ctx)
        if kind == "while":
            return self.while_loop(ctx)
        if kind == "return":
            return [f"if {self.cond(ctx)}:", INDENT + self.return_stmt(ctx)]
        simple_ones = {"aug": self.aug, "write": self.write, "unpack": self.unpack, "call": self.call}
        out = simple_ones.get(kind, self.assign)(ctx)
        return out or self.assign(ctx) or ["pass"]

    # ------------------------------------------------------------ simple ones

    def assign(self, ctx: Ctx) -> list[str]:
        s = self.scope
        kind = s.pick(["i", "f"])
        targets = s.targets(kind, ctx)
        if not targets:
            return []
        return [f"{s.pick(targets)} = {self.bounded(self.expr(kind, ctx), kind).text}"]

    def bounded(self, e: E, kind: str, limit: float | None = None) -> E:
        return clamp(e, self.scope) if e.bound > (VAR_BOUND[kind] if limit is None else limit) else e

    def aug(self, ctx: Ctx) -> list[str]:
        s = self.scope
        kind = s.pick(["i", "f"])
        targets = s.targets(kind, ctx) + [t for t in self.element_targets(kind, ctx)]
        if not targets:
            return []
        target = s.pick(targets)
        op = s.pick(["+=", "-=", "*=", "//=", "%=", "/="] if kind == "f" else ["+=", "-=", "*=", "//=", "%="])
        if op in ("+=", "-="):
            return [f"{target} {op} {self.bounded(self.expr(kind, ctx), kind, AUG_STEP[kind]).text}"]
        if op in ("//=", "%=", "/="):  # a divisor of magnitude >= 1 never grows the target
            return [f"{target} {op} {self.divisor(kind, ctx, 1, False, least=1.0)[0].text}"]
        if kind == "i":  # bring the target down first, then multiply by something small
            small = self.bounded(self.int_expr(ctx), "i", AUG_STEP["i"])
            return [f"{target} %= {s.pick(['1009', '-1013'])}", f"{target} *= {small.text}"]
        div = self.divisor("f", ctx, 1, False, least=1.0)[0]
        return [f"{target} *= {s.pick(['0.5', '-0.75', f'(1.0 / {div.text})'])}"]

    def element_targets(self, kind: str, ctx: Ctx) -> list[str]:
        out = []
        for arr in self.scope.arrays_of(kind, ctx):
            index = self.scope.index(arr, ctx)
            if arr.writable and index is not None:
                out.append(f"{arr.name}[{index}]")
        return out

    def write(self, ctx: Ctx) -> list[str]:
        s = self.scope
        arrays = [a for a in s.arrays.values() if a.writable]
        if not arrays:
            return []
        arr = s.pick(arrays)
        kind = "i" if arr.kind == "i" else s.pick(["f", "f", "i"])  # an int stored into a float array is fine
        value = self.bounded(self.expr(kind, ctx), arr.kind)
        if arr.ndim == 1 and s.coin(0.15):  # a scalar broadcast into a slice
            return [f"{arr.name}[{self.slice(ctx)}] = {value.text}"]
        index = s.index(arr, ctx)
        return [f"{arr.name}[{index}] = {value.text}"] if index is not None else []

    def unpack(self, ctx: Ctx) -> list[str]:
        s = self.scope
        kind = s.pick(["i", "f"])
        targets = s.targets(kind, ctx)
        pairs = [h for h in s.helpers if h.returns == "pair" and ctx.trips * h.cost <= s.max_trips]
        if pairs and s.coin(0.3) and s.targets("f", ctx) and s.targets("i", ctx):
            h = s.pick(pairs)
            args = ", ".join(self.expr(k, ctx, 1).text for k in h.params)
            return [f"{s.pick(s.targets('f', ctx))}, {s.pick(s.targets('i', ctx))} = {h.name}({args})"]
        if s.tuple_const is not None and kind == "i" and len(targets) >= 2 and s.coin(0.3):
            name, values = s.tuple_const
            picked = [targets[s.pick(range(len(targets)))] for _ in values]
            if len(set(picked)) == len(picked):
                return [f"{', '.join(picked)} = {name}"]
        if len(targets) < 2:
            return []
        first = s.pick(targets)
        second = s.pick([t for t in targets if t != first])
        if s.coin(0.5):
            return [f"{first}, {second} = {second}, {first}"]
        one, two = (self.bounded(self.expr(kind, ctx), kind) for _ in range(2))
        return [f"{first}, {second} = {one.text}, {two.text}"]

    def call(self, ctx: Ctx) -> list[str]:
        s = self.scope
        writers = [h for h in s.helpers if h.returns == "writer" and ctx.trips * h.cost <= s.max_trips]
        arrays = [a for a in s.arrays.values() if a.writable and a.kind == "f" and a.ndim == 1]
        if not writers or not arrays:
            return []
        h = s.pick(writers)
        return [f"{h.name}({s.pick(arrays).name}, {self.float_expr(ctx, 1).text})"]

    def return_stmt(self, ctx: Ctx) -> str:
        values = [self.scope.arrays[r].name if r in self.scope.arrays else self.expr(r, ctx).text
                  for r in self.returns]
        return " ".join(["return", ", ".join(values)]).rstrip()

    # ---------------------------------------------------------------- blocks

    def body(self, ctx: Ctx) -> list[str]:
        """A nested block, which may end in a jump: break/continue in a loop, or a return anywhere."""
        lines = self.block(ctx, self.scope.pick([1, 2, 1, 3]))
        ending = self.scope.pick(["", "", "return"] + (["break", "continue"] if ctx.loop else []))
        if ending == "return":
            lines.append(self.return_stmt(ctx))
        elif ending:
            lines.append(ending)
        return [INDENT + line for line in lines]

    def if_chain(self, ctx: Ctx) -> list[str]:
        s = self.scope
        inner = dataclasses.replace(ctx, depth=ctx.depth + 1)
        maybe_empty = [a for a in s.arrays.values() if a.ndim == 1 and a.group not in ctx.nonempty]
        if maybe_empty and s.coin(0.2):  # a guard makes indexing safe inside
            arr = s.pick(maybe_empty)
            guarded = dataclasses.replace(inner, nonempty=inner.nonempty | {arr.group})
            lines = [f"if {s.pick(['len({0}) > 0', 'len({0}) != 0', '0 < len({0})'])}:".format(arr.name)]
            lines += self.body(guarded)
        else:
            lines = [f"if {self.cond(ctx)}:", *self.body(inner)]
        for _ in range(s.pick([0, 0, 1, 2, 3])):
            lines += [f"elif {self.cond(ctx)}:", *self.body(inner)]
        if s.coin(0.5):
            lines += ["else:", *self.body(inner)]
        return lines

    def for_loop(self, ctx: Ctx) -> list[str]:
        s = self.scope
        free = [n for n in INDEX_NAMES if n not in ctx.protected]
        if not free:
            return []
        i = s.pick(free)
        header, trips, indexes, nonempty, owned = self.loop_header(i, ctx)
        if ctx.trips * trips > s.max_trips:
            return []
        for name in owned:
            s.declare(name, *self.owned_kind(name, header), assignable=False)
        inner = Ctx(ctx.nonempty | nonempty, ctx.indices + tuple((n, indexes) for n in owned[:1] if indexes),
                    True, ctx.protected | set(owned), ctx.trips * trips, ctx.depth + 1)
        return [header, *self.body(inner)]

    def owned_kind(self, name: str, header: str) -> tuple[str, str, float]:
        if name in INDEX_NAMES:
            return "i", "0", 64
        kind = "f" if name in ELEMENT_NAMES["f"] else "i"
        return kind, "0.0" if kind == "f" else "0", self.element_bound(kind)

    def element_bound(self, kind: str) -> float:
        return max([a.bound for a in self.scope.arrays.values() if a.kind == kind], default=VAR_BOUND[kind])

    def loop_header(self, i: str, ctx: Ctx) -> tuple[str, int, frozenset[str], frozenset[str], list[str]]:
        """(header, most trips, groups the index is valid for, groups known nonempty inside, names it binds)."""
        s = self.scope
        ones = [a for a in s.arrays.values() if a.ndim == 1]
        if not ones:
            return self.counted_header(i, s.pick(["range_n", "range_lit"]))
        x = s.pick(ones)
        y = s.pick(ones)
        both = frozenset({x.group, y.group})
        form = s.pick(["range_len", "range_n", "range_lit", "reverse", "from_one", "min_len", "triangle", "elements",
                       "enumerate", "enumerate_start", "zip", "enumerate_zip", "rows"])
        if form in ("elements", "enumerate", "enumerate_start", "zip", "enumerate_zip"):
            v = self.element_name(x, ctx)
            w = self.element_name(y, ctx, avoid=v)
            if v is None or w is None:
                form = "range_len"
            elif form == "elements":
                return f"for {v} in {x.name}:", 16, frozenset(), frozenset({x.group}), [v]
            elif form == "enumerate":
                return f"for {i}, {v} in enumerate({x.name}):", 16, frozenset({x.group}), frozenset({x.group}), [i, v]
            elif form == "enumerate_start":
                start = s.pick(["1", "-2", "3"])
                return (f"for {i}, {v} in enumerate({x.name}, {start}):", 16, frozenset(), frozenset({x.group}),
                        [i, v])
            elif form == "zip":
                return f"for {v}, {w} in zip({x.name}, {y.name}):", 16, frozenset(), both, [v, w]
            else:
                return (f"for {i}, ({v}, {w}) in enumerate(zip({x.name}, {y.name})):", 16, both, both, [i, v, w])
        rows = [a for a in s.arrays.values() if a.ndim == 2]
        if rows and (form == "rows" or s.coin(0.2)):
            grid = s.pick(rows)
            row = f"{grid.name}_row"
            s.arrays[row] = Array(row, grid.kind, f"{grid.name}.cols", True, grid.bound)
            s.inits.setdefault(row, f"{grid.name}[0]")
            return f"for {row} in {grid.name}:", grid.shape[0], frozenset(), frozenset(), []
        if form in ("range_n", "range_lit"):
            return self.counted_header(i, form)
        if form == "reverse":
            return (f"for {i} in range(len({x.name}) - 1, -1, -1):", 16, frozenset({x.group}),
                    frozenset({x.group}), [i])
        if form == "from_one":
            return f"for {i} in range(1, len({x.name})):", 16, frozenset({x.group}), frozenset({x.group}), [i]
        if form == "min_len":
            return f"for {i} in range(min(len({x.name}), len({y.name}))):", 16, both, both, [i]
        outer = [n for n, groups in ctx.indices if x.group in groups]
        if form == "triangle" and outer:
            return (f"for {i} in range({s.pick(outer)} + 1, len({x.name})):", 16, frozenset({x.group}),
                    frozenset({x.group}), [i])
        return f"for {i} in range(len({x.name})):", 16, frozenset({x.group}), frozenset({x.group}), [i]

    def counted_header(self, i: str, form: str) -> tuple[str, int, frozenset[str], frozenset[str], list[str]]:
        """A range loop of at most 20 trips that indexes nothing."""
        s = self.scope
        if form == "range_n":
            return f"for {i} in range({s.pick(s.counts)}):", 20, frozenset(), frozenset(), [i]
        lo, hi = s.pick(["0", "2", "-3", "5"]), s.pick(["4", "0", "7", "-2"])
        step = s.pick(["", ", 2", ", -1", ", -3", ", 1"])
        return f"for {i} in range({lo}, {hi}{step}):", 10, frozenset(), frozenset(), [i]

    def element_name(self, arr: Array, ctx: Ctx, avoid: str | None = None) -> str | None:
        free = [n for n in ELEMENT_NAMES[arr.kind] if n not in ctx.protected and n != avoid]
        return self.scope.pick(free) if free and arr.ndim == 1 else None

    def while_loop(self, ctx: Ctx) -> list[str]:
        s = self.scope
        free = [c for c in COUNTERS if c not in ctx.protected]
        limit = s.pick(["3", "6", "10", *s.counts])
        if not free or ctx.trips * 20 > s.max_trips:
            return []
        w = s.pick(free)
        s.declare(w, "i", "0", 64, assignable=False)
        inner = Ctx(ctx.nonempty, ctx.indices, True, ctx.protected | {w}, ctx.trips * 20, ctx.depth + 1)
        shape = s.pick(["plain", "and", "true"])
        if shape == "true":  # the counter is checked first, so `continue` cannot skip it
            head = ["while True:", f"{INDENT}{w} += 1", f"{INDENT}if {w} > {limit}:", f"{INDENT * 2}break"]
        else:
            cond = f"{w} < {limit}" + (f" and {self.cond(inner, 0)}" if shape == "and" else "")
            head = [f"while {cond}:", f"{INDENT}{w} += 1"]
        return [f"{w} = 0", *head, *self.body(inner)]
