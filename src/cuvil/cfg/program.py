"""The analyses that need the whole program: each compiled function's summary, callees first, and the
parallel-loop decisions that read them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

import libcst as cst

from ..normalize.names import assigned_names
from .aliases import Aliases
from .dependence import LoopDecision, loop_decisions
from .effects import Calls, Global, Summary
from .raising import lengths
from .summary import summarize
from .uses import reads_in


@dataclasses.dataclass(frozen=True)
class FunctionAnalysis:
    aliases: Aliases
    summary: Summary
    loops: list[LoopDecision]


def analyze_program(functions: Mapping[str, cst.FunctionDef], entry: str, globals: Mapping[str, Global],
                    numbers: frozenset[str], ranks: Mapping[str, int], parallel: bool,
                    is_number: Mapping[str, Callable[[cst.BaseExpression], bool]] | None = None
                    ) -> dict[str, FunctionAnalysis]:
    """`functions` by their names in the generated module; `numbers` and `ranks` what the variant's argument
    types say of the entry's parameters; loops are decided only when `parallel`; `is_number`, per function,
    says which expressions the types analysis knows are numbers."""
    summaries: dict[str, Summary] = {}
    done: dict[str, FunctionAnalysis] = {}
    active: set[str] = set()

    def visit(name: str) -> None:
        if name in done or name in active:
            return  # a recursive call sees no summary: the opaque one
        active.add(name)
        fn = functions[name]
        for callee in sorted({n.value for n in reads_in(fn.body)}):
            found = globals.get(callee)
            if found is not None and found.kind == "helper" and found.qualname in functions:
                visit(found.qualname)
        local = {p.name.value for p in fn.params.params} | assigned_names(fn.body)
        calls = Calls(globals, local, summaries, lengths(fn))
        known = (is_number or {}).get(name)
        aliases = Aliases(fn, calls, numbers, ranks, known) if name == entry else \
            Aliases(fn, calls, is_number=known)
        summaries[name] = summarize(fn, aliases)
        loops = loop_decisions(fn, aliases) if parallel else []
        done[name] = FunctionAnalysis(aliases, summaries[name], loops)
        active.discard(name)

    visit(entry)
    for name in functions:  # anything not reached from the entry (cannot happen today; stay total)
        visit(name)
    return done
