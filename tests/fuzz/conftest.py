"""One summary line per fuzz part at the end of a run: programs, runs of each (where a part says), mismatching
programs, seconds.

Under pytest-xdist each worker ships its tally to the controller (`workeroutput`), which adds them up.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .harness import SEED, TALLY

_collected: list[dict[str, dict[str, Any]]] = []


def pytest_sessionfinish(session: pytest.Session) -> None:
    output = getattr(session.config, "workeroutput", None)
    if output is not None:  # an xdist worker: hand the tally over
        output["cuvil_fuzz"] = json.dumps({name: part.as_dict() for name, part in TALLY.items()})


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    text = getattr(node, "workeroutput", {}).get("cuvil_fuzz")
    if text:
        _collected.append(json.loads(text))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    parts = _collected or [{name: part.as_dict() for name, part in TALLY.items()}]
    totals: dict[str, dict[str, Any]] = {}
    for tally in parts:
        for name, part in tally.items():
            total = totals.setdefault(name, {"programs": 0, "mismatches": set(), "seconds": 0.0, "runs": 0})
            total["programs"] += part["programs"]
            total["mismatches"] |= set(part["mismatches"])
            total["seconds"] += part["seconds"]
            total["runs"] = max(total["runs"], part.get("runs", 0))
    for name, total in sorted(totals.items()):
        runs = f", {total['runs']} runs each" if total["runs"] else ""
        terminalreporter.write_line(
            f"cuvil fuzz {name}: {total['programs']} programs{runs}, {len(total['mismatches'])} mismatching, "
            f"{total['seconds']:.1f} s ({total['programs'] / max(total['seconds'], 1e-9):.1f} programs/s), "
            f"seed {SEED}")
