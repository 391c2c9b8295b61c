"""The loop nest of a parallel-fuzz program: statements that write through every kind of index (plain, shifted,
mirrored, wrapped with `%`, negative, through `idx`), scalars that are private, reductions or scans, helpers
and NumPy calls that write their arguments, allocations inside the loop, and — when the program asks for it —
operations that raise in some iteration.

Indices are checked, not trusted: each candidate is evaluated on every iteration of every planned call (the
arrays after the program's own setup lines, `envs`), and only those in bounds everywhere are offered, except
for the out-of-range index an `oob` program uses on purpose. So a program raises only where it means to.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .parallel_programs import INDENT, Arr
from .parallel_statements import Statements
from .scope import Scope

IDX_1D = ("{v}", "{v} - 1", "-1 - {v}", "len({X}) - 1 - {v}", "{v} - len({X})", "({v} + 1) % len({X})",
          "({v} + K) % len({X})", "{v} // 2", "({v} * 3) % len({X})", "idx[{v}]", "{v} + 1", "({v} - 1) % len({X})",
          "0", "-1", "{v} % 2", "(i + j) % len({X})", "i - j", "idx[{v}] - 1")
IDX_AXIS = ("{v}", "-1 - {v}", "({v} + 1) % {X}.shape[{k}]", "{v} - 1", "0", "{v} // 2", "({v} + K) % {X}.shape[{k}]",
            "{X}.shape[{k}] - 1 - {v}")
# Python ints and floats only: NumPy scalars divide by zero with a warning, not an exception
RAISING_F = ("float(i // (d - i))", "math.fmod({a}, x)", "math.fmod(float(i), x - 1.5)", "float(i % (d - i))")
RAISING_I = ("(i // (d - i))", "(i % (d - i))", "((i + K) // d)")
_compiled: dict[str, Any] = {}


def _eval(text: str, env: dict[str, Any]) -> Any:
    code = _compiled.get(text)
    if code is None:
        code = _compiled[text] = compile(text, "<index>", "eval")
    return eval(code, env)  # noqa: S307 (text this module wrote)


class LoopWriter(Statements):
    """Writes the loop nest; statements come from parallel_statements.Statements."""

    def __init__(self, s: Scope, family: str, arrays: dict[str, Arr], envs: list[dict[str, Any]],
                 raising: bool, oob: bool):
        self.s, self.family, self.arrays, self.envs = s, family, arrays, envs
        self.raising, self.oob = raising, oob
        self.points: list[dict[str, np.ndarray]] = []  # per call: the loop variables' values, one per iteration
        self.vars: tuple[str, ...] = ()
        self.declared: dict[str, str] = {}  # scalar or array → its value before the loop
        self.written: list[str] = []
        self.s_ops: set[str] = set()  # how `s` is updated; "read" once something else reads it
        # Most programs keep to the discipline a dependence test accepts (each written array indexed by the bare
        # loop variable everywhere) so the loop does become parallel; the dependence then hides in aliases,
        # calls, wrapped indices, scalars, exceptions or the loop variable's value after the loop.
        writable = [a.name for a in arrays.values() if a.writable]
        self.disjoint = s.coin(0.8)
        self.targets = list(dict.fromkeys(s.pick(writable) for _ in range(s.pick([1, 2]))))
        # names of the same memory under another name (on some call), where a dependence hides best
        self.aliased = [a for a in arrays.values() if a.name not in self.targets and any(
            np.may_share_memory(e[a.name], e[t]) for e in envs for t in self.targets)]

    # ----------------------------------------------------------------- the nest

    def nest(self) -> list[str]:
        outer = self.header("i", 0)
        lines = [outer]
        self.enter(("i",), [(outer, "i")])
        if self.disjoint:  # a write that reads: the shape of most loops worth parallelizing
            lines += self.indent(self.st_write(leaf_read=True) or [])
        for _ in range(self.s.pick([1, 2, 1, 3, 2, 4]) - self.disjoint):
            lines += self.indent(self.statement())
        if self.s.coin(0.35):
            inner = self.header("j", 1)
            self.enter(("i", "j"), [(outer, "i"), (inner, "j")])
            body = [line for _ in range(self.s.pick([1, 2])) for line in self.statement()]
            lines += self.indent([inner, *self.indent(body)])
        return lines if len(lines) > 1 else [outer, INDENT + "pass"]

    def header(self, v: str, axis: int) -> str:
        s = self.s
        if v == "j" and (self.family == "1d" or s.coin(0.3)):
            small = self.family == "2d" or all(len(e["idx"]) <= 200 for e in self.envs)  # range(i): n² / 2 trips
            return s.pick(["for j in range(3):", "for j in range(i):" if small else "for j in range(1):",
                           "for j in range(2, -1, -1):"])
        ndim = 2 if self.family == "2d" else 1
        drivers = [a.name for a in self.arrays.values() if a.ndim == ndim and a.name != "idx"]
        x = self.targets[0] if self.disjoint and self.arrays[self.targets[0]].ndim == ndim else s.pick(drivers)
        n = f"{x}.shape[{axis}]" if ndim == 2 else f"len({x})"
        forms = ["range({n})", "range({n})", "range(1, {n})", "range(-{n}, {n})", "range({n} - 1, -1, -1)",
                 "range({n} - 1)", "range(-{n}, 0)", "range(0, {n}, 2)", "numba.prange({n})", "range({n} - 1, 0, -3)",
                 "range(-1, -{n} - 1, -1)", "range(2, {n}, 3)"]
        return f"for {v} in {s.pick(forms).format(n=n)}:"

    def enter(self, names: tuple[str, ...], headers: list[tuple[str, str]]) -> None:
        """Every (i[, j]) the nest visits in each planned call, for checking indices."""
        self.vars, self.points = names, []
        for env in self.envs:
            rows: list[tuple[int, ...]] = [()]
            for header, v in headers:
                text = header[len(f"for {v} in "):-1].replace("numba.prange", "range")
                rows = [(*r, k) for r in rows for k in _eval(text, {**env, **dict(zip(names, r))})]
            self.points.append({v: np.array([r[n] for r in rows], dtype=np.int64) for n, v in enumerate(names)})

    @staticmethod
    def indent(lines: list[str]) -> list[str]:
        return [INDENT + line for line in lines]

    # ---------------------------------------------------------------- indices

    def fits(self, text: str, length: str, nonneg: bool = False) -> list[bool]:
        """Per call: whether `text` stays inside [-length, length) (inside [0, length) if `nonneg`)."""
        out = []
        for env, points in zip(self.envs, self.points):
            if len(next(iter(points.values()))) == 0:
                out.append(True)
                continue
            try:
                value = np.broadcast_to(_eval(text, {**env, **points}), (len(next(iter(points.values()))),))
                size = _eval(length, env)
            except (IndexError, ZeroDivisionError, NameError):
                out.append(False)
                continue
            out.append(bool(value.min() >= (0 if nonneg else -size) and value.max() < size))
        return out

    def choose(self, candidates: list[tuple[str, str]], nonneg: bool = False) -> str | None:
        """One candidate (text, its bound) valid on every call; an `oob` program sometimes takes one that is
        not (its boundscheck raises IndexError in the iteration that reaches it)."""
        checked = [(text, self.fits(text, bound, nonneg)) for text, bound in candidates]
        good = [text for text, ok in checked if all(ok)]
        bad = [text for text, ok in checked if not all(ok)]
        if self.oob and bad and not nonneg and self.s.coin(0.2):
            return self.s.pick(bad)
        return self.s.pick(good) if good else None

    def index(self, x: Arr, nonneg: bool = False) -> str | None:
        vs = self.vars
        if self.disjoint and x.name in self.targets and not nonneg:
            length = f"len({x.name})" if x.ndim == 1 else f"{x.name}.shape[0]"
            if not all(self.fits("i", length)):
                return None
            second = None if x.ndim == 1 else self.choose([(f.format(v=v, X=x.name, k=1), f"{x.name}.shape[1]")
                                                           for f in IDX_AXIS for v in vs])
            return "i" if x.ndim == 1 else (f"i, {second}" if second else None)
        if x.ndim == 1:
            forms = [f for f in IDX_1D if "j" not in f or "j" in vs]
            texts = dict.fromkeys(f.format(v=v, X=x.name) for f in forms for v in vs)
            return self.choose([(t, f"len({x.name})") for t in texts], nonneg)
        parts = []
        for k in range(2):
            texts = dict.fromkeys(f.format(v=v, X=x.name, k=k) for f in IDX_AXIS for v in vs)
            part = self.choose([(t, f"{x.name}.shape[{k}]") for t in texts], nonneg)
            if part is None:
                return None
            parts.append(part)
        return ", ".join(parts)

    def element(self, kind: str | None, writable: bool = False, ndim: int | None = None) -> tuple[str, Arr] | None:
        """`X[I]` for some array of `kind` (and `ndim`); a writable one if `writable`."""
        arrays = [a for a in self.arrays.values() if (kind is None or a.kind == kind) and (a.writable or not writable)
                  and (ndim is None or a.ndim == ndim)]
        others = [a for a in arrays if a.name not in self.targets]
        aliased = [a for a in self.aliased if a in arrays]
        if not arrays:
            return None
        if self.disjoint and aliased and self.s.coin(0.6):
            x = self.s.pick(aliased)
        else:  # reading another name than the written one is where an alias hides a dependence
            x = self.s.pick(others if self.disjoint and others and self.s.coin(0.7) else arrays)
        i = self.index(x)
        return (f"{x.name}[{i}]", x) if i is not None else None

    # ------------------------------------------------------------ expressions

    def fexpr(self, depth: int = 2) -> str:
        s = self.s
        if self.raising and depth == 2 and s.coin(0.3):  # a value that raises in some iteration, on some calls
            return s.pick(RAISING_F).format(a=self.fexpr(1))
        if depth > 0 and s.coin(0.5):
            a, b = self.fexpr(depth - 1), self.fexpr(depth - 1)
            forms = ["({a} + {b})", "({a} * {b})", "({a} - {b})", "min({a}, {b})", "abs({a})",
                     "({a} if {a} > {b} else {b})", "math.sqrt(abs({a}))", "twice({a})"]
            forms += list(RAISING_F) * self.raising
            return s.pick(forms).format(a=a, b=b)
        leaves = ["1.0", "read", "x", "float(i)", "G", "read", "0.5"] + ["float(j)"] * ("j" in self.vars)
        leaves += [name for name in ("s", "t", "tmp[0]", "acc[0]") if name.split("[")[0] in self.declared]
        leaf = s.pick(leaves)
        if leaf == "read":
            got = self.element(None)
            if got is None:
                return "2.0"
            return got[0] if got[1].kind == "f" else f"float({got[0]})"
        if leaf == "s":
            self.s_ops.add("read")
        return leaf

    def iexpr(self, depth: int = 2) -> str:
        s = self.s
        if self.raising and depth == 2 and s.coin(0.3):
            return s.pick(RAISING_I)
        if depth > 0 and s.coin(0.5):
            a, b = self.iexpr(depth - 1), self.iexpr(depth - 1)
            forms = ["({a} + {b})", "({a} - {b})", "({a} * 2)", "({a} // 3)", "({a} % 5)", "abs({a})", "min({a}, {b})"]
            forms += list(RAISING_I) * self.raising
            return s.pick(forms).format(a=a, b=b)
        leaf = s.pick(["1", "i", "K", "read", "c" if "c" in self.declared else "2"])
        if leaf == "read":
            got = self.element("i")
            return got[0] if got is not None else "3"
        return leaf

    def expr(self, kind: str) -> str:
        return self.fexpr() if kind == "f" else self.iexpr()

    def cond(self) -> str:
        return self.s.pick([f"{self.fexpr(1)} > 0.0", "i % 2 == 0", f"{self.fexpr(1)} < {self.fexpr(1)}",
                            f"{self.iexpr(1)} > 0"])
