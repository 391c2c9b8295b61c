"""The statements of a parallel-fuzz loop: writes and in-place updates, conditionals, reductions and scans
(`s += …; a[i] = s`), max/min reductions, private scalars, helpers that write (plain and `numba.njit`), NumPy
calls with output arguments, `.fill`/`.sort` on slices, allocations, a row view made in the body, matrix rows
assigned whole, `break`/`continue`. A mixin of parallel_body.LoopWriter, which supplies the indices and values
(`index`, `element`, `fexpr`, `iexpr`, `cond`) and the bookkeeping these update."""

from __future__ import annotations

from typing import Any

from .parallel_programs import INDENT, Arr
from .scope import Scope


class Statements:
    s: Scope
    arrays: dict[str, Arr]
    envs: list[dict[str, Any]]
    vars: tuple[str, ...]
    declared: dict[str, str]
    written: list[str]
    s_ops: set[str]
    disjoint: bool
    targets: list[str]

    def statement(self) -> list[str]:
        kind = self.s.pick(["write", "aug", "write", "reduce", "cond", "ufunc", "private", "fill", "write", "reduce",
                            "helper", "sort", "alloc", "rows", "jump", "ufunc", "rowview"])
        return getattr(self, "st_" + kind)() or self.st_write() or ["pass"]

    def target(self, kind: str | None = None, ndim: int | None = None) -> tuple[str, Arr] | None:
        if self.disjoint:
            names = [n for n in self.targets if (kind is None or self.arrays[n].kind == kind)
                     and (ndim is None or self.arrays[n].ndim == ndim)]
            x = self.arrays[self.s.pick(names)] if names else None
            i = self.index(x) if x is not None else None
            got = (f"{x.name}[{i}]", x) if x is not None and i is not None else None
        else:
            got = self.element(kind, writable=True, ndim=ndim)
        if got is not None:
            self.written.append(got[1].name)
        return got

    def st_write(self, leaf_read: bool = False) -> list[str]:
        got = self.target()
        if got is None:
            return []
        read = self.element(got[1].kind) if leaf_read else None
        value = self.expr(got[1].kind)
        return [f"{got[0]} = {read[0]} + {value}" if read else f"{got[0]} = {value}"]

    def st_aug(self) -> list[str]:
        got = self.target()
        if got is None:
            return []
        op = self.s.pick(["+=", "-=", "*="] if got[1].kind == "f" else ["+=", "-="])
        value = "0.5" if op == "*=" else self.expr(got[1].kind)  # a doubling could overflow int64
        return [f"{got[0]} {op} {value}"]

    def st_cond(self) -> list[str]:
        lines = [f"if {self.cond()}:", *self.indent(self.st_write() or ["pass"])]
        if self.s.coin(0.4):
            lines += ["else:", *self.indent(self.s.pick([self.st_write, self.st_reduce])() or ["pass"])]
        return lines

    def st_reduce(self) -> list[str]:
        s = self.s
        if s.coin(0.3):
            self.declared.setdefault("c", "0")
            return s.pick([["c += 1"], [f"c += {self.iexpr(1)}"], [f"if {self.cond()}:", INDENT + "c += 1"]])
        value = self.fexpr()
        self.declared.setdefault("s", "0.0")
        op = s.pick(["+=", "-=", "= s * 0.5 +", "= max(s,", "= min(s,"])
        self.s_ops.add(op)
        lines = [f"s {op} {value})" if op.endswith(",") else f"s {op} {value}"]
        if s.coin(0.4):  # a scan: the running value is stored
            got = self.target("f")
            if got is not None:
                self.s_ops.add("read")
                lines.append(f"{got[0]} = s")
        return lines

    def st_jump(self) -> list[str]:
        """`break` ends the loop early (no parallel loop may have one); `continue` skips the rest of an iteration."""
        return [f"if {self.cond()}:", INDENT + self.s.pick(["continue", "break"])]

    def st_rowview(self) -> list[str]:
        """`row = X[r]`: a view made in the body, written through afterwards (and returned, from the last trip)."""
        grids = [a for a in self.arrays.values() if a.ndim == 2 and a.writable]
        if not grids or "row" in self.arrays:
            return []
        x = self.s.pick(grids)
        r = self.choose([(v, f"{x.name}.shape[0]") for v in self.vars])
        if r is None:
            return []
        self.arrays["row"] = Arr("row", 1, x.kind, True)
        self.targets.append("row")
        for env in self.envs:  # indices into the row are checked against a row of the same length
            env["row"] = env[x.name][0]
        self.declared["row"] = f"{x.name}[0]"
        return [f"row = {x.name}[{r}]"]

    def st_private(self) -> list[str]:
        self.declared.setdefault("t", "0.0")
        return [f"t = {self.fexpr()}"]

    def st_helper(self) -> list[str]:
        got = self.target("f", ndim=1)
        if got is None:
            return []
        name, index = got[1].name, got[0][len(got[1].name) + 1:-1]
        which = self.s.pick(["put", "nput", "bump"])
        if which == "bump":
            self.declared.setdefault("t", "0.0")
            return [f"t = bump({name}, {index})"]
        return [f"{which}({name}, {index}, {self.fexpr()})"]

    def slice_start(self, x: Arr) -> str | None:
        return self.index(x, nonneg=True) if x.ndim == 1 else None

    def st_ufunc(self) -> list[str]:
        if self.s.coin(0.3):  # a whole-array output: a reduction the loop cannot see (`np.add(out, x[i], out)`)
            self.declared.setdefault("acc", "np.zeros(1)")
            return [f"np.{self.s.pick(['add', 'subtract'])}(acc, {self.fexpr(1)}, acc)"]
        got, source = self.target("f", ndim=1), self.element("f", ndim=1)
        if got is None or source is None:
            return []
        i, k = self.slice_start(got[1]), self.slice_start(source[1])
        if i is None or k is None:
            return []
        func = self.s.pick(["add", "multiply", "subtract"])
        x, y = got[1].name, source[1].name
        return [f"np.{func}({y}[{k}:{k} + 1], {self.fexpr(1)}, {x}[{i}:{i} + 1])"]

    def st_fill(self) -> list[str]:
        got = self.target("f")
        if got is None:
            return []
        x = got[1]
        if x.ndim == 2:
            row = self.choose([(f"{v}", f"{x.name}.shape[0]") for v in self.vars])
            return [f"{x.name}[{row}].fill({self.fexpr(1)})"] if row else []
        i = self.slice_start(x)
        return [f"{x.name}[{i}:{i} + 2].fill({self.fexpr(1)})"] if i else []

    def st_sort(self) -> list[str]:
        got = self.target(ndim=1)
        if got is None:
            return []
        i = self.slice_start(got[1])
        return [f"{got[1].name}[{i}:{i} + 3].sort()"] if i else []

    def st_alloc(self) -> list[str]:
        alloc = self.s.pick(["tmp = np.zeros(2)", "tmp = np.ones(2)", "tmp = np.empty(2)"])
        if "empty" in alloc:  # unset until written: the writes that set it may not read it
            self.declared.pop("tmp", None)
            lines = [alloc, f"tmp[0] = {self.fexpr(1)}", f"tmp[1] = {self.fexpr(1)}"]
            self.declared["tmp"] = "np.zeros(2)"
            return lines
        self.declared["tmp"] = "np.zeros(2)"
        return [alloc, f"tmp[0] = {self.fexpr(1)}"]

    def st_rows(self) -> list[str]:
        """`X[r, :] = Y[:, c] op e` for matrices whose sides agree on every call."""
        square = [a for a in self.arrays.values() if a.ndim == 2]
        if not square:
            return []
        x, y = self.s.pick([a for a in square if a.writable] or square), self.s.pick(square)
        if not x.writable or not all(e[x.name].shape[1] == e[y.name].shape[0] for e in self.envs):
            return []
        r = self.choose([(v, f"{x.name}.shape[0]") for v in self.vars])
        c = self.choose([(v, f"{y.name}.shape[1]") for v in self.vars])
        if r is None or c is None:
            return []
        self.written.append(x.name)
        return [f"{x.name}[{r}, :] = {y.name}[:, {c}] {self.s.pick(['+', '*'])} {self.fexpr(1)}"]

