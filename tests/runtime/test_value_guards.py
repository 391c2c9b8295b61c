"""Guards and the disk key see every value compiled code reads (issue 8 §4), whichever way it is reached:
module attributes (`cfg.SCALE`, `pkg.sub.K`), through callees and closures, the globals of Numba helpers in
other files — a change recompiles with its reason (or misses the disk), never a stale answer. Defaults,
builtins and read-only arrays: test_default_guards.py."""

from __future__ import annotations

import itertools
import sys
import textwrap

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define
from tests.lower.compare import assert_like_numpy

_names = itertools.count()


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """`make(text)` writes a module file of the user's (outside site-packages) and imports it by a unique name."""
    monkeypatch.syspath_prepend(str(tmp_path))
    made = []

    def make(text: str, package: str | None = None):
        name = f"user_mod_{next(_names)}"
        if package:  # `package` holds `text` as its submodule `sub`
            (tmp_path / name / "sub").mkdir(parents=True)
            (tmp_path / name / "__init__.py").write_text("")
            (tmp_path / name / "sub" / "__init__.py").write_text(textwrap.dedent(text))
        else:
            (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
        made.append(name)
        module = __import__(f"{name}.sub" if package else name)
        return module

    yield make
    for name in made:
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]


def _reasons(fn) -> list[str]:
    return [c.reason for c in cuvil.explain(fn).compiles]


def test_module_attribute_changed_in_process_recompiles(user_module):
    cfg = user_module("SCALE = 2.0\n")
    fn = define("""
        def f(x):
            return x * cfg.SCALE
        """, env={"cfg": cfg})
    jitted = cuvil.jit(fn)
    assert jitted(3.0) == fn(3.0) == 6.0  # first call
    assert jitted(3.0) == 6.0  # guard hit
    cfg.SCALE = 5.0
    assert jitted(3.0) == fn(3.0) == 15.0  # guard miss
    assert _reasons(jitted) == ["first call", "global cfg.SCALE: 5.0 != 2.0 (guard of variant #1)"]


def test_module_attribute_of_a_submodule_recompiles(user_module):
    sub = user_module("K = 3\n", package=True)
    pkg = sys.modules[sub.__name__]
    fn = define("""
        def f(x):
            return x + pkg.sub.K
        """, env={"pkg": pkg})
    jitted = cuvil.jit(fn)
    assert jitted(1) == 4
    pkg.sub.K = 10
    assert jitted(1) == fn(1) == 11
    assert _reasons(jitted)[1] == "global pkg.sub.K: 10 != 3 (guard of variant #1)"


def test_module_attribute_read_by_a_callee_and_through_a_closure_recompiles(user_module):
    consts = user_module("OFFSET = 1\n")
    helper = define("""
        def shift(x):
            return x + consts.OFFSET
        """, env={"consts": consts})

    make = define("""
        def make(module):
            def f(x):
                return shift(x) * module.OFFSET
            return f
        """, env={"shift": helper})
    fn = make(consts)
    jitted = cuvil.jit(fn)
    assert jitted(1) == fn(1) == 2
    consts.OFFSET = 3
    assert jitted(1) == fn(1) == 12
    assert len(_reasons(jitted)) == 2 and "OFFSET: 3 != 1" in _reasons(jitted)[1]


def test_library_module_attributes_are_constants_not_guards():
    fn = cuvil.jit(define("""
        import math
        def f(x):
            return x * math.pi
        """))
    fn(1.0)
    guard = cuvil.explain(fn).guards[0]
    assert "global math is module math" in guard  # by name, not an address
    assert not any("math.pi" in item for item in guard)


def test_module_attribute_edited_in_another_file_is_a_miss_in_the_next_process(tmp_path):
    (tmp_path / "consts.py").write_text("OFFSET = 1.0\n")
    (tmp_path / "main.py").write_text(textwrap.dedent("""
        import numpy as np
        import cuvil
        import consts

        @cuvil.jit
        def f(x):
            return x + consts.OFFSET

        print(f(1.0), cuvil.explain(f).compiles[0].cache)
        """))
    assert _run(tmp_path) == ["2.0", "miss"]
    assert _run(tmp_path) == ["2.0", "disk"]
    (tmp_path / "consts.py").write_text("OFFSET = 5.0\n")
    assert _run(tmp_path) == ["6.0", "miss"]


