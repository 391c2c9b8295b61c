"""Disk cache: warm starts skip the front end; the key changes with what the code depends on."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np

import cuvil
from cuvil.runtime import cache_key, cache_root
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


def test_warm_start_with_module_attributes_and_numba_helpers_never_imports_libcst(tmp_path):
    (tmp_path / "consts.py").write_text("SCALE = 2.0\n")
    (tmp_path / "helpers.py").write_text("import numba\nimport consts\n\n@numba.njit\ndef scale(x):\n"
                                         "    return x * consts.SCALE\n")
    path = tmp_path / "warm.py"
    path.write_text(PROGRAM.replace("import cuvil", f"import cuvil\nsys.path.insert(0, {str(tmp_path)!r})\n"
                                    "import consts\nfrom helpers import scale")
                    .replace("s += x", "s += scale(x) + consts.SCALE"))
    assert _run(path, tmp_path / "cache") == ["30.0", "miss", "True"]
    assert _run(path, tmp_path / "cache") == ["30.0", "disk", "False"]


def test_changed_source_is_a_miss(tmp_path):
    path = tmp_path / "changed.py"
    path.write_text(PROGRAM)
    _run(path, tmp_path / "cache")
    path.write_text(PROGRAM.replace("s += x", "s += 2 * x"))
    assert _run(path, tmp_path / "cache") == ["20.0", "miss", "True"]


def test_unwritable_cache_dir_warns_and_still_compiles(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(blocker / "cache"))  # a directory inside a file: never writable
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn = cuvil.jit(define("""
            def f(a):
                return a * 2
            """))
        assert fn(np.arange(3)).tolist() == [0, 2, 4]
    messages = [str(w.message) for w in caught if issubclass(w.category, cuvil.CacheWarning)]
    assert len(messages) == 1 and "cannot write the Cuvil cache" in messages[0]
    assert str(cache_root.private()) in messages[0]


def test_key_changes_with_captured_values_and_options():
    fn = define("""
        K = 1
        def f(x):
            return x + K
        """)
    base = cache_key.key(fn, cuvil.Options())
    assert cache_key.key(fn, cuvil.Options()) == base
    assert cache_key.key(fn, cuvil.Options(fastmath=True)) != base
    fn.__globals__["K"] = 2
    assert cache_key.key(fn, cuvil.Options()) != base
    fn.__globals__["K"] = 2.0  # equal, but another type: other machine code
    assert len({base, cache_key.key(fn, cuvil.Options()), cache_key.key(fn, cuvil.Options(fastmath=True))}) == 3


def test_key_changes_with_module_attributes_defaults_and_numba_helper_globals():
    import types

    import numba

    consts = types.ModuleType("consts_for_key")
    consts.K = 1.0
    helper_globals: dict = {"OFF": 1.0, "numba": numba}
    exec("@numba.njit\ndef off(x):\n    return x + OFF\n", helper_globals)
    fn = define("""
        def h(x, k=1.0):
            return x + k
        def f(x):
            return h(x) * consts.K + off(x)
        """, "f", env={"consts": consts, "off": helper_globals["off"]})
    keys = [cache_key.key(fn, cuvil.Options())]
    consts.K = 2.0
    keys.append(cache_key.key(fn, cuvil.Options()))
    fn.__globals__["h"].__defaults__ = (3.0,)
    keys.append(cache_key.key(fn, cuvil.Options()))
    helper_globals["OFF"] = 5.0
    keys.append(cache_key.key(fn, cuvil.Options()))
    assert len(set(keys)) == 4


def test_key_docstring_names_every_part(monkeypatch):
    fn = define("""
        def f(x):
            return x
        """)
    parts: dict = {}
    original = cache_key._digest

    def capture(value):
        if isinstance(value, dict):
            parts.update(value)
        return original(value)

    monkeypatch.setattr(cache_key, "_digest", capture)
    cache_key.key(fn, cuvil.Options())
    doc = cache_key.key.__doc__
    assert set(parts) == {"format", "cuvil", "python", "numba", "llvmlite", "numpy", "libcst", "numba_cuda",
                          "options", "shapes", "functions", "captured"}
    assert all(f"`{name}`" in doc for name in parts) and "Deliberately left out" in doc
