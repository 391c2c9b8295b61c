"""Shrink a failing parallel-fuzz program to a small one that fails the same way: plainer calls (NumPy arguments,
the smallest size that still fails, nothing changed between calls), plainer argument memory and options, then
statements deleted one at a time (a `for`/`if` with its block) and returned values dropped, until nothing more
can go. Hypothesis shrinks the choices the generator made; this shrinks the text, which is what a reproducer
in a report needs. A race may not show on every try: a candidate counts as failing if any of `tries` runs of
it fails the same way."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from .parallel_check import Problem, check_program
from .parallel_programs import INDENT, LAYOUTS, ParallelProgram


def signature(problems: list[Problem]) -> str:
    """The class of a failure: the kind of its first difference, and for a raise the first words Cuvil said."""
    first = problems[0]
    if first.kind.startswith("raised") or " instead of " in first.kind:
        said = first.text.split("Cuvil raises ", 1)[-1].split(": ", 1)[-1]
        said = said.split(": ", 1)[-1] if said.startswith("<cuvil-test") else said
        return f"{first.kind}: {' '.join(said.split()[:6])}"
    return first.kind


def fails_like(program: ParallelProgram, wanted: str, parallel: bool = True, tries: int | None = None) -> bool:
    """Whether `program` fails in the class `wanted`; a wrong value may come from a race that does not show on
    every run, so those get a second try (a compile error or a missing raise does not come and go)."""
    tries = tries if tries is not None else 2 if wanted in ("value", "write") else 1
    for _ in range(tries):
        try:
            problems = check_program(program, parallel=parallel)
        except SyntaxError:
            return False
        if problems and signature(problems) == wanted:
            return True
    return False


def shrink(program: ParallelProgram, wanted: str, budget: int = 80,
           fails: Callable[[ParallelProgram, str], bool] = fails_like) -> ParallelProgram:
    best, tried = program, 0
    progress = True
    while progress and tried < budget:
        progress = False
        for candidate in candidates(best):
            tried += 1
            if candidate.source != best.source or candidate != best:
                if fails(candidate, wanted):
                    best, progress = candidate, True
                    break
            if tried >= budget:
                break
    return best


def candidates(p: ParallelProgram) -> Iterator[ParallelProgram]:
    first = dataclasses.replace(p.runs[0], kind="numpy")
    for size in sorted({r.size for r in p.runs} | {4, 8}):
        if size < first.size:
            yield dataclasses.replace(p, runs=(dataclasses.replace(first, size=size),) * len(p.runs))
    if any(r != first for r in p.runs):
        yield dataclasses.replace(p, runs=(first,) * len(p.runs))
        for r in p.runs[1:]:
            yield dataclasses.replace(p, runs=(first, first, dataclasses.replace(r, kind="numpy")))
    if p.layout != "distinct" and "distinct" in LAYOUTS[p.family]:
        yield dataclasses.replace(p, layout="distinct", b_dtype="float64")
    if p.dynamic is not None:
        yield dataclasses.replace(p, dynamic=None)
    if p.boundscheck:
        yield dataclasses.replace(p, boundscheck=False)
    body = list(p.body)
    for start in range(len(body) - 1):  # a statement with its nested block, never the return
        end = block_end(body, start)
        rest = body[:start] + body[end:]
        yield dataclasses.replace(p, body=tuple(fill_empty_blocks(rest)))
    yield from fewer_returns(p)


def block_end(body: list[str], start: int) -> int:
    depth = indent_of(body[start])
    end = start + 1
    while end < len(body) - 1 and indent_of(body[end]) > depth:
        end += 1
    if body[start].lstrip().startswith("if ") and end < len(body) and body[end].strip() == "else:" \
            and indent_of(body[end]) == depth:  # an `if` goes with its `else`
        end = block_end(body, end)
    return end


def indent_of(line: str) -> int:
    return (len(line) - len(line.lstrip())) // len(INDENT)


def fill_empty_blocks(body: list[str]) -> list[str]:
    out: list[str] = []
    for n, line in enumerate(body):
        out.append(line)
        if line.rstrip().endswith(":") and (n + 1 == len(body) or indent_of(body[n + 1]) <= indent_of(line)):
            out.append(INDENT * (indent_of(line) + 1) + "pass")
    return out


def fewer_returns(p: ParallelProgram) -> Iterator[ParallelProgram]:
    ret = p.body[-1]
    items = ret[len("return "):].split(", ")
    if len(items) < 2:
        return
    for item in items:
        loose = (-1,) if p.loose and item == "s" else ()
        yield dataclasses.replace(p, body=(*p.body[:-1], f"return {item}"), loose=loose)
