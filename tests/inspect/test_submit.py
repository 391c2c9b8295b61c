"""fn.submit: a call on Cuvil's thread pool, its result or its error through a Future; nogil calls overlap."""

from __future__ import annotations

import concurrent.futures
import os
import time

import numpy as np
import pytest

import cuvil
from bench.submit import SOURCE as SPIN  # the bench's kernel: the test and the figure are of one loop
from cuvil.runtime import pool
from tests.helpers import define


@pytest.fixture
def two_workers():
    pool.resize(2)
    yield
    pool.resize()


def test_submit_returns_a_future_of_the_result_first_call_hit_and_miss(two_workers):
    fn = cuvil.jit(define(SPIN))
    plain = fn.py_func
    x32 = np.arange(10, dtype=np.float32)
    for x in (np.arange(10.0), np.arange(10.0) + 1, x32):  # first call, guard hit, guard miss (float32)
        future = fn.submit(x, 3)
        assert isinstance(future, concurrent.futures.Future)
        assert future.result(timeout=120) == pytest.approx(plain(x, 3), rel=1e-6)
    assert len(fn.compile_events) == 2
    assert fn.submit(x=np.arange(4.0), reps=2).result(timeout=120) == plain(np.arange(4.0), 2)  # keywords


def test_submit_errors_arrive_through_the_future_as_a_direct_call_raises(two_workers):
    pick = cuvil.jit(define("""
    def pick(x, k):
        return x[k]
    """))
    with pytest.raises(IndexError) as direct:
        pick(np.ones(3), 10)
    error = pick.submit(np.ones(3), 10).exception(timeout=120)
    assert type(error) is IndexError and str(error) == str(direct.value) == "index 10 is out of bounds for axis 0 " \
        "with size 3"
    undefined = cuvil.jit(define("""
    def undefined(x):
        y = x + 1
        return y + missing_name
    """))
    error = undefined.submit(np.ones(3)).exception(timeout=120)
    assert isinstance(error, cuvil.CuvilTypeError)
    assert str(error).splitlines() == [f"{error.filename}:3: name 'missing_name' is not defined",
                                       "    return y + missing_name"]


def test_pool_size_is_configurable(monkeypatch):
    monkeypatch.setenv("CUVIL_POOL_SIZE", "3")
    pool.resize()
    assert pool.size() == 3 and pool.executor()._max_workers == 3
    monkeypatch.delenv("CUVIL_POOL_SIZE")
    pool.resize()
    assert pool.size() == (os.cpu_count() or 1)
    for bad in ("0", "two"):
        monkeypatch.setenv("CUVIL_POOL_SIZE", bad)
        with pytest.raises(ValueError, match=f"CUVIL_POOL_SIZE must be a positive integer, not '{bad}'"):
            pool.size()
    monkeypatch.delenv("CUVIL_POOL_SIZE")
    with pytest.raises(ValueError, match="the pool needs a positive number of workers, not 0"):
        pool.resize(0)


def _busy_seconds() -> float:
    """CPU seconds every process has used (Linux /proc/stat); 0.0 where there is none."""
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except OSError:
        return 0.0
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores")
def test_submit_on_two_cores_doubles_the_throughput_of_sequential_calls(two_workers):
    """The one timing assertion the issue asks for: a serial, nogil-bound kernel of about 50 ms, two calls in a
    row against two submitted at once to two workers; the best of the tries within 5 s in which other
    processes left both cores free (/proc/stat less this process). Only when no try had them is it skipped,
    with the load measured: then the machine, not the GIL, decided."""
    fn = cuvil.jit(define(SPIN), parallel=False, dynamic=True)
    x = np.random.default_rng(0).random(2048)
    fn(x, 1)
    start = time.perf_counter()
    fn(x, 1000)
    reps = max(1000, int(1000 * 0.05 / max(time.perf_counter() - start, 1e-6)))  # about 50 ms per call
    best, others, deadline = 0.0, [], time.perf_counter() + 5.0
    while best < 1.8 and time.perf_counter() < deadline:
        busy, own = _busy_seconds(), time.process_time()
        start = time.perf_counter()
        sequential = [fn(x, reps) for _ in range(2)]
        one = time.perf_counter() - start
        start = time.perf_counter()
        futures = [fn.submit(x, reps) for _ in range(2)]
        submitted = [f.result(timeout=120) for f in futures]
        two = time.perf_counter() - start
        assert submitted == sequential
        load = (_busy_seconds() - busy - (time.process_time() - own)) / (one + two)
        others.append(load)
        if load < 0.25:  # other processes took less than a quarter of a core
            best = max(best, one / two)
    if all(load >= 0.25 for load in others):
        pytest.skip(f"other processes used {min(others):.2f} cores or more in every try")
    assert best >= 1.8, f"submit gave {best:.2f}x the throughput of sequential calls"
