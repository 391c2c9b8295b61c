"""Several processes compiling one function at once into one cache directory (the lock of each entry,
runtime/cache_lock.py) leave one valid entry; and a worker with two threads runs two calls of a nogil kernel
at once (variants release the GIL)."""

from __future__ import annotations

import multiprocessing
import pickle
import threading
import time
import uuid

import numpy as np

import cuvil
import cuvil.distributed as cd
from tests.distributed.conftest import compiler_fingerprint, local_cluster, pin_compiler
from tests.helpers import define

TEXT = """
import math
import numpy as np

def wave(x):  # {tag}
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = math.sin(x[i]) * math.exp(-x[i] * x[i])
    return out
"""


def _compile_at_once(blob: bytes, fingerprint: str, barrier, results) -> None:
    pin_compiler(fingerprint)
    fn = pickle.loads(blob)
    x = np.linspace(-2.0, 2.0, 50)
    barrier.wait()
    got = fn(x)
    results.put((bool(np.allclose(got, np.sin(x) * np.exp(-x * x), rtol=1e-14, atol=0)),
                 [e.cache for e in fn.compile_events]))


def test_processes_compiling_one_entry_at_once_leave_one_valid_entry(tmp_path, monkeypatch):
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(tmp_path))  # the children's cache, and this process's below
    fn = cuvil.jit(define(TEXT.format(tag=uuid.uuid4())))
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(3), context.Queue()
    args = (pickle.dumps(fn), compiler_fingerprint(), barrier, results)
    children = [context.Process(target=_compile_at_once, args=args) for _ in range(3)]
    for child in children:
        child.start()
    outcomes = [results.get(timeout=240) for _ in children]
    for child in children:
        child.join(timeout=60)
    assert [ok for ok, _ in outcomes] == [True] * 3
    assert sorted(c for _, caches in outcomes for c in caches) == ["disk", "disk", "miss"]
    entries = [p for p in tmp_path.iterdir() if p.name.startswith("wave-")]
    assert len(entries) == 1, entries
    here = pickle.loads(pickle.dumps(fn))  # this process reads the entry the children left: whole, valid
    x = np.linspace(-1.0, 1.0, 30)
    np.testing.assert_allclose(here(x), np.sin(x) * np.exp(-x * x), rtol=1e-14, atol=0)
    assert [e.cache for e in here.compile_events] == ["disk"]


NOGIL_TEXT = """
import math

def fill(out):
    acc = 0.5
    for i in range(len(out)):
        acc = math.sin(acc + i * 1e-3)
        out[i] = acc
"""

_in_flight: dict[str, np.ndarray] = {}  # on the worker: the output each running call fills, front to back
_seen_together: list[bool] = []


def _fill(fn, pair: tuple[str, str], tag: str, n: int) -> str:
    out = np.full(n, np.nan)
    _in_flight[tag] = out
    if tag == pair[0]:
        threading.Thread(target=_watch, args=(pair,), daemon=True).start()
    fn(out)
    return tag


def _watch(pair: tuple[str, str]) -> None:
    """Sample both outputs until both calls are done: were both ever part-filled at once? A call holding the
    GIL cannot be seen part-filled at all (this thread cannot run during it), so only GIL-free calls running
    at the same time can be — however busy the machine's cores are."""
    deadline = time.monotonic() + 60
    together = False
    while time.monotonic() < deadline:
        calls = [_in_flight.get(t) for t in pair]
        states = [None if c is None else (not np.isnan(c[0]), not np.isnan(c[-1])) for c in calls]
        if all(s == (True, False) for s in states):
            together = True
            break
        if all(s == (True, True) for s in states):
            break
        time.sleep(0.0005)
    _seen_together.append(together)


def _was_seen_together() -> bool:
    return bool(_seen_together) and _seen_together[-1]


def test_a_worker_with_two_threads_runs_two_calls_at_once(tmp_path):
    """Issue 15: kernels release the GIL, so a worker with two threads runs two of them at once. Shown without a
    timing threshold (the machine's cores may be busy with other work): a third thread sees both calls'
    outputs part-filled at the same moment."""
    fn = cuvil.jit(define(NOGIL_TEXT))
    with local_cluster(tmp_path, n_workers=1, threads=2) as client:
        cd.warmup(client, fn, np.empty(100))
        for attempt in range(3):  # the two tasks may, rarely, not start together
            pair = (f"a{attempt}", f"b{attempt}")
            client.gather([client.submit(_fill, fn, pair, tag, 10_000_000, pure=False) for tag in pair])
            seen = list(client.run(_was_seen_together).values())
            if seen == [True]:
                break
        assert seen == [True]
