import os
import tempfile

from hypothesis import HealthCheck, settings

# Tests never touch the user's cache; nox points this at a fresh directory per run.
os.environ.setdefault("CUVIL_CACHE_DIR", tempfile.mkdtemp(prefix="cuvil-test-cache-"))

settings.register_profile(
    "cuvil", deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
settings.load_profile("cuvil")
