"""threads.run_chunks: every row computed exactly once, whichever thread claims it, and a chunk's error raised
on the calling thread (the kernels themselves on several threads: test_ops.py)."""

import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuvil.dynamo import threads


@settings(max_examples=60, deadline=None)
@given(extent=st.integers(1, 200), workers=st.integers(2, 5), most=st.none() | st.integers(1, 20))
def test_every_row_once(extent, workers, most):
    seen, calls = [], []
    lock = threading.Lock()

    def run(start, stop):
        with lock:
            seen.extend(range(start, stop))
            calls.append(stop - start)

    threads.run_chunks(run, extent, workers, most)
    assert sorted(seen) == list(range(extent))
    expected = min(extent, max(workers, min(workers * threads.PER_THREAD, most or extent)))
    assert len(calls) == expected and min(calls) >= 1


def test_caller_does_not_wait_for_a_worker_that_has_not_started():
    """The pool's only worker is kept busy: the calling thread computes every chunk itself and returns."""
    release = threading.Event()
    busy = [threads._pool().submit(release.wait) for _ in range(threads._pool()._max_workers)]
    timer = threading.Timer(3.0, release.set)  # a call that waited for a worker would return after 3 s
    timer.start()
    try:
        ran_on = []
        started = time.perf_counter()
        threads.run_chunks(lambda start, stop: ran_on.append(threading.get_ident()), 6, 2)
        assert time.perf_counter() - started < 2.0
        assert ran_on == [threading.get_ident()] * 6
    finally:
        release.set()
        timer.cancel()
        for f in busy:
            f.result()


def test_error_in_a_chunk_is_raised_by_the_call():
    def run(start, stop):
        if start <= 7 < stop:
            raise ValueError("row 7")

    with pytest.raises(ValueError, match="^row 7$"):
        threads.run_chunks(run, 10, 3)
