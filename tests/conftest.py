import os
import tempfile

# numba reads NUMBA_ENABLE_CUDASIM once, when numba is first imported, and any test may import it first: the
# whole test process simulates the GPU (tests/cuda), unless CUVIL_GPU=1 asks for the real one (bench/gpu_check.sh).
if os.environ.get("CUVIL_GPU") != "1":
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

from hypothesis import HealthCheck, settings  # noqa: E402

# Tests never touch the user's cache; nox points this at a fresh directory per run.
os.environ.setdefault("CUVIL_CACHE_DIR", tempfile.mkdtemp(prefix="cuvil-test-cache-"))

settings.register_profile(
    "cuvil", deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
settings.load_profile("cuvil")

# Under `nox -s mutation` (tests/mutation/run.py) every mutant runs in a process forked from one that already
# imported everything: each mutant gets a cache of its own, or a module compiled by unmutated code (on the disk
# or in memory) would hide the mutant. Hypothesis draws the same examples for every mutant.
if os.environ.get("CUVIL_MUTATION"):
    settings.register_profile("cuvil-mutation", parent=settings.get_profile("cuvil"), derandomize=True,
                              database=None)
    settings.load_profile("cuvil-mutation")


def pytest_configure(config):
    if os.environ.get("CUVIL_MUTATION"):
        from cuvil.runtime import dispatcher

        os.environ["CUVIL_CACHE_DIR"] = tempfile.mkdtemp(prefix="cuvil-mutant-cache-")
        dispatcher._memory.clear()


def pytest_unconfigure(config):
    if os.environ.get("CUVIL_MUTATION"):
        import shutil

        shutil.rmtree(os.environ["CUVIL_CACHE_DIR"], ignore_errors=True)
