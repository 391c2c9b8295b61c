"""Shared fixture of the torch backend's tests: a process with no compiled kernel and an empty cache, so that
counts of kernels built and compiled do not depend on which tests ran before."""

import sys

import pytest


def forget_compiled_kernels():
    """What a new process would not have: the compiled kernels and the imported generated modules."""
    from cuvil.dynamo import compiled

    compiled._COMPILED.clear()
    compiled._REFUSED.clear()
    for name in [n for n in sys.modules if n.startswith("cuvil_dynamo_")]:
        del sys.modules[name]


@pytest.fixture
def new_process(tmp_path, monkeypatch):
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(tmp_path))
    forget_compiled_kernels()


@pytest.fixture(autouse=True)
def fresh():
    """Each test starts with Dynamo's and the backend's caches empty (a file may override this fixture)."""
    torch = pytest.importorskip("torch")
    import cuvil.dynamo as cd

    torch._dynamo.reset()
    cd.reset()
    yield
    torch._dynamo.reset()
