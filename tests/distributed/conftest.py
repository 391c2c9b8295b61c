"""One real LocalCluster (2 worker processes, 1 thread each) for the module that asks for it, its workers
pointed at a cache directory of their own through the environment (CUVIL_CACHE_DIR)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")  # the `dask` extra; nox's tests session installs it


@contextlib.contextmanager
def local_cluster(cache: Path, n_workers: int = 2, threads: int = 1) -> Iterator[distributed.Client]:
    with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=threads, processes=True,
                                  dashboard_address=":0", silence_logs=logging.ERROR,
                                  env={"CUVIL_CACHE_DIR": str(cache)}) as cluster:
        with distributed.Client(cluster) as client:
            yield client


@pytest.fixture(scope="module")
def worker_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cuvil-workers-cache")


@pytest.fixture(scope="module")
def client(worker_cache: Path) -> Iterator[distributed.Client]:
    with local_cluster(worker_cache) as client:
        yield client
