"""Jitted functions on a real distributed.LocalCluster (processes, no mocks): map_blocks, client.map of a function
from this module (sent by reference) and of one defined by exec'd text (sent by value, as from `__main__` or a
notebook), results equal to NumPy's; compiled once per worker; a second cluster on the same cache directory
reads every module from the disk."""

from __future__ import annotations

import math
import re
import uuid

import numpy as np
import pytest

import cuvil
import cuvil.distributed as cd
from tests.distributed.conftest import local_cluster
from tests.helpers import define

da = pytest.importorskip("dask.array")


@cuvil.jit
def soft_clip(x):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = math.tanh(x[i]) * 2.0
    return out


@cuvil.jit
def row_norms(a):
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        acc = 0.0
        for j in range(a.shape[1]):
            acc += a[i, j] * a[i, j]
        out[i] = math.sqrt(acc)
    return out


def exec_defined(tag: str = ""):
    """A function whose module no worker can import: sent by value."""
    return cuvil.jit(define(f"""
    import numpy as np

    WEIGHT = 3.0

    def weighted(x):  # {tag}
        out = np.empty_like(x)
        for i in range(len(x)):
            out[i] = x[i] * WEIGHT - 1.0
        return out
    """, "weighted"))


def test_map_blocks_after_warmup_compiles_once_per_worker(client):
    x = np.linspace(-4.0, 4.0, 200_000)
    warmed = cd.warmup(client, soft_clip, x[:1000])
    assert sorted(map(len, warmed.values())) == [1, 1]  # each worker compiled (or loaded) it once
    y = da.map_blocks(soft_clip, da.from_array(x, chunks=25_000), meta=np.array((), np.float64)).compute()
    np.testing.assert_allclose(y, np.tanh(x) * 2.0, rtol=1e-15, atol=0)
    after = cd.explain(client, soft_clip)
    assert after.caches() == warmed.caches()  # eight blocks, no recompile on any worker
    assert {e.reason for events in after.values() for e in events} == {"first call"}


def test_client_map_of_a_module_function(client):
    rng = np.random.default_rng(0)
    blocks = [rng.standard_normal((40 + k, 24)) for k in range(6)]
    results = client.gather(client.map(row_norms, blocks))
    for block, got in zip(blocks, results):
        np.testing.assert_allclose(got, np.linalg.norm(block, axis=1), rtol=1e-14)


def test_client_map_of_an_exec_defined_function(client):
    fn = exec_defined()
    blocks = [np.arange(30.0 + k) for k in range(6)]
    results = client.gather(client.map(fn, blocks))
    for block, got in zip(blocks, results):
        np.testing.assert_array_equal(got, block * 3.0 - 1.0)
    events = cd.explain(client, fn)
    assert all(len(e) <= 1 for e in events.values()) and sum(map(len, events.values())) >= 1


def test_submit_and_delayed_run_a_by_value_function(client):
    import dask

    fn = exec_defined()
    x = np.arange(40.0)
    np.testing.assert_array_equal(client.submit(fn, x).result(), x * 3.0 - 1.0)
    np.testing.assert_array_equal(dask.delayed(fn)(x).compute(), x * 3.0 - 1.0)


def test_a_second_cluster_on_the_same_cache_reads_every_module_from_disk(client, worker_cache):
    fn = exec_defined(str(uuid.uuid4()))  # a text no earlier run compiled
    x = np.linspace(0.0, 1.0, 64)
    first = cd.warmup(client, fn, x)
    assert sorted(c for caches in first.caches().values() for c in caches) in (["disk", "miss"], ["miss", "miss"])
    cd.warmup(client, row_norms, np.ones((20, 20)))
    with local_cluster(worker_cache) as second:
        again = cd.warmup(second, fn, x)
        assert again.caches() == {w: ["disk"] for w in again} and len(again) == 2
        assert cd.warmup(second, row_norms, np.ones((20, 20))).caches() == {w: ["disk"] for w in again}
        np.testing.assert_array_equal(second.submit(fn, x).result(), x * 3.0 - 1.0)


def test_explain_and_warmup_take_only_jitted_functions(client):
    with pytest.raises(TypeError, match="cuvil.distributed.explain takes a function made by cuvil.jit, not "
                                        "function"):
        cd.explain(client, soft_clip.py_func)
    with pytest.raises(TypeError, match="cuvil.distributed.warmup takes a function made by cuvil.jit"):
        cd.warmup(client, len, [1])


def test_readme_example_runs_on_the_cluster(client):
    import linecache
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    code = next(b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "cuvil.distributed.warmup" in b)
    code = code.replace("100_000_000", "1_000_000").replace("10_000_000", "250_000")  # the job, smaller
    linecache.cache["<readme-dask>"] = (len(code), None, code.splitlines(keepends=True), "<readme-dask>")
    namespace = {"client": client, "print": lambda *a: None}
    exec(compile(code, "<readme-dask>", "exec"), namespace)  # as a notebook cell: source in linecache
    curve = namespace["curve"]
    assert curve.__reduce__()[0] is cd._by_value  # defined outside any importable module
    expected = curve.py_func(np.linspace(-3, 5, 1_000_000)).sum()
    y = namespace["y"]
    np.testing.assert_allclose(y.sum().compute(), expected, rtol=1e-12)
    assert sorted(len(e) for e in cd.explain(client, curve).values()) == [1, 1]


def test_errors_on_a_worker_reach_the_client_as_they_would_here(client):
    """What a call raises on a worker is what it raises in the client: the exception's type and message, the
    user's line for a compile error (in the file the function was sent from)."""
    bad = cuvil.jit(define("""
    def bad(a):
        return a * undefined_thing
    """))
    with pytest.raises(cuvil.CuvilTypeError) as remote:
        client.submit(bad, np.arange(20.0)).result()
    assert re.fullmatch(r"<cuvil-test-\d+> \[bad, sent by cuvil [0-9a-f]{8}\]:2: name 'undefined_thing' is not "
                        r"defined\n    return a \* undefined_thing", str(remote.value)), str(remote.value)
    at = cuvil.jit(define("""
    def at(a, i):
        return a[i] * 2.0
    """))
    one = [next(iter(client.scheduler_info(n_workers=-1)["workers"]))]  # one process: first call, then hits
    for _ in range(2):
        with pytest.raises(IndexError, match=r"^index 5 is out of bounds for axis 0 with size 3$"):
            client.submit(at, np.arange(3.0), 5, pure=False, workers=one).result()
    assert client.submit(at, np.arange(3.0), 2, pure=False, workers=one).result() == 4.0
    assert [len(e) for w, e in cd.explain(client, at).items() if w in one] == [1]
