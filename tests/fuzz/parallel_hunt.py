"""Hunt for classes of parallel mismatches, outside pytest: draw programs, run each (parallel_check.py), group the
failures by class (parallel_shrink.signature), check whether each class is specific to `parallel=True` (the
same program compiled serially), shrink a representative of each class, and write a report.

    python -m tests.fuzz.parallel_hunt --programs 300 --seed 1 --out findings.md [--numpy-only]

`--numpy-only` keeps every call on NumPy arrays, so that a torch bug that fails every call does not hide the
parallel ones behind it (the pytest run varies the argument kind).
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import time
from typing import Any

from hypothesis import Phase, given, seed, settings

from .parallel_check import check_program
from .parallel_features import CONSTRUCTS, features
from .parallel_generator import parallel_programs
from .parallel_programs import ParallelProgram
from .parallel_shrink import fails_like, shrink, signature

RECHECKS = 5  # a shrunk reproducer is run this many times more: how reliably it fails


def draw(count: int, base_seed: int, runs: int) -> list[ParallelProgram]:
    found: list[ParallelProgram] = []

    @seed(base_seed)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate])
    @given(parallel_programs(runs))
    def collect(program: ParallelProgram) -> None:
        found.append(program)

    collect()
    return found


def numpy_only(program: ParallelProgram) -> ParallelProgram:
    return dataclasses.replace(program, runs=tuple(dataclasses.replace(r, kind="numpy") for r in program.runs))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--numpy-only", action="store_true")
    parser.add_argument("--shrink", type=int, default=4, help="members shrunk per class (distinct results shown)")
    parser.add_argument("--out", default="parallel_findings.md")
    parser.add_argument("--exclude", default="", help="comma-separated constructs (parallel_features.py) whose "
                        "programs are skipped: known classes, to find the others")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    programs = draw(args.programs, args.seed, args.runs)
    classes: dict[str, list[tuple[ParallelProgram, list[Any]]]] = collections.defaultdict(list)
    excluded = {name for name in args.exclude.split(",") if name}
    unknown = excluded - set(CONSTRUCTS)
    if unknown:
        parser.error(f"unknown constructs {sorted(unknown)}; see parallel_features.py")
    programs = [p for p in programs if not excluded & set(features(p))]
    for number, program in enumerate(programs):
        program = numpy_only(program) if args.numpy_only else program
        problems = check_program(program)
        if problems:
            classes[signature(problems)].append((program, problems))
        print(f"{number}: {signature(problems) if problems else 'ok'}", flush=True)
    seconds = time.perf_counter() - start
    failing = sum(len(v) for v in classes.values())
    lines = [f"{len(programs)} programs x {args.runs} calls, seed {args.seed}, numpy only: {args.numpy_only}, "
             f"excluded: {sorted(excluded)}; "
             f"{failing} mismatching in {len(classes)} classes; {seconds:.0f} s to run", ""]
    for name, members in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        lines += [f"## {name}", f"{len(members)} programs", ""]
        seen: set[str] = set()
        for program, problems in members[:args.shrink]:
            small = shrink(program, name)
            if small.source in seen:
                continue
            seen.add(small.source)
            failing = [check_program(small) for _ in range(RECHECKS)]
            shown = next((f for f in failing if f), problems)
            serial = fails_like(small, name, parallel=False, tries=1)
            lines += [f"fails {sum(map(bool, failing))} of {RECHECKS} checks; with parallel=False too: {serial}; "
                      f"contains: {', '.join(features(small))}", "```", repr(small).rstrip(), "```",
                      *[f"- {p.text[:400]}" for p in shown[:2]], ""]
        print(f"class done: {name}", flush=True)
    with open(args.out, "w") as out:
        out.write("\n".join(lines) + "\n")
    print("\n".join(lines[:1]))


if __name__ == "__main__":
    main()
