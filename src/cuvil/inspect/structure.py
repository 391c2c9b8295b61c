"""A variant's structure as canonical lines: what its fingerprint hashes and what its diffs compare.

One line per region, indented by nesting: its kind (Alloc, ParallelNest, Serial, Control), loop extents, the
reductions with operator and dtype, the allocations with dtype and shape, and the region's lowered statements
as a token stream — so fused operations, casts, static extents (constants) and loops inside serial code are
all in it. Left out on purpose, because they change no generated code's structure: the user's line numbers and
comments (`# L12`, a check's `at=12`), and the names of variables and temporaries (renamed p0, p1, … for
parameters and v0, v1, … for locals, in order of first appearance). Module-level names (np, numba,
intrinsics) stay: they name operations. Each argument's type and which of its dims are static (with their
sizes) head the lines.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable, Iterator
from typing import Any

import libcst as cst

from ..lower.plan import Alloc, Control, ParallelNest, Plan, Serial
from ..normalize.names import assigned_names
from .variants import VariantPlans

_code = cst.Module([])


def structure(vp: VariantPlans) -> list[str]:
    """The canonical lines of a variant: its signature, then each function's regions."""
    lines = [f"target {vp.target}"]
    for kind, shape in zip(vp.args, vp.shapes):
        dims = "" if shape is None else " dims (" + ", ".join("?" if d is None else str(d) for d in shape) + ")"
        lines.append(f"param {kind}{dims}")
    for k, plan in enumerate(vp.plans.values()):
        names = _Names(plan)
        lines.append(f"function f{k}({', '.join(names.rename(p.name.value) for p in plan.function.params.params)})")
        lines += _regions(plan.regions, names, "  ")
    return lines


_AT = re.compile(r" , at = \d+(?= \))")


class _Names:
    """Parameters and locals renamed in order of first appearance; every other name kept."""

    def __init__(self, plan: Plan):
        self.params = [p.name.value for p in plan.function.params.params]
        self.locals = assigned_names(plan.function.body)  # loop targets included
        self.map: dict[str, str] = {p: f"p{k}" for k, p in enumerate(self.params)}

    def rename(self, name: str) -> str:
        if name not in self.map and name in self.locals:
            self.map[name] = f"v{sum(v.startswith('v') for v in self.map.values())}"
        return self.map.get(name, name)

    def tokens(self, node: cst.CSTNode | str) -> str:
        text = node if isinstance(node, str) else _code.code_for_node(node)
        # a check helper's `at=<line>` (lower/located.py) is a user's line number too
        return _AT.sub("", " ".join(self._tokens(text))).removesuffix(" ;")

    def _tokens(self, text: str) -> Iterator[str]:
        skip = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}
        try:
            for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                if tok.type in skip:
                    continue
                if tok.type == tokenize.NEWLINE:
                    yield ";"
                elif tok.type == tokenize.INDENT:
                    yield "{"
                elif tok.type == tokenize.DEDENT:
                    yield "}"
                elif tok.type == tokenize.NAME:
                    yield self.rename(tok.string)
                else:
                    yield tok.string
        except (tokenize.TokenError, IndentationError):  # a header alone (`for i in x:`) ends early
            return


def _regions(regions: Iterable[Any], names: _Names, indent: str) -> list[str]:
    out: list[str] = []
    for r in regions:
        if isinstance(r, Alloc):
            out.append(f"{indent}Alloc {names.rename(r.name)}: {r.dtype}{names.tokens(r.shape)}")
        elif isinstance(r, ParallelNest):
            reductions = ", ".join(sorted(f"{names.rename(v)} {op} {dt}" for v, op, dt in r.reductions))
            serial_if = " or ".join(sorted(names.tokens(c) for c in r.serial_if))
            out.append(f"{indent}ParallelNest {names.rename(r.axis)} in range({names.tokens(r.extent)})"
                       f" reduce [{reductions}] checks {r.checks} serial if [{serial_if}]")
            out.append(f"{indent}  body {names.tokens(r.loop.body)}")
        elif isinstance(r, Serial):
            out.append(f"{indent}Serial " + " ".join(names.tokens(s) for s in r.statements))
        elif isinstance(r, Control):
            header = _code.code_for_node(r.statement).splitlines()[0].split("#")[0].rstrip()
            out.append(f"{indent}Control {names.tokens(header)}")
            out += _regions(r.body, names, indent + "  ")
            if r.orelse:
                out.append(f"{indent}else")
                out += _regions(r.orelse, names, indent + "  ")
    return out
