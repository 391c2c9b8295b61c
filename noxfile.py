"""Every task of the project: `nox -s tests | lint | demo | bench | update-golden`."""

from __future__ import annotations

import nox

nox.options.sessions = ["tests"]
nox.options.reuse_existing_virtualenvs = True

CONSTRAINTS = ("-c", "constraints/tests.txt")


@nox.session
def tests(session: nox.Session) -> None:
    session.install("-e", ".[dev,torch]", *CONSTRAINTS)
    cache = session.create_tmp() + "/cuvil-cache"
    session.run("rm", "-rf", cache, external=True)
    session.run(
        "pytest", "-n", "2", "-q", *session.posargs, env={"CUVIL_CACHE_DIR": cache}
    )


@nox.session
def lint(session: nox.Session) -> None:
    session.install("-e", ".[dev]", *CONSTRAINTS)
    session.run("ruff", "check", "src", "tests", "bench", "noxfile.py")
    session.run("mypy", "src/cuvil")


@nox.session
def demo(session: nox.Session) -> None:
    session.install("-e", ".")
    session.run("cuvil", "demo", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    # bench/run.py: the full comparison, writing bench/results.json, REPORT.md and results.png
    # (`nox -s bench -- --quick` for a smoke test); bench/cpu_vs_numba.py still runs on its own.
    session.install("-e", ".[torch]", "matplotlib", *CONSTRAINTS)
    session.run("python", "bench/run.py", *session.posargs)


@nox.session(name="update-golden")
def update_golden(session: nox.Session) -> None:
    session.install("-e", ".[dev]", *CONSTRAINTS)
    session.run("python", "-m", "tests.golden.update")
