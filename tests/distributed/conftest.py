"""One real LocalCluster (2 worker processes, 1 thread each) for the module that asks for it, its workers
pointed at a cache directory of their own through the environment (CUVIL_CACHE_DIR)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")  # the `dask` extra; nox's tests session installs it


def pin_compiler(fingerprint: str) -> None:
    """Key this process's compiles with the test process's fingerprint of Cuvil's files (cache_key.py keys by
    their sizes and mtimes, read once per process): a working tree edited while the suite runs must not make a
    worker started later key the same code differently. Run in each worker and child process."""
    from cuvil.runtime import cache_key

    cache_key._compiler_fingerprint = lambda: fingerprint  # type: ignore[method-assign]


def compiler_fingerprint() -> str:
    from cuvil.runtime import cache_key

    return cache_key._compiler_fingerprint()


@contextlib.contextmanager
def local_cluster(cache: Path, n_workers: int = 2, threads: int = 1) -> Iterator[distributed.Client]:
    with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=threads, processes=True,
                                  dashboard_address=":0", silence_logs=logging.ERROR,
                                  env={"CUVIL_CACHE_DIR": str(cache)}) as cluster:
        with distributed.Client(cluster) as client:
            client.run(pin_compiler, compiler_fingerprint())
            yield client


@pytest.fixture(scope="module")
def worker_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cuvil-workers-cache")


@pytest.fixture(scope="module")
def client(worker_cache: Path) -> Iterator[distributed.Client]:
    with local_cluster(worker_cache) as client:
        yield client
