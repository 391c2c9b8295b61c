import os
import tempfile

# numba reads NUMBA_ENABLE_CUDASIM once, when numba is first imported, and any test may import it first: the
# whole test process simulates the GPU (tests/cuda), unless CUVIL_GPU=1 asks for the real one (bench/gpu_check.sh).
if os.environ.get("CUVIL_GPU") != "1":
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
# Strict (cuvil.config.strict): a lowering Numba refuses fails the test instead of passing through the warned
# fallback to the code as written; tests/lower/test_fallback.py turns it off to test that fallback.
os.environ.setdefault("CUVIL_STRICT", "1")

from hypothesis import HealthCheck, settings  # noqa: E402


def _reap_killed_runs() -> None:
    """Remove the test caches of runs whose process is gone: one killed (by a timeout, say) never reached
    pytest_unconfigure. The pid is in the name; a live process's folder, or one named otherwise, is kept."""
    import shutil
    from pathlib import Path

    if os.name != "posix":  # os.kill(pid, 0) asks whether pid runs only on POSIX (on Windows it kills)
        return
    for folder in Path(tempfile.gettempdir()).glob("cuvil-test-cache-*-*"):
        pid = folder.name.split("-")[3]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:  # alive, another user's
            pass


# Tests never touch the user's cache; nox points this at a fresh directory per run. Otherwise the process that
# loads this file first makes one and removes it at its session's end (pytest_unconfigure); pytest-xdist's
# workers inherit the variable from it, so they make none, and the controller ends after them.
_made: list[tuple[str, int]] = []  # (directory, the pid that made it): a forked child leaves its parent's
if "CUVIL_CACHE_DIR" not in os.environ:
    _reap_killed_runs()
    os.environ["CUVIL_CACHE_DIR"] = tempfile.mkdtemp(prefix=f"cuvil-test-cache-{os.getpid()}-")
    _made.append((os.environ["CUVIL_CACHE_DIR"], os.getpid()))

settings.register_profile(
    "cuvil", deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
settings.load_profile("cuvil")
# `nox -s quick`: a developer's slice between two changes, each property test on a few examples
settings.register_profile("cuvil-quick", parent=settings.get_profile("cuvil"), max_examples=8)
if os.environ.get("CUVIL_QUICK"):
    settings.load_profile("cuvil-quick")

# Under `nox -s mutation` (tests/mutation/run.py) every mutant runs in a process forked from one that already
# imported everything: each mutant gets a cache of its own, or a module compiled by unmutated code (on the disk
# or in memory) would hide the mutant. Hypothesis draws the same examples for every mutant.
if os.environ.get("CUVIL_MUTATION"):
    settings.register_profile("cuvil-mutation", parent=settings.get_profile("cuvil"), derandomize=True,
                              database=None)
    settings.load_profile("cuvil-mutation")


if os.environ.get("CUVIL_MUTATION"):
    import pytest

    @pytest.fixture(autouse=True)
    def _compile_afresh(monkeypatch, tmp_path):
        """Every test compiles what it calls, from an empty cache: mutmut maps a test to the compiler functions
        it saw run in one recorded session, and a test served from an earlier test's cache (in memory or on
        disk) was never mapped to them, so no mutant of the compiler ran it (a survivor that its own test
        killed when planted by hand: lower/plan.py `_describe` 26)."""
        from cuvil.runtime import dispatcher

        dispatcher._memory.clear()
        monkeypatch.setenv("CUVIL_CACHE_DIR", str(tmp_path / "cuvil-cache"))


def pytest_configure(config):
    if os.environ.get("CUVIL_MUTATION"):
        from cuvil.runtime import dispatcher

        os.environ["CUVIL_CACHE_DIR"] = tempfile.mkdtemp(prefix="cuvil-mutant-cache-")
        _made.append((os.environ["CUVIL_CACHE_DIR"], os.getpid()))
        dispatcher._memory.clear()


def pytest_unconfigure(config):
    """Remove the directories this process made (the test cache; a mutant's). A private cache that a test of
    an unwritable root makes is cache_root's: it removes that at exit."""
    import shutil

    for path, pid in _made:
        if pid == os.getpid():
            shutil.rmtree(path, ignore_errors=True)


if os.environ.get("CUVIL_TEST_COMPILES"):  # where the suite's time goes: every compile, by the test that caused it
    from cuvil.runtime import events as _events

    _record = _events.record

    def _recording(fn, event, guard):
        _record(fn, event, guard)
        test = os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" ", 1)[0]
        with open(f"{os.environ['CUVIL_TEST_COMPILES']}.{os.getpid()}", "a") as out:
            out.write(f"{test}\t{event.cache}\t{event.total:.3f}\t{event.function}{event.signature}\n")

    _events.record = _recording