def test_module_array_edited_in_another_file_is_a_miss_in_the_next_process(tmp_path):
    """`consts.ARR` is bound into the generated module as `from consts import ARR` would: a disk hit in the next
    process finds it again through the module (frontend/captures.follow), an edit of the file is a miss."""
    (tmp_path / "consts.py").write_text("import numpy as np\nARR = np.arange(4.0)\nARR.flags.writeable = False\n")
    (tmp_path / "main.py").write_text(textwrap.dedent("""
        import numpy as np
        import cuvil
        import consts

        @cuvil.jit
        def f(x):
            return consts.ARR.sum() + (consts.ARR * x).max()

        print(f(2.0), cuvil.explain(f).compiles[0].cache)
        """))
    assert _run(tmp_path) == ["12.0", "miss"]
    assert _run(tmp_path) == ["12.0", "disk"]
    (tmp_path / "consts.py").write_text("import numpy as np\nARR = np.arange(5.0)\nARR.flags.writeable = False\n")
    assert _run(tmp_path) == ["18.0", "miss"]


def test_numba_helper_global_edited_in_another_file_is_a_miss_in_the_next_process(tmp_path):
    (tmp_path / "consts.py").write_text("OFFSET = 1.0\n")
    (tmp_path / "helpers.py").write_text(textwrap.dedent("""
        import numba
        import consts
        from consts import OFFSET

        @numba.njit(cache=True)
        def shift(x):
            return x + OFFSET + consts.OFFSET
        """))
    (tmp_path / "main.py").write_text(textwrap.dedent("""
        import cuvil
        from helpers import shift

        @cuvil.jit
        def f(x):
            return shift(x) * 2.0

        print(f(1.0), cuvil.explain(f).compiles[0].cache)
        """))
    assert _run(tmp_path) == ["6.0", "miss"]
    assert _run(tmp_path) == ["6.0", "disk"]
    (tmp_path / "consts.py").write_text("OFFSET = 2.0\n")
    assert _run(tmp_path) == ["10.0", "miss"]


def _run(folder) -> list[str]:
    import os
    import subprocess

    env = {**os.environ, "CUVIL_CACHE_DIR": str(folder / "cache"), "NUMBA_CACHE_DIR": str(folder / "numba"),
           "PYTHONPATH": os.pathsep.join([str(folder), *sys.path])}
    done = subprocess.run([sys.executable, str(folder / "main.py")], env=env, capture_output=True, text=True,
                          timeout=180, cwd=folder)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_numba_helper_global_changed_in_process_recompiles_with_fresh_machine_code(user_module):
    helpers = user_module("""
        import numba
        OFFSET = 1.0

        @numba.njit
        def shift(x):
            return x + OFFSET
        """)
    fn = define("""
        def f(x):
            return shift(x)
        """, env={"shift": helpers.shift})
    jitted = cuvil.jit(fn)
    assert jitted(1.0) == 2.0
    helpers.OFFSET = 100.0
    assert jitted(1.0) == helpers.shift.py_func(1.0) == 101.0  # Numba's own `shift` still answers 2.0
    assert _reasons(jitted)[1] == "global shift.OFFSET: 100.0 != 1.0 (guard of variant #1)"


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from([1.0, 2.0, 2, 3.5]), min_size=1, max_size=6))
def test_module_attribute_sequences_match_python(values):
    """Any sequence of rebindings of a module attribute: each call answers as Python does, and a variant is
    compiled exactly for each value (with its type) not seen before."""
    import types

    cfg = types.ModuleType(f"cfg_{next(_names)}")
    sys.modules[cfg.__name__] = cfg
    try:
        cfg.K = values[0]
        fn = define("""
            def f(x):
                return x * cfg.K
            """, env={"cfg": cfg})
        jitted = cuvil.jit(fn)
        for value in values:
            cfg.K = value
            result = jitted(3)
            assert result == fn(3) and type(result) is type(fn(3))
        assert len(cuvil.explain(jitted).compiles) == _expected_compiles(values)
    finally:
        del sys.modules[cfg.__name__]


