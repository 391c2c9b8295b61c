"""Check that new tests kill the mutants they were written for, without touching the module's own verdicts:

    python -m tests.mutation.verify TARGET --tests TEST [TEST ...] --mutants NAME [NAME ...]

mutmut forgets every verdict of a work folder when its test list changes, so the new tests run in a folder of
their own, build/mutation/verify-<target>/, with only those tests, and only the named mutants (a full name, or
its end as tests/MUTATION.md writes it: `x__step__mutmut_5`). Each verdict goes to build/mutation/verified.json
(name → exit code and the tests), which run.py's table counts as "killed on a second try".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from .run import LEDGER, STATUS, WORK, alone, prepare, slug, verdicts


def resolve(target: str, names: list[str]) -> list[str]:
    known = verdicts(WORK / slug(target))
    out = []
    for name in names:
        found = [k for k in known if k == name or k.endswith("." + name) or k.endswith(name)]
        if len(found) != 1:
            raise SystemExit(f"{name!r} names {len(found)} mutants of {target}: {found[:5]}")
        out += found
    return out


def verify(target: str, tests: list[str], names: list[str]) -> dict[str, str]:
    full = resolve(target, names)
    with alone(f"verify-{slug(target)}") as mine:
        if not mine:
            return {}
        return _verify(target, tests, full)


def _verify(target: str, tests: list[str], full: list[str]) -> dict[str, str]:
    work = prepare(target, tuple(tests), folder=f"verify-{slug(target)}")
    # mutmut keeps its map of tests to functions while the list is unchanged: a scratch folder records it anew
    (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    env = {**os.environ, "CUVIL_MUTATION": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    mutmut = Path(sys.executable).with_name("mutmut")
    start = time.time()
    subprocess.run(["nice", "-n", "10", str(mutmut), "run", "--max-children", "1", *full], cwd=work, env=env,
                   check=False)
    found = verdicts(work)
    ledger = json.loads(LEDGER.read_text()) if LEDGER.exists() else {}
    result = {}
    for name in full:
        code = found.get(name)
        ledger[name] = {"exit_code": code, "tests": tests, "seconds": round(time.time() - start)}
        result[name] = STATUS.get(code, "suspicious")
    LEDGER.write_text(json.dumps(ledger, indent=1, sort_keys=True))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target", help="a target of tests/mutation/targets.py")
    parser.add_argument("--tests", nargs="+", required=True, help="pytest arguments: the new tests")
    parser.add_argument("--mutants", nargs="+", required=True, help="mutant names (or their ends)")
    parser.add_argument("-k", dest="keyword", default=None, help="pytest's -k, for the tests")
    args = parser.parse_args()
    tests = [*args.tests, *(["-k", args.keyword] if args.keyword else [])]
    for name, status in verify(args.target, tests, args.mutants).items():
        print(f"{status:10} {name}")


if __name__ == "__main__":
    main()
