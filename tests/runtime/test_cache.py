"""Disk cache: warm starts skip the front end; corrupt or unwritable caches never break a call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import cuvil
from cuvil.runtime import cache
from tests.helpers import define

PROGRAM = textwrap.dedent("""
    import sys
    import numpy as np
    import cuvil

    @cuvil.jit
    def total(a):
        s = 0.0
        for x in a:
            s += x
        return s

    print(total(np.arange(5.0)), cuvil.explain(total).compiles[0].cache, "libcst" in sys.modules)
    """)


def _run(path, cache_dir):
    env = {**os.environ, "CUVIL_CACHE_DIR": str(cache_dir)}
    done = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_warm_start_reads_the_disk_and_never_imports_libcst(tmp_path):
    path = tmp_path / "warm.py"
    path.write_text(PROGRAM)
    assert _run(path, tmp_path / "cache") == ["10.0", "miss", "True"]
    assert _run(path, tmp_path / "cache") == ["10.0", "disk", "False"]


def test_changed_source_is_a_miss(tmp_path):
    path = tmp_path / "changed.py"
    path.write_text(PROGRAM)
    _run(path, tmp_path / "cache")
    path.write_text(PROGRAM.replace("s += x", "s += 2 * x"))
    assert _run(path, tmp_path / "cache") == ["20.0", "miss", "True"]


def _entry(fn) -> cache.Entry:
    """The entry of `fn` called with one scalar (no array shapes to specialize on)."""
    return cache.Entry.for_key(fn.py_func, cache.key(fn.py_func, fn.options, (None,)))


SOURCE = """
    def f(a):
        return a * 2
    """


@pytest.mark.parametrize("damage", ["meta-json", "meta-fields", "module-text"])
def test_corrupt_entry_warns_and_recompiles(damage):
    fn = define(SOURCE)
    first = cuvil.jit(fn)
    assert first(3) == 6
    entry = _entry(first)
    if damage == "meta-json":
        entry.meta_path.write_text("{not json")
    elif damage == "meta-fields":
        entry.meta_path.write_text(json.dumps({"entry": "f"}))
    else:
        entry.module_path.write_text("def f(:\n")
    from cuvil.runtime import dispatcher

    dispatcher._memory.clear()
    with pytest.warns(cuvil.CacheWarning, match="corrupt"):
        again = cuvil.jit(fn)
        assert again(4) == 8
    assert cuvil.explain(again).compiles[0].cache == "miss"
    assert entry.read() is not None  # repaired


def test_unwritable_cache_dir_warns_and_still_compiles(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(blocker / "cache"))  # a directory inside a file: never writable
    monkeypatch.setattr(cache, "_fallback_root", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn = cuvil.jit(define(SOURCE))
        assert fn(np.arange(3)).tolist() == [0, 2, 4]
    messages = [str(w.message) for w in caught if issubclass(w.category, cuvil.CacheWarning)]
    assert len(messages) == 1 and "cannot write the Cuvil cache" in messages[0]


def test_key_changes_with_captured_values_and_options():
    fn = define("""
        K = 1
        def f(x):
            return x + K
        """)
    base = cache.key(fn, cuvil.Options())
    assert cache.key(fn, cuvil.Options()) == base
    assert cache.key(fn, cuvil.Options(fastmath=True)) != base
    fn.__globals__["K"] = 2
    assert cache.key(fn, cuvil.Options()) != base