_NARROW = [("uint8", 250), ("int8", -100), ("int16", 300), ("float32", 1.1), ("float16", 0.3)]


@settings(max_examples=20, deadline=None)
@given(dtype_value=st.sampled_from(_NARROW), constant=st.sampled_from([10, -3, 300, 0.5, 2.5, True, False]),
       scalar=st.booleans())
def test_module_attribute_numbers_are_weak_as_in_numpy(dtype_value, constant, scalar):
    """A Python number read through a module (`x + cfg.K`) is NumPy 2's weak scalar, as the same number as a
    plain global is: a uint8 array plus cfg.K stays uint8 and wraps (or raises NumPy's OverflowError for 300),
    a float32 times 0.5 stays float32. First call, guard hit, then the attribute rebound (a guard miss)."""
    import types

    dtype, value = dtype_value
    assume(not (scalar and dtype == "float16"))  # a float16 NumPy scalar argument is refused (docs/semantics.md)
    cfg = types.ModuleType(f"cfg_{next(_names)}")
    sys.modules[cfg.__name__] = cfg
    try:
        cfg.K = constant
        fn = define("""
            def f(x):
                return x + cfg.K, x * cfg.K
            """, env={"cfg": cfg})
        jitted = cuvil.jit(fn)
        x = np.dtype(dtype).type(value) if scalar else np.array([value, 1, 0], dtype)
        for k in (constant, constant, 7):
            cfg.K = k
            assert_like_numpy(jitted, x)  # values, dtypes and NumPy's errors (float64 comes back as float)
    finally:
        del sys.modules[cfg.__name__]


def _expected_compiles(values) -> int:
    """A value seen before matches the variant compiled for it (2 and 2.0 are different values here)."""
    return len({(type(v), v) for v in values})


def test_numba_helper_in_another_module_keeps_its_own_globals(user_module):
    helpers = user_module("""
        import numba
        K = 2.0

        @numba.njit
        def twice(x):
            return x * K
        """)
    fn = cuvil.jit(define("""
        K = 100.0
        def f(x):
            return twice(x) + K
        """, env={"twice": helpers.twice}))
    assert fn(1.0) == 102.0
    assert isinstance(helpers.twice, numba.core.dispatcher.Dispatcher)


def test_numba_helper_reached_through_a_module_recompiles_with_fresh_machine_code(user_module):
    helpers = user_module("""
        import numba
        OFFSET = 1.0

        @numba.njit
        def shift(x):
            return x + OFFSET
        """)
    fn = define("""
        def f(x):
            return helpers.shift(x)
        """, env={"helpers": helpers})
    jitted = cuvil.jit(fn)
    assert jitted(1.0) == 2.0
    helpers.OFFSET = 10.0
    assert jitted(1.0) == helpers.shift.py_func(1.0) == 11.0
    assert _reasons(jitted)[1] == "global helpers.shift.OFFSET: 10.0 != 1.0 (guard of variant #1)"


PATHS = ["global", "closure", "module", "submodule", "callee_global", "callee_module", "callee_default",
         "numba_global", "numba_via_module"]


