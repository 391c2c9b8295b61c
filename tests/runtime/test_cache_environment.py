"""cache_key.environment(): the parts of every key that do not depend on the function, public for other keys
of generated code (the torch.compile backend's partitions)."""

from __future__ import annotations

import sys

import numba

from cuvil.options import Options
from cuvil.runtime import cache_key
from tests.helpers import define

TWICE = define("""
    def twice(x):
        return x * 2
    """)


def test_environment_names_every_function_independent_part():
    env = cache_key.environment()
    assert set(env) == {"format", "cuvil", "python", "numba", "llvmlite", "numpy", "libcst", "numba_cuda"}
    assert env["python"] == list(sys.version_info[:2]) and env["numba"] == numba.__version__
    assert env == cache_key.environment()  # stable within a process


def test_a_changed_environment_part_changes_the_key(monkeypatch):
    before = cache_key.key(TWICE, Options())
    versions = {**cache_key._versions(), "numba": "0.0.1"}
    monkeypatch.setattr(cache_key, "_versions", lambda: versions)
    assert cache_key.environment()["numba"] == "0.0.1"
    assert cache_key.key(TWICE, Options()) != before
