"""Cache keys and contexts (issue 13 §1): a notebook function is keyed by its cell's text, not the file name the
kernel invents, so a restarted kernel reads the disk; origins are stored relative and resolved at load; a
redefined function never gets the old variant; the memory cache is per context and evicts; compile events
belong to the function object; several processes share one cache without seeing half-written entries."""

from __future__ import annotations

import json
import linecache
import os
import subprocess
import sys
import textwrap
import types
import warnings

import numpy as np
import pytest

import cuvil
from cuvil.runtime import cache_key, cache_root, context, dispatcher, events, memory


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _cell(text: str, filename: str, name: str = "f", env: dict | None = None) -> types.FunctionType:
    """Run `text` as IPython runs a cell: registered in linecache with no modification time, under `filename`
    (ipykernel's is /tmp/ipykernel_<pid>/<hash of the text>.py: another pid after a restart)."""
    text = textwrap.dedent(text).lstrip("\n")
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    namespace: dict = {"__name__": "__main__", "np": np, **(env or {})}
    exec(compile(text, filename, "exec"), namespace)
    return namespace[name]


def _restart() -> None:
    """What a kernel restart forgets: every compiled module in memory."""
    dispatcher._memory.clear()
    for name in [n for n in sys.modules if n.startswith("_cuvil_")]:
        del sys.modules[name]


CELL = """
    def scaled_{n}(a, s):
        out = np.empty_like(a)
        for i in range(len(a)):
            out[i] = a[i] * s
        return out
    """


def test_restarted_kernel_reads_the_cell_from_disk_with_origins_in_its_own_file(own_cache):
    first = cuvil.jit(_cell(CELL.format(n=0), "/tmp/ipykernel_101/3001.py", "scaled_0"))
    assert np.array_equal(first(np.arange(3.0), 2.0), [0.0, 2.0, 4.0])
    assert cuvil.explain(first).compiles[0].cache == "miss"
    (meta_path,) = own_cache.glob("scaled_0-*/meta.json")
    assert "ipykernel_101" not in meta_path.read_text()  # stored relative to the function
    _restart()
    again = cuvil.jit(_cell(CELL.format(n=0), "/tmp/ipykernel_202/3001.py", "scaled_0"))
    assert np.array_equal(again(np.arange(3.0), 2.0), [0.0, 2.0, 4.0])
    assert cuvil.explain(again).compiles[0].cache == "disk"
    origins = {o for o in again._variants[0].meta.line_map if o is not None}
    assert origins and {f for f, _ in origins} == {"/tmp/ipykernel_202/3001.py"}
    lines = [o and o[1] for o in again._variants[0].meta.line_map]
    assert lines == [o and o[1] for o in first._variants[0].meta.line_map]  # resolved from offsets
    assert {line for _, line in origins} == {1, 2, 3, 4, 5}


def test_cell_key_is_the_text_not_the_file_name():
    options = cuvil.Options()
    a = _cell("def f(x):\n    return x + 1\n", "/tmp/ipykernel_1/77.py")
    b = _cell("def f(x):\n    return x + 1\n", "/tmp/ipykernel_2/77.py")
    assert cache_key.key(a, options) == cache_key.key(b, options)
    assert cache_key.origin(a) == cache_key.origin(b)
    kb, ob = cache_key.key(b, options), cache_key.origin(b)
    c = _cell("def f(x):\n    return x + 2\n", "/tmp/ipykernel_3/77.py")
    assert cache_key.key(c, options) != kb and cache_key.origin(c) != ob
    assert cache_key.origin(cache_key.key) == cache_key.__file__  # a real file is its path


@pytest.mark.parametrize("call", ["first call", "guard hit", "after a restart"])
def test_redefining_a_function_in_a_cell_never_returns_the_old_variant(own_cache, call):
    """The same cell file name, run with other text (and back): each definition computes what it says."""
    filename = "/tmp/ipykernel_7/cell.py"
    bodies = ["return x + 1.0", "return x * 10.0", "return x + 1.0", "return x - K", "return x - K"]
    envs = [{}, {}, {}, {"K": 3.0}, {"K": 4.0}]
    for body, env in zip(bodies, envs):
        fn = _cell(f"def redefined(x):\n    {body}\n", filename, "redefined", env)
        jitted = cuvil.jit(fn)
        x = np.arange(3.0)
        if call != "first call":
            jitted(x)
        if call == "after a restart":
            _restart()
            jitted = cuvil.jit(fn)
        assert np.array_equal(jitted(x), fn(x)), body


