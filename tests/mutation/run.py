"""`nox -s mutation`: mutmut over the compiler's core, module by module, within a time budget; resumable.

    python -m tests.mutation.run [--budget SECONDS] [--cap SECONDS] [--children N] [--every K [--offset I]]
                                 [--survivors] [TARGET ...]

Each target of tests/mutation/targets.py (all, in order, when none is named) gets a work folder of its own,
build/mutation/<target>/, whose setup.cfg tells mutmut what to mutate and which tests to run; mutmut keeps every
verdict there, so a second run goes on where the first stopped (the budget ran out, or it was interrupted) and
tries only mutants without one. A module's mutants are tried after the previous module's (each for `--cap`
seconds at most), until the budget is spent; mutmut tries a module's quickest mutants first. `--survivors` tries
again only the mutants that survived (after tests were added to kill them). `--every K` tries a deterministic
sample: the mutants whose position in their module's list (mutmut's generation order) is I modulo K, so a short
run gives each module a figure over mutants spread across all its functions, not only its cheapest ones; a
later run with another `--offset` tries a disjoint sample. The counts go to build/mutation/summary.json and are
printed as the table of tests/MUTATION.md; each run's wall time is appended to build/mutation/runs.jsonl.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path

from .equivalent import EQUIVALENT
from .targets import TARGETS

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "build" / "mutation"
LEDGER = WORK / "verified.json"  # verify.py's verdicts: survivors run again with the tests written for them
# mutmut's exit codes (mutmut/stats.py), as MUTATION.md counts them
STATUS = {1: "killed", 3: "killed", 0: "survived", 36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout",
          255: "timeout", 33: "no tests", 5: "no tests", None: "not run"}


def slug(target: str) -> str:
    return target.replace("/", "-").replace("*.py", "rest").removesuffix(".py")


def explicit(target: str) -> list[str]:
    """Modules a glob target leaves out: those listed as targets of their own (a module or a narrower glob)."""
    prefix = target.removesuffix("*.py")
    return [t for t in TARGETS if t != target and t.startswith(prefix)]


def prepare(target: str, tests: tuple[str, ...] | None = None, folder: str | None = None) -> Path:
    """The target's work folder with the committed tree (HEAD: what others have in flight in the work tree is
    not what is tested) and its mutmut configuration (`tests`, `folder`: verify.py's other list and folder)."""
    work = WORK / (folder or slug(target))
    work.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", "src", "tests", "pyproject.toml"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(work)], input=archive, check=True)
    lines = ["[mutmut]", "source_paths = src", f"only_mutate = src/cuvil/{target}",
             "pytest_add_cli_args_test_selection =", *(f"    {a}" for a in tests or TARGETS[target]),
             "pytest_add_cli_args = -p no:cacheprovider -p no:xdist", "timeout_multiplier = 4",
             "process_isolation = forkserver", "use_git_change_detection = false"]
    skip = explicit(target)
    if skip:
        lines += ["do_not_mutate =", *(f"    src/cuvil/{t}" for t in skip)]
    (work / "setup.cfg").write_text("\n".join(lines) + "\n")
    return work


def counts(work: Path) -> dict[str, dict[str, int]]:
    """Per mutated file, how many mutants ended how."""
    ledger = json.loads(LEDGER.read_text()) if LEDGER.exists() else {}
    out = {}
    for meta in sorted((work / "mutants" / "src").rglob("*.py.meta")):
        codes = json.loads(meta.read_text()).get("exit_code_by_key", {})
        if not codes:
            continue
        tally = Counter(STATUS.get(c, "suspicious") for c in codes.values())
        survivors = [k for k, c in codes.items() if c == 0]
        tally["equivalent"] = sum(k in EQUIVALENT for k in survivors)
        tally["killed on a second try"] = sum(k not in EQUIVALENT and STATUS.get(ledger.get(k, {}).get("exit_code"))
                                           in ("killed", "timeout") for k in survivors)
        name = str(meta.relative_to(work / "mutants" / "src" / "cuvil")).removesuffix(".meta")
        out[name] = {"generated": len(codes), **tally}
    return out


def verdicts(work: Path) -> dict[str, int | None]:
    """Every mutant of the work folder's last generation, with its exit code (None: not tried)."""
    out: dict[str, int | None] = {}
    for meta in sorted((work / "mutants" / "src").rglob("*.py.meta")):
        out.update(json.loads(meta.read_text()).get("exit_code_by_key", {}))
    return out


def sample(work: Path, target: str, every: int, offset: int) -> list[str]:
    """The untried mutants at positions `offset`, `offset + every`, … of each module's list, in the order mutmut
    generates them (the same names mutmut gives them: its own generator run on the work folder's source)."""
    from mutmut.mutation.file_mutation import mutate_file_contents
    from mutmut.utils.format_utils import get_mutant_name

    skip = {p for t in explicit(target) for p in (work / "src" / "cuvil").glob(t)}
    tried = {k for k, v in verdicts(work).items() if v is not None}
    names = []
    for path in sorted((work / "src" / "cuvil").glob(target)):
        if path in skip:
            continue
        rel = path.relative_to(work)
        made = [get_mutant_name(rel, m) for m in mutate_file_contents(str(rel), path.read_text()).mutant_names]
        names += [n for i, n in enumerate(made) if i % every == offset and n not in tried]
    return names


def survivors(work: Path) -> list[str]:
    """The mutants of the last run that no test killed: tried again by `--survivors` (after new tests)."""
    names = []
    for meta in sorted((work / "mutants" / "src").rglob("*.py.meta")):
        names += [k for k, c in json.loads(meta.read_text()).get("exit_code_by_key", {}).items() if c == 0]
    return names


@contextlib.contextmanager
def alone(folder: str) -> Iterator[bool]:
    """Whether this process holds the work folder: two mutmut runs in one folder overwrite each other's state
    and verdicts (seen once: three runs side by side, none decided a mutant in 12 minutes)."""
    WORK.mkdir(parents=True, exist_ok=True)
    with open(WORK / f"{folder}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"== {folder}: another run holds it; not started", flush=True)
            yield False
            return
        yield True


def run(target: str, seconds: float, children: int, again: bool = False, every: int = 0, offset: int = 0) -> None:
    with alone(slug(target)) as mine:
        if mine:
            _run(target, seconds, children, again, every, offset)


def _run(target: str, seconds: float, children: int, again: bool, every: int, offset: int) -> None:
    retry = survivors(WORK / slug(target)) if again else []
    if again and not retry:
        return
    work = prepare(target)
    if every and not again:
        retry = sample(work, target, every, offset)
        if not retry:
            print(f"== {target}: every mutant of the sample has a verdict", flush=True)
            return
    env = {**os.environ, "CUVIL_MUTATION": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    mutmut = Path(sys.executable).with_name("mutmut")
    # nice 10, the other engineers' level: at 19 a run got 5-7% of a core at load 10 (the fifth session)
    command = ["nice", "-n", "10", "timeout", "-s", "INT", "-k", "60", str(int(seconds)), str(mutmut), "run",
               "--max-children", str(children), *retry]
    print(f"== {target}: up to {int(seconds)} s in {work}" + (f", {len(retry)} mutants" if retry else ""),
          flush=True)
    start, before = time.time(), verdicts(work)
    with open(work / "mutmut.log", "w") as out:  # kept: a run that decides nothing must say why
        code = subprocess.run(command, cwd=work, env=env, check=False, stdout=out, stderr=subprocess.STDOUT).returncode
    after = verdicts(work)
    newly = sum(1 for k, v in after.items() if v is not None and v != before.get(k))
    ended = how_it_ended(work / "mutmut.log", code)
    print(f"== {target}: {newly} new verdicts; {ended} (mutmut's output: {work / 'mutmut.log'})", flush=True)
    with open(WORK / "runs.jsonl", "a") as log:
        log.write(json.dumps({"target": target, "start": time.strftime("%Y-%m-%d %H:%M", time.localtime(start)),
                              "seconds": round(time.time() - start), "new_verdicts": newly, "every": every,
                              "offset": offset, "survivors_again": again, "ended": ended}) + "\n")


def how_it_ended(output: Path, code: int) -> str:
    """In words, from mutmut's output: a run stopped by the budget in its recording or clean runs decides
    nothing, and a clean run that fails (a test of the list failing on the unmutated tree) stops it for good —
    its failing test is the line to read (the third session's analysis run ended so and nothing said why)."""
    text = output.read_text(errors="replace").replace("\r", "\n")
    lines = [ln.strip().lstrip("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏").strip() for ln in text.splitlines()]  # less mutmut's spinner
    failed = [ln for ln in lines if ln.startswith(("FAILED ", "ERROR "))]
    if any(ln.startswith("failed to collect stats") for ln in lines):  # mutmut prints none of pytest's output
        return "the recording run of the test list failed (run the list in the work folder's mutants/ to see why)"
    if "Failed to run clean test" in lines:
        return "the clean run of the test list failed: " + ("; ".join(failed[:3]) or "see the output")
    if "Aborted!" in lines or code in (124, 130, -2):
        phase = next((ln for ln in reversed(lines) if ln.startswith(("Running", "Generating"))), "a run")
        return f"stopped by the budget ({phase.lower().rstrip('.')})"
    return f"mutmut exited {code}"


def table(summary: dict[str, dict[str, dict[str, int]]]) -> str:
    """tests/MUTATION.md's table: mutmut's counts, the survivors judged equivalent (equivalent.py) and those the
    new tests kill (verify.py's ledger) set apart, and the kill rate three ways."""
    rows = ["| module | generated | tried | killed | timeout | survived | equivalent | killed on a second try | "
            "no tests | not run | kill rate | without equivalents | with the second tries |", "|---" * 13 + "|"]
    total: Counter[str] = Counter()
    for files in summary.values():
        for name, c in sorted(files.items()):
            total.update(c)
            rows.append(_row(name, c))
    rows.append(_row("**all**", total))
    return "\n".join(rows)


def _row(name: str, c: Mapping[str, int]) -> str:
    tried = c.get("killed", 0) + c.get("survived", 0) + c.get("timeout", 0)
    dead, eq, new = c.get("killed", 0) + c.get("timeout", 0), c.get("equivalent", 0), c.get("killed on a second try", 0)

    def rate(n: int, d: int) -> str:
        return f"{100 * n / d:.0f}%" if d else "-"

    return (f"| {name} | {c.get('generated', 0)} | {tried} | {c.get('killed', 0)} | {c.get('timeout', 0)} | "
            f"{c.get('survived', 0)} | {eq} | {new} | {c.get('no tests', 0)} | {c.get('not run', 0)} | "
            f"{rate(dead, tried)} | {rate(dead, tried - eq)} | {rate(dead + new, tried - eq)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds of wall time in all (default 3600)")
    parser.add_argument("--children", type=int, default=1, help="mutants tried side by side (default 1)")
    parser.add_argument("--every", type=int, default=0, help="try only every K-th mutant of each module")
    parser.add_argument("--offset", type=int, default=0, help="with --every: start at this position (default 0)")
    parser.add_argument("--survivors", action="store_true", help="try again only the mutants that survived")
    parser.add_argument("--cap", type=float, default=None, help="seconds at most for one target (default: none)")
    parser.add_argument("targets", nargs="*", help=f"of {list(TARGETS)} (default: all, in that order)")
    args = parser.parse_args()
    deadline = time.monotonic() + args.budget
    for target in args.targets or list(TARGETS):
        left = deadline - time.monotonic()
        if left < 60:
            print(f"== budget spent: {target} and the rest not run", flush=True)
            break
        run(target, min(left, args.cap or left), args.children, args.survivors, args.every,
            args.offset % max(args.every, 1))
    summary = {t: counts(WORK / slug(t)) for t in TARGETS if (WORK / slug(t) / "mutants").exists()}
    (WORK / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True))
    print(table(summary))


if __name__ == "__main__":
    main()