def _program(path: str, user_module):
    """A function of x that returns x * V, V reached along `path`; and how to set V as Python code would."""
    mod = user_module("""
        import numba
        V = 1.0

        @numba.njit
        def times(x):
            return x * V
        """)
    sub = user_module("V = 1.0\n", package=True)
    pkg = sys.modules[sub.__name__.rsplit(".", 1)[0]]
    body = {"global": "x * V", "closure": "x * c", "module": "x * mod.V", "submodule": "x * pkg.sub.V",
            "callee_global": "helper(x)", "callee_module": "helper_mod(x)", "callee_default": "helper_default(x)",
            "numba_global": "times(x)", "numba_via_module": "mod.times(x)"}[path]
    make = define(f"""
        V = 1.0
        def helper(x):
            return x * V
        def helper_mod(x):
            return x * mod.V
        def helper_default(x, v=V):
            return x * v
        def make(c):
            def f(x):
                return {body}
            return f
        """, "make", env={"mod": mod, "pkg": pkg, "times": mod.times})
    fn = make(1.0)

    def set_value(v):
        if path in ("global", "callee_global"):
            fn.__globals__["V"] = v
        elif path == "closure":
            fn.__closure__[0].cell_contents = v
        elif path in ("module", "callee_module", "numba_global", "numba_via_module"):
            mod.V = v
        elif path == "submodule":
            pkg.sub.V = v
        else:
            fn.__globals__["helper_default"].__defaults__ = (v,)

    return fn, set_value


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(PATHS), values=st.lists(st.sampled_from([2.0, 3.0, 2, 0.5]), min_size=1, max_size=3))
def test_values_reached_any_way_are_never_stale(user_module, path, values):
    fn, set_value = _program(path, user_module)
    jitted = cuvil.jit(fn)
    assert jitted(3.0) == 3.0
    for value in values:
        set_value(value)
        result = jitted(3.0)
        assert result == 3.0 * value and type(result) is float, (path, value)


@pytest.mark.parametrize(("first", "then"), [(2, 2.0), (2.0, 2), (1, True), (True, 1), (0.0, -0.0)])
def test_a_literal_global_equal_by_value_but_not_by_type_recompiles(first, then):
    """`K = 2` then `K = 2.0`: equal by `==`, compiled differently. The guard's fast path checks identity, then
    type and value (a mutation audit survivor compared with `==` and kept returning an int)."""
    fn = define("""
        def f(x):
            return x * K
        """, env={"K": first})
    jitted = cuvil.jit(fn)
    for _ in range(2):  # first call, guard hit
        assert repr(jitted(3)) == repr(fn(3))
    fn.__globals__["K"] = then
    assert repr(jitted(3)) == repr(fn(3))  # guard miss
    assert _reasons(jitted)[1] == f"global K: {then!r} != {first!r} (guard of variant #1)"


_BOXED = {(np.float64, float), (np.int64, int)}  # int64 and float64 results: Python's (docs/semantics.md)
ARRAY_BODIES = {"method": "mod.ARR.sum() + x", "expression": "(mod.ARR * x).sum()", "element": "mod.ARR[1] * x",
                "scalar": "mod.S * x", "submodule": "pkg.sub.ARR.max() * x", "callee": "helper_mod(x)",
                "twice": "mod.ARR.sum() + mod.ARR[0] + x"}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.sampled_from(sorted(ARRAY_BODIES)), dtype=st.sampled_from(["float32", "int8", "float64"]),
       sizes=st.lists(st.integers(2, 5), min_size=1, max_size=3))
def test_module_arrays_are_typed_globals_and_never_stale(user_module, body, dtype, sizes):
    """An array (or NumPy scalar) read as a module attribute is compiled as a global of the generated module:
    typed and lowered (`mod.ARR.sum()` failed inside Numba's inliner), its dtype NumPy's, and rebinding it
    recompiles. First call, guard hit, then each rebinding is a guard miss."""
    mod = user_module("import numpy as np\nARR = np.arange(3)\nS = np.float32(1.5)\n")
    sub = user_module("import numpy as np\nARR = np.arange(3)\n", package=True)
    pkg = sys.modules[sub.__name__.rsplit(".", 1)[0]]
    fn = define(f"""
        def helper_mod(x):
            return mod.ARR.min() - x
        def f(x):
            return {ARRAY_BODIES[body]}
        """, "f", env={"mod": mod, "pkg": pkg})
    jitted = cuvil.jit(fn)

    def rebind(n):
        for owner in (mod, pkg.sub):
            owner.ARR = np.arange(n, dtype=dtype)
            owner.ARR.flags.writeable = False
        mod.S = np.dtype(dtype).type(n)

    x = np.dtype(dtype).type(3)
    for n in (sizes[0], sizes[0], *sizes[1:]):
        rebind(n)
        expected, got = fn(x), jitted(x)
        assert type(got) is type(expected) or (type(expected), type(got)) in _BOXED, (body, type(got))
        assert got == expected, (body, n)