def test_two_functions_of_one_name_keep_their_own_compile_events():
    f1 = cuvil.jit(_cell("def same_name(x):\n    return x + 1\n", "/tmp/ipykernel_3/a.py", "same_name"))
    f2 = cuvil.jit(_cell("def same_name(x):\n    return x + 2\n", "/tmp/ipykernel_3/b.py", "same_name"))
    f1(1.0)
    f1(np.ones(2))
    f2(1.0)
    stats = {k: v["compiles"] for k, v in cuvil.stats().items() if k.startswith("same_name")}
    assert stats == {"same_name (a.py:1)": 2, "same_name (b.py:1)": 1}
    assert cuvil.explain(f1).compiles[0].context == context.current() == f"pid:{os.getpid()}"


def test_memory_cache_evicts_the_least_recent_and_its_module(monkeypatch):
    cache = memory.MemoryCache(limit=2)
    modules = {}
    for n in range(3):
        name = f"_cuvil_evict_test_{n}"
        module = modules[n] = types.ModuleType(name)
        module.entry = object()
        monkeypatch.setitem(sys.modules, name, module)
        cache.put(f"k{n}", memory.Compiled(module.entry, types.SimpleNamespace(entry="entry"), "", name))
        if n == 1:
            assert cache.get("k0") is not None  # k0 is now the most recent: k1 goes next
    assert "k1" not in cache and "k0" in cache and "k2" in cache and len(cache) == 2
    assert "_cuvil_evict_test_1" not in sys.modules and "_cuvil_evict_test_0" in sys.modules
    monkeypatch.setattr(context, "current", lambda: "kernel:another")
    assert cache.get("k0") is None  # another context sees none of them
    cache.put("k9", memory.Compiled(modules[2].entry, types.SimpleNamespace(entry="entry"), "", "_cuvil_nine"))
    assert len(cache) == 1 and "_cuvil_evict_test_0" not in sys.modules  # the old context's went


def test_unknown_cuvil_log_category_warns_once(monkeypatch):
    monkeypatch.setenv("CUVIL_LOG", "recompile,guards")
    monkeypatch.setattr(events, "_warned", set())
    with pytest.warns(cuvil.CuvilWarning, match="unknown category 'recompile'.*recompiles, guards, codegen"):
        assert events._enabled("guards")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        events._enabled("guards")


def test_default_cache_folder_is_the_platforms(monkeypatch, tmp_path):
    monkeypatch.delenv("CUVIL_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert cache_root.configured() == tmp_path / "cuvil"


SHARED = textwrap.dedent("""
    import os, sys, time, warnings
    import numpy as np
    import cuvil
    warnings.simplefilter("error", cuvil.CacheWarning)  # a half-written entry would warn
    while not os.path.exists(sys.argv[1]):  # start together
        time.sleep(0.01)

    @cuvil.jit
    def shared_sum(a):
        s = 0.0
        for x in a:
            s += x
        return s

    @cuvil.jit
    def shared_scale(a, k):
        return a * k

    print(shared_sum(np.arange(5.0)), shared_scale(np.ones(2), 3.0).sum(),
          cuvil.explain(shared_sum).compiles[0].cache, cuvil.explain(shared_scale).compiles[0].cache)
    """)


def test_processes_sharing_a_cache_never_see_half_written_entries(tmp_path):
    script, go = tmp_path / "shared.py", tmp_path / "go"
    script.write_text(SHARED)
    env = {**os.environ, "CUVIL_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.Popen([sys.executable, str(script), str(go)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    go.touch()
    outputs = [run.communicate(timeout=240) for run in runs]
    assert all(run.returncode == 0 for run in runs), [err for _, err in outputs]
    wheres = sorted(out.split()[2:] for out, _ in outputs)
    assert all(out.split()[:2] == ["10.0", "6.0"] for out, _ in outputs)
    # one compiled each function, the other waited for its lock and read it (or compiled it first)
    assert all(w in (["miss", "miss"], ["disk", "disk"], ["miss", "disk"], ["disk", "miss"]) for w in wheres)
    assert sorted(w[0] for w in wheres) == ["disk", "miss"] and sorted(w[1] for w in wheres) == ["disk", "miss"]
    third = subprocess.run([sys.executable, str(script), str(go)], env=env, capture_output=True, text=True,
                           timeout=240)
    assert third.returncode == 0, third.stderr
    assert third.stdout.split() == ["10.0", "6.0", "disk", "disk"]
    for meta in (tmp_path / "cache").glob("*/meta.json"):
        json.loads(meta.read_text())  # whole
