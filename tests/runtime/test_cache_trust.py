"""The cache never runs someone else's code (issue 8 §5): nothing is loaded from a root, an entry or a file
another user owns or can write; a read-only cache is used without writing; the private fallback directory
is removed at exit. (Tests run as root: ownership is tested with os.chown to another uid.)"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

import cuvil
from cuvil.runtime import cache_root, dispatcher
from tests.helpers import define

OTHER_UID = 54321
_names = itertools.count()

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX owners and modes")


@pytest.fixture(autouse=True)
def fresh_private(monkeypatch):
    monkeypatch.setattr(cache_root, "_private", None)  # a fallback of this test's own


def _function():
    name = f"triple_{next(_names)}"
    return define(f"""
        def {name}(a):
            return a * 3.0
        """)


def _forget() -> None:
    dispatcher._memory.clear()
    for name in [n for n in sys.modules if n.startswith("_cuvil_")]:
        del sys.modules[name]


def _call(fn) -> tuple[object, list[str], str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jitted = cuvil.jit(fn)
        result = jitted(np.arange(3.0))
    messages = [str(w.message) for w in caught if issubclass(w.category, cuvil.CacheWarning)]
    return result, messages, cuvil.explain(jitted).compiles[0].cache


def _plant(root: Path, fn, marker: Path) -> Path:
    """Compile `fn` into `root`, then replace its module by one that leaves `marker` and answers wrong, with
    a meta that matches it, as an attacker who can write there would."""
    cuvil.jit(fn)(np.arange(3.0))
    _forget()
    (entry,) = [p for p in root.iterdir() if p.name.startswith(fn.__name__ + "-")]
    module = next(entry.glob("_cuvil_*.py"))
    planted = f"open({str(marker)!r}, 'w').close()\nimport numba\n\n@numba.njit\ndef {fn.__name__}(a):\n" \
              "    return a * 1000.0\n"
    module.write_text(planted)
    meta = json.loads((entry / "meta.json").read_text())
    meta["sha256"] = hashlib.sha256(planted.encode()).hexdigest()
    (entry / "meta.json").write_text(json.dumps(meta))
    shutil.rmtree(entry / "__pycache__", ignore_errors=True)
    return entry


def _assert_refused(fn, marker: Path, path: Path, words: str) -> None:
    result, messages, _ = _call(fn)
    assert np.array_equal(result, fn(np.arange(3.0))), "the planted module answered"
    assert not marker.exists(), "the planted module ran"
    assert len(messages) == 1, messages
    assert str(path) in messages[0] and words in messages[0]


def test_cache_trust_world_writable_root_owned_by_another_user_is_not_loaded(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(root))
    fn, marker = _function(), tmp_path / "ran"
    _plant(root, fn, marker)
    os.chown(root, OTHER_UID, -1)
    root.chmod(0o777)
    monkeypatch.setattr(cache_root, "_roots", {})  # a new process
    _assert_refused(fn, marker, root, f"owned by another user (uid {OTHER_UID})")


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o722])
def test_cache_trust_root_others_can_write_is_not_loaded(tmp_path, monkeypatch, mode):
    root = tmp_path / "cache"
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(root))
    fn, marker = _function(), tmp_path / "ran"
    _plant(root, fn, marker)
    root.chmod(mode)
    monkeypatch.setattr(cache_root, "_roots", {})
    result, messages, _ = _call(fn)
    assert np.array_equal(result, fn(np.arange(3.0))) and not marker.exists()
    assert len(messages) == 1 and "other users can write to" in messages[0] and str(root) in messages[0]
    assert f"chmod 700 {root}" in messages[0]  # the fix


def test_cache_trust_entry_owned_by_another_user_is_not_loaded(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(root))
    fn, marker = _function(), tmp_path / "ran"
    entry = _plant(root, fn, marker)
    os.chown(entry, OTHER_UID, -1)
    _assert_refused(fn, marker, entry, "owned by another user")


def test_cache_trust_module_file_owned_by_another_user_is_not_loaded(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(root))
    fn, marker = _function(), tmp_path / "ran"
    entry = _plant(root, fn, marker)
    module = next(entry.glob("_cuvil_*.py"))
    os.chown(module, OTHER_UID, -1)
    _assert_refused(fn, marker, module, "owned by another user")


def test_cache_trust_numba_files_owned_by_another_user_are_not_loaded(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(root))
    fn = _function()
    cuvil.jit(fn)(np.arange(3.0))
    _forget()
    (entry,) = [p for p in root.iterdir() if p.name.startswith(fn.__name__ + "-")]
    index = next((entry / "__pycache__").glob("*.nbi"))
    os.chown(index, OTHER_UID, -1)
    result, messages, _ = _call(fn)
    assert np.array_equal(result, fn(np.arange(3.0)))
    assert len(messages) == 1 and str(index) in messages[0]


def test_cache_trust_file_others_can_write_is_refused_unless_the_root_is_private(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(root))
    fn, marker = _function(), tmp_path / "ran"
    entry = _plant(root, fn, marker)
    module = next(entry.glob("_cuvil_*.py"))
    module.chmod(0o666)
    root.chmod(0o755)  # others can reach the file
    monkeypatch.setattr(cache_root, "_roots", {})
    _assert_refused(fn, marker, module, "other users can write to")
    fn2 = _function()
    cuvil.jit(fn2)(np.arange(3.0))
    _forget()
    (entry2,) = [p for p in root.iterdir() if p.name.startswith(fn2.__name__ + "-")]
    next(entry2.glob("_cuvil_*.py")).chmod(0o666)
    root.chmod(0o700)  # no one else can reach the file: it is ours alone, and loads
    monkeypatch.setattr(cache_root, "_roots", {})
    assert _call(fn2)[1:] == ([], "disk")


def test_cache_trust_parent_directory_others_can_write_is_refused_unless_sticky(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    root = shared / "cache"
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(root))
    fn = _function()
    cuvil.jit(fn)(np.arange(3.0))
    shared.chmod(0o777)  # anyone could rename `cache` and put their own in its place
    monkeypatch.setattr(cache_root, "_roots", {})
    _, messages, _ = _call(_function())
    assert len(messages) == 1 and f"other users can write to {shared}, which holds it" in messages[0]
    shared.chmod(0o1777)  # sticky, as /tmp: only the owner may rename what is in it
    monkeypatch.setattr(cache_root, "_roots", {})
    _forget()
    assert _call(fn)[1:] == ([], "disk")


def test_cache_trust_untrusted_root_falls_back_to_a_private_directory(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    root.mkdir(mode=0o777)
    root.chmod(0o777)
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(root))
    fn = _function()
    _, messages, _ = _call(fn)
    private = cache_root.private()
    assert len(messages) == 1 and str(private) in messages[0]
    assert (private.stat().st_mode & 0o777) == 0o700
    assert any(p.name.startswith(fn.__name__ + "-") for p in private.iterdir())
    assert not any(p.name.startswith(fn.__name__ + "-") for p in root.iterdir())


PROGRAM = textwrap.dedent("""
    import os, sys, warnings
    import numpy as np
    import cuvil
    from cuvil.runtime import cache_root

    warnings.simplefilter("always")

    @cuvil.jit
    def total(a):
        s = 0.0
        for x in a:
            s += x
        return s

    print(total(np.arange(5.0)), cuvil.explain(total).compiles[0].cache, cache_root.private_if_made())
    """)


def _run(program: str, cache: Path, folder: Path) -> tuple[list[str], str]:
    path = folder / "program.py"
    path.write_text(PROGRAM + program)
    env = {**os.environ, "CUVIL_CACHE_DIR": str(cache), "NUMBA_CACHE_DIR": ""}
    done = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split(), done.stderr


def _read_only(path: Path, on: bool) -> bool:
    """Make `path` and all in it unwritable even for root (chattr +i), or writable again."""
    if os.geteuid() != 0:
        for p in [path, *path.rglob("*")]:
            p.chmod(p.stat().st_mode & ~0o222 if on else p.stat().st_mode | 0o200)
        return True
    done = subprocess.run(["chattr", "-R", "+i" if on else "-i", str(path)], capture_output=True)
    return done.returncode == 0


def _snapshot(path: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(path.rglob("*"))}


def test_cache_trust_read_only_populated_cache_is_used_without_writing(tmp_path):
    cache = tmp_path / "cache"
    assert _run("", cache, tmp_path)[0][:2] == ["10.0", "miss"]
    before = _snapshot(cache)
    if not _read_only(cache, True):
        pytest.skip("cannot make a directory read-only here (chattr)")
    try:
        out, err = _run("", cache, tmp_path)
        assert out == ["10.0", "disk", "None"] and "CacheWarning" not in err  # loaded, nothing written
        out, err = _run("\ntotal(np.ones(3, np.float32))\n", cache, tmp_path)  # a new variant: compiled privately
        assert err.count("CacheWarning") == 1 and "is read-only" in err
    finally:
        _read_only(cache, False)
    assert _snapshot(cache) == before


def test_cache_trust_private_fallback_is_removed_at_exit_but_not_by_a_forked_child(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    fork = "pid = os.fork()\nif pid == 0:\n    sys.exit(0)\nos.waitpid(pid, 0)\n"
    out, err = _run(fork + "print(os.path.isdir(str(cache_root.private_if_made())))\n", blocker / "cache", tmp_path)
    value, where, private, alive = out
    assert (value, where, alive) == ("10.0", "miss", "True")  # the child's exit left it in place
    assert private.startswith(("/", "C:")) and not Path(private).exists()  # the parent's exit removed it
    assert err.count("CacheWarning") == 1
