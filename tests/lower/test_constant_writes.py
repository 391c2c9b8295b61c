"""A module-level array is compiled in as a constant: a function that may write one is refused at the line
(lower/constants.py), whichever way the array is reached and written. Before, `mod.ARR[0] = x` returned
normally and left the module's array unchanged (a silent wrong answer), and `ARR[1:] += x` failed inside
Numba (AttributeError). Reads of the same arrays compile (tests/runtime/test_value_guards.py)."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.lower.constants import WRITES_CONSTANT
from tests.helpers import define

READS = {"global": "ARR", "module": "mod.ARR", "submodule": "pkg.sub.ARR"}
WRITES = {"store": "{a}[0] = x", "slice": "{a}[1:] = x", "augmented": "{a}[1:] += x", "element+=": "{a}[1] += x",
          "alias": "b = {a}[1:]\n    b[0] = x", "ufunc out": "np.add({a}, x, out={a})", "fill": "{a}.fill(x)",
          "helper": "put({a}, x)"}


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """A user module and a package with a submodule, as files (the generated module imports them)."""
    folder = tmp_path_factory.mktemp("constant_writes")
    (folder / "constant_writes_mod.py").write_text("import numpy as np\nARR = np.arange(4.0)\n")
    (folder / "constant_writes_pkg" / "sub").mkdir(parents=True)
    (folder / "constant_writes_pkg" / "__init__.py").write_text("from . import sub\n")
    (folder / "constant_writes_pkg" / "sub" / "__init__.py").write_text("import numpy as np\nARR = np.arange(4.0)\n")
    sys.path.insert(0, str(folder))
    import constant_writes_mod as mod
    import constant_writes_pkg as pkg

    def fresh():
        mod.ARR, pkg.sub.ARR = np.arange(4.0), np.arange(4.0)
        return mod, pkg

    yield fresh
    sys.path.remove(str(folder))
    for name in [k for k in sys.modules if k.startswith("constant_writes_")]:
        del sys.modules[name]


@settings(max_examples=30)
@given(read=st.sampled_from(sorted(READS)), write=st.sampled_from(sorted(WRITES)),
       xs=st.lists(st.sampled_from([2.0, 3, np.float32(1.5)]), min_size=3, max_size=3))
def test_writing_a_module_array_is_refused_at_its_line(modules, read, write, xs):
    mod, pkg = modules()
    arr = np.arange(4.0)
    body = WRITES[write].format(a=READS[read])
    fn = define("def put(a, v):\n    a[0] = v\ndef f(x):\n    y = x * 2\n    " + body + "\n    return y\n", "f",
                env={"np": np, "mod": mod, "pkg": pkg, "ARR": arr})
    jitted = cuvil.jit(fn)
    for x in xs:  # first call, then a hit or a miss (another type of x): refused each time, nothing written
        with pytest.raises(cuvil.CuvilTypeError) as info:
            jitted(x)
        assert str(info.value.message) == WRITES_CONSTANT
        assert info.value.lineno == 5 + (write == "alias")
        for owner in (arr, mod.ARR, pkg.sub.ARR):
            assert owner.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_a_copy_of_a_module_array_may_be_written(modules):
    mod, _ = modules()
    mod.ARR.flags.writeable = False  # said to be a constant: no warning
    fn = define("""
        def f(x):
            b = mod.ARR.copy()
            b[0] = x
            c = mod.ARR + 0
            c[1:] += x
            return b.sum() + c.sum()
        """, env={"mod": mod})
    jitted = cuvil.jit(fn)
    for x in (2.0, 2.0, 5):
        assert jitted(x) == fn(x)
    assert mod.ARR.tolist() == [0.0, 1.0, 2.0, 3.0]


DEFAULT_HELPERS = """
import numpy as np
BUF = np.arange(4.0)
def put(a, k=1, out=BUF):
    out[0] = a[0] * k
def get(a, buf=BUF):
    return buf
"""
DEFAULT_CALLS = {  # (the caller's body, the line refused, or None where the array is passed and it compiles)
    "positional default": ("put(a)\n    return a[0]", 8),
    "keyword past a default": ("put(a, k=2)\n    return a[0]", 8),
    "a view returned": ("b = get(a)\n    b[1] = a[0]\n    return a[0]", 9),
    "passed by keyword": ("o = np.zeros(2)\n    put(a, out=o)\n    return o[0]", None),
    "passed by position": ("o = np.zeros(2)\n    put(a, 3, o)\n    return o[0]", None),
    "only read": ("return get(a)[1] + a[0]", None),
}


@pytest.mark.parametrize("call", DEFAULT_CALLS, ids=DEFAULT_CALLS.keys())
def test_a_helpers_array_default_written_is_refused_at_the_call(call):
    """`def put(a, out=BUF)`: `put(a)` writes the module's BUF, which compiled code holds as a constant (the
    default was bound as one), so the call returned normally and BUF was unchanged. Where the caller passes the
    array it compiles, and equals Python; first call, guard hit, guard miss (another dtype)."""
    body, line = DEFAULT_CALLS[call]
    fn = define(DEFAULT_HELPERS + "def f(a):\n    " + body + "\n", "f")
    jitted = cuvil.jit(fn)
    for a in (np.ones(3), np.ones(3), np.ones(3, np.float32)):
        if line is None:
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                assert jitted(a) == fn(a)
            assert all("an array default of" in str(w.message) for w in seen if "__defaults__" in str(w.message))
            continue
        with pytest.raises(cuvil.CuvilTypeError) as info:
            jitted(a)
        assert (str(info.value.message), info.value.lineno) == (WRITES_CONSTANT, line)
    assert fn.__globals__["BUF"].tolist() == [0.0, 1.0, 2.0, 3.0]


ARGUMENT_WRITES = {**{k: v for k, v in WRITES.items() if k != "helper"}, "sort": "{a}.sort()",
                   "sort along": "{a}.sort(0)"}


@pytest.mark.parametrize("write", ARGUMENT_WRITES.values(), ids=ARGUMENT_WRITES.keys())
def test_a_read_only_argument_written_is_numpys_value_error_at_the_line(write):
    """An argument passed with `flags.writeable` False is typed read-only, and Numba refused the write in its
    words, which Cuvil reported as a write to a module-level array. It is a CuvilReadOnlyError now (a ValueError,
    as NumPy raises) at the line; the same function on a writable array compiles and writes it, before and after."""
    body = write.format(a="a").replace("\n    ", "\n            ")
    fn = define(f"""
        def f(a, x):
            {body}
            return a
        """, env={"np": np})
    jitted = cuvil.jit(fn)
    for read_only in (False, True, False):
        a, expected = np.arange(4.0), np.arange(4.0)
        a.flags.writeable = not read_only
        if read_only:
            with pytest.raises(cuvil.CuvilReadOnlyError) as info:
                jitted(a, 2.0)
            assert isinstance(info.value, ValueError) and np.array_equal(a, expected)
            assert info.value.message.startswith("this line writes `a`, an array passed read-only")
            # Numba's a.sort() fails inside its own sort, at no line of the user's: the message names the argument
            assert info.value.lineno == (None if write == "{a}.sort()" else 3 if "\n" in body else 2)
            continue
        assert np.array_equal(jitted(a, 2.0), fn(expected, 2.0)) and np.array_equal(a, expected)
