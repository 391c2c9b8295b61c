"""A damaged cache never crashes a call and never answers wrong (issue 8 §5): each kind of damage is exactly
one CacheWarning, then a recompile (or code kept in memory), and the next load is clean again."""

from __future__ import annotations

import itertools
import json
import shutil
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.runtime import cache, cache_root, dispatcher
from tests.helpers import define

_names = itertools.count()


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _function():
    """A function with a name of its own, so that its entry is the only one named so in the cache."""
    name = f"double_{next(_names)}"
    return define(f"""
        def {name}(a):
            return a * 2.0
        """)


def _forget() -> None:
    """As a new process would: no compiled module in memory, so the next call loads the entry again."""
    dispatcher._memory.clear()
    for name in [n for n in sys.modules if n.startswith("_cuvil_")]:
        del sys.modules[name]


def _entry(root: Path, fn) -> Path:
    (found,) = [p for p in root.iterdir() if p.name.startswith(fn.__name__ + "-")]
    return found


def _call(fn) -> tuple[object, list[str], str]:
    """Compile `fn` anew and call it: (result, the CacheWarnings, where the module came from)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jitted = cuvil.jit(fn)
        result = jitted(np.arange(4.0))
    messages = [str(w.message) for w in caught if issubclass(w.category, cuvil.CacheWarning)]
    return result, messages, cuvil.explain(jitted).compiles[0].cache


def _populated(root: Path):
    fn = _function()
    result, messages, where = _call(fn)
    assert messages == [] and where == "miss"
    _forget()
    return fn, _entry(root, fn)


def _numba_files(entry: Path, suffix: str) -> list[Path]:
    found = sorted((entry / "__pycache__").glob(f"*{suffix}"))
    assert found, f"Numba wrote no {suffix} file in {entry}"
    return found


@pytest.mark.parametrize("suffix", [".nbi", ".nbc"])
@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_cache_damage_numba_index_or_data_file(own_cache, suffix, damage):
    fn, entry = _populated(own_cache)
    for path in _numba_files(entry, suffix):
        if damage == "truncated":
            path.write_bytes(path.read_bytes()[:12])
        else:
            path.write_bytes(b"\x80\x04garbage, not a pickle")
    result, messages, _ = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0)))
    assert len(messages) == 1 and "Numba cache files" in messages[0] and str(entry) in messages[0]
    _forget()
    assert _call(fn)[1:] == ([], "disk")  # repaired: the new machine code was saved


def test_cache_damage_module_file_not_utf8(own_cache):
    fn, entry = _populated(own_cache)
    (module,) = entry.glob("_cuvil_*.py")
    module.write_bytes(b"\xff\xfe not UTF-8 \xc3\x28")
    result, messages, where = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0))) and where == "miss"
    assert len(messages) == 1 and "corrupt" in messages[0]
    _forget()
    assert _call(fn)[1:] == ([], "disk")


def test_cache_damage_entry_folder_replaced_by_a_file(own_cache):
    fn, entry = _populated(own_cache)
    shutil.rmtree(entry)
    entry.write_text("not a folder")
    result, messages, where = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0))) and where == "miss"
    assert len(messages) == 1 and "replaced a file" in messages[0]
    _forget()
    assert _call(fn)[1:] == ([], "disk")


def test_cache_damage_meta_names_a_function_the_module_lacks(own_cache):
    fn, entry = _populated(own_cache)
    meta = json.loads((entry / "meta.json").read_text())
    meta["entry"] = "not_there"
    (entry / "meta.json").write_text(json.dumps(meta))
    result, messages, where = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0))) and where == "miss"
    assert len(messages) == 1 and "defines no function 'not_there'" in messages[0]


@pytest.mark.parametrize("damage", ["meta-json", "meta-fields", "module-text", "injected-name"])
def test_cache_damage_corrupt_entry(own_cache, damage):
    fn, entry = _populated(own_cache)
    meta_path = entry / "meta.json"
    if damage == "meta-json":
        meta_path.write_text("{not json")
    elif damage == "meta-fields":
        meta_path.write_text(json.dumps({"entry": "f"}))
    elif damage == "module-text":
        next(entry.glob("_cuvil_*.py")).write_text("def f(:\n")
    else:
        meta = json.loads(meta_path.read_text())
        meta["injected"] = {"TABLE": ["TABLE"]}
        meta_path.write_text(json.dumps(meta))
    result, messages, where = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0))) and where == "miss"
    assert len(messages) == 1 and "corrupt" in messages[0]


@pytest.mark.parametrize("when", ["before-write", "after-write", "after-import"])
def test_cache_damage_cache_deleted_during_a_compile(own_cache, monkeypatch, when):
    fn = _function()
    cuvil.jit(_function())(np.ones(1))  # the cache root exists and is in use
    if when == "before-write":
        from cuvil import compiler

        original = compiler.generate

        def generate(*args, **kwargs):
            generated = original(*args, **kwargs)
            shutil.rmtree(own_cache)
            return generated

        monkeypatch.setattr(compiler, "generate", generate)
    elif when == "after-write":
        original_write = cache.Entry.write

        def write(self, meta, source, fn):
            original_write(self, meta, source, fn)
            shutil.rmtree(own_cache)

        monkeypatch.setattr(cache.Entry, "write", write)
    else:
        original_import = cache.import_module

        def import_module(*args):
            module = original_import(*args)
            shutil.rmtree(own_cache, ignore_errors=True)
            return module

        monkeypatch.setattr(cache, "import_module", import_module)
    result, messages, _ = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0)))
    assert len(messages) == 1, messages
    assert "removed" in messages[0] or "stays in memory" in messages[0]
    if when == "before-write":  # recreated, and private again
        assert (own_cache.stat().st_mode & 0o777) == 0o700
        _forget()
        assert _call(fn)[1:] == ([], "disk")


def test_cache_root_is_created_private(own_cache):
    assert not own_cache.exists()
    fn = _function()
    cuvil.jit(fn)(np.ones(2))
    assert (own_cache.stat().st_mode & 0o777) == 0o700
    assert (_entry(own_cache, fn).stat().st_mode & 0o777) == 0o700
    assert cache_root.root().path == own_cache


def test_cache_damage_module_file_replaced_by_a_directory(own_cache):
    fn, entry = _populated(own_cache)
    module = next(entry.glob("_cuvil_*.py"))
    module.unlink()
    (module / "junk").mkdir(parents=True)
    result, messages, where = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0))) and where == "miss"
    assert len(messages) == 1 and "corrupt" in messages[0]
    _forget()
    assert _call(fn)[1:] == ([], "disk")


def test_cache_damage_meta_injects_a_value_that_is_not_found(own_cache):
    table = np.arange(4.0)
    table.flags.writeable = False
    name = f"scaled_{next(_names)}"
    fn = define(f"""
        def {name}(a):
            return a * TABLE
        """, env={"TABLE": table})
    assert _call(fn)[1:] == ([], "miss")
    _forget()
    entry = _entry(own_cache, fn)
    meta = json.loads((entry / "meta.json").read_text())
    assert meta["injected"] == {"TABLE": ["TABLE"]}
    meta["injected"] = {"TABLE": ["NO_SUCH_NAME"]}
    (entry / "meta.json").write_text(json.dumps(meta))
    result, messages, where = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0))) and where == "miss"
    assert len(messages) == 1 and "not found" in messages[0]


def test_cache_damage_cache_root_replaced_by_a_file(own_cache, monkeypatch):
    own_cache.parent.mkdir(parents=True, exist_ok=True)
    own_cache.write_text("not a folder")
    monkeypatch.setattr(cache_root, "_private", None)
    fn = _function()
    result, messages, where = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0)))
    assert len(messages) == 1 and "not a directory" in messages[0] and str(cache_root.private()) in messages[0]


def test_cache_damage_flipped_bit_in_numba_machine_code_is_detected(own_cache):
    """Numba keeps no checksum: a flipped bit in a data file loaded and computed garbage before."""
    fn, entry = _populated(own_cache)
    (data,) = _numba_files(entry, ".nbc")
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2] ^= 0x10
    data.write_bytes(bytes(raw))
    result, messages, _ = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0)))
    assert len(messages) == 1 and "checksums" in messages[0]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["_cuvil_*.py", "meta.json", "__pycache__/*.nbi", "__pycache__/*.nbc"]),
       damage=st.sampled_from(["truncate", "flip", "garbage", "delete"]), where=st.floats(0, 1),
       seed=st.integers(0, 255))
def test_cache_damage_anywhere_never_raises_nor_answers_wrong(own_cache, kind, damage, where, seed):
    fn, entry = _populated(own_cache)
    (path,) = entry.glob(kind)
    raw = bytearray(path.read_bytes())
    at = min(int(where * len(raw)), len(raw) - 1)
    if damage == "truncate":
        raw = raw[:at]
    elif damage == "flip":
        raw[at] ^= 1 << (seed % 8)
    elif damage == "garbage":
        raw[at:at + 16] = bytes((seed * k + 7) % 256 for k in range(16))
    if damage == "delete":
        path.unlink()
    else:
        path.write_bytes(bytes(raw))
    result, messages, _ = _call(fn)
    assert np.array_equal(result, fn(np.arange(4.0)))
    assert len(messages) <= 1, messages
    _forget()
    assert _call(fn)[1:] == ([], "disk")
