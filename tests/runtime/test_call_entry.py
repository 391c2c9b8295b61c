"""The generated call entry (runtime/entry.py, runtime/exact.py): one Python frame with the function's own
parameters, each variant's guard inlined, Numba's dispatch on exactly one signature per variant."""

from __future__ import annotations

import functools
import inspect
import sys
import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.runtime import entry
from cuvil.testing import _compare
from tests.helpers import define

FIRST = define("""
    def first(x, y, out):
        out[0] = x[0] + y[0]
        return out
    """)


def _count(fn):
    return len(cuvil.explain(fn).compiles)


def test_a_layout_another_variant_of_the_same_entry_compiled_is_still_a_miss():
    """Two variants that differ only in layout share one cache entry (one Numba dispatcher with both
    signatures): each variant must take its own layout only, whatever ran before in the process."""
    x, strided = np.ones(4), np.ones(8)[::2]
    earlier = cuvil.jit(FIRST)
    earlier(x, x, np.zeros(4)), earlier(strided, x, np.zeros(4))  # the entry now holds C and A signatures
    fn = cuvil.jit(FIRST)
    out = fn(x, x, np.zeros(4))  # first call
    assert out.dtype == np.float64 and out.shape == (4,) and out[0] == 2.0
    assert fn(x, x, np.zeros(4))[0] == 2.0 and _count(fn) == 1  # guard hit
    assert fn(strided, x, np.zeros(4))[0] == 2.0 and _count(fn) == 2  # guard miss: its own variant
    assert cuvil.explain(fn).compiles[1].reason == "x.layout: A != C (guard of variant #1)"
    assert fn(x, x, np.zeros(4))[0] == 2.0 and fn(strided, x, np.zeros(4))[0] == 2.0 and _count(fn) == 2


def test_an_argument_of_another_rank_than_a_static_dim_is_a_miss_not_an_error():
    fn = cuvil.jit(define("""
        def ident(x):
            return x
        """))
    assert fn(np.ones(3)).shape == (3,)
    zero_d = fn(np.array(2.5))  # len() of a 0-d array raises: the guard says miss
    assert zero_d.shape == () and zero_d.dtype == np.float64 and zero_d == 2.5
    assert fn(np.array(2.5)) == 2.5 and fn(np.ones(3)).shape == (3,) and _count(fn) == 2


class Tagged(np.ndarray):
    """An ndarray subclass whose meaning compiled code would ignore: adapters.py refuses it."""


def test_an_ndarray_subclass_goes_to_the_slow_path_where_numba_would_take_it(tmp_path):
    fn = cuvil.jit(FIRST)
    fn(np.ones(4), np.ones(4), np.zeros(4))
    with pytest.raises(cuvil.CuvilTypeError, match="argument 'y' is a Tagged, a subclass of numpy.ndarray"):
        fn(np.ones(4), np.ones(4).view(Tagged), np.zeros(4))  # Numba types it as an ndarray: the entry does not
    mapped = np.memmap(tmp_path / "m.bin", dtype=np.float64, mode="w+", shape=(4,))
    mapped[:] = 3.0
    out = np.zeros(4)
    assert fn(mapped, np.ones(4), out) is out and out[0] == 4.0  # storage only: passed on as a plain view
    assert _count(fn) == 1


@pytest.mark.parametrize("name", ["type", "len", "ndarray", "MISS", "same", "fp", "__cv_U"])
def test_a_parameter_named_like_the_entrys_own_names_binds_by_keyword(name):
    fn = cuvil.jit(define(f"""
        def named(a, {name}=2.0):
            return a * {name}
        """))
    assert fn(3.0) == 6.0 and fn(3.0, **{name: 0.5}) == 1.5 and fn(a=1.0) == 2.0  # first call, hits
    assert fn(3, **{name: 2}) == 6 and type(fn(3, **{name: 2})) is int and _count(fn) == 2  # a miss
    with pytest.raises(TypeError) as compiled:
        fn(1.0, 2.0, 3.0)
    with pytest.raises(TypeError) as python:
        fn.py_func(1.0, 2.0, 3.0)
    if name != "__cv_U":  # named like the entry's own names: bound by inspect.Signature, its own words
        assert str(compiled.value) == str(python.value)


def test_a_function_named_like_a_guard_helper_keeps_its_guards():
    """The entry's own name must not replace a helper its guards call (`same` compares literals)."""
    fn = cuvil.jit(define("""
        K = 2
        def same(x):
            return x * K
        """))
    assert fn(3) == 6
    fn.py_func.__globals__["K"] = 3
    assert fn(3) == fn.py_func(3) == 9 and _count(fn) == 2


def test_entry_defaults_are_checked_by_the_calls_that_use_them():
    """The compiled code never reads the entry's own defaults (every argument is passed): a call that gives
    them all keeps its variant; one that leaves one out sees the new default and recompiles once."""
    fn = cuvil.jit(define("""
        def shift(x, k=1.0):
            return x + k
        """))
    assert fn(1.0) == 2.0
    fn.py_func.__defaults__ = (5.0,)
    assert fn(1.0, 0.5) == 1.5 and _count(fn) == 1  # every argument given: the variant holds
    assert fn(1.0) == fn.py_func(1.0) == 6.0 and _count(fn) == 2
    assert cuvil.explain(fn).compiles[1].reason == "defaults shift.__defaults__: (5.0,) != (1.0,) (guard of variant #1)"
    assert fn(1.0) == 6.0 and fn(1.0, 0.5) == 1.5 and _count(fn) == 2


def test_a_recursive_entry_checks_its_defaults_on_every_call():
    """Its recursive calls read the compiled-in defaults: a call giving every argument is a miss too."""
    fn = cuvil.jit(define("""
        def down(n, step=1):
            if n <= 0:
                return 0
            return 1 + down(n - step)
        """, "down"))
    fn.py_func.__globals__["down"] = fn
    assert fn(6) == 6
    fn.py_func.__defaults__ = (2,)
    assert fn(6, 1) == fn.py_func(6, 1) == 4 and _count(fn) == 2


def test_the_entry_is_the_only_frame_between_the_caller_and_compiled_code():
    fn = cuvil.jit(define("""
        def pick(x, i):
            return x[i]
        """))
    fn(np.ones(3), 0)
    with pytest.raises(IndexError) as info:
        fn(np.ones(3), 5)
    files = [frame.filename for frame in traceback.extract_tb(info.tb)]
    assert files[0] == __file__ and files[1].startswith("<cuvil call of pick")
    assert not any(f.endswith(("dispatcher.py", "guards.py")) for f in files)


def test_the_signature_is_the_functions():
    fn = cuvil.jit(define("""
        def scaled(x, scale=1.0, shift=0):
            return x * scale + shift
        """))
    assert inspect.signature(fn) == inspect.signature(fn.py_func)
    other = cuvil.jit(FIRST)
    assert type(fn) is type(other) and fn.func is not other.func  # one class, an entry of each one's own
    assert fn(np.ones(2), shift=1).tolist() == [2.0, 2.0] and fn.func.__name__ == "scaled"


def test_instances_are_called_through_vectorcall():
    """A keyword call through tp_call builds a tuple and a dict per call; CPython 3.11 gives a partial
    subclass vectorcall only when the flag is set (entry.vectorcall), 3.12 by inheritance."""
    fn = cuvil.jit(FIRST)
    assert type(fn).__flags__ & (1 << 11)  # Py_TPFLAGS_HAVE_VECTORCALL
    assert "__call__" not in vars(type(fn))  # a __call__ here would be bypassed by the vectorcall


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="3.11 only: 3.12 inherits the flag by itself")
def test_the_vectorcall_flag_is_set_only_on_a_partial_subclass_that_kept_partials_call():
    """entry.vectorcall writes a type's flags through ctypes on CPython 3.11: it must leave alone a class
    that defines its own __call__ (the vectorcall would bypass it) and one that is not a partial."""
    class OwnCall(functools.partial):
        def __call__(self, *args, **kwargs):
            return "own"

    class NotPartial:
        pass

    class Plain(functools.partial):
        pass

    for cls in (OwnCall, NotPartial, Plain):
        entry.vectorcall(cls)
    assert not OwnCall.__flags__ & (1 << 11) and OwnCall(max, 1)(2) == "own"
    assert not NotPartial.__flags__ & (1 << 11)
    assert Plain.__flags__ & (1 << 11) and Plain(max, 1)(2) == 2 and Plain(sorted)([2, 1], reverse=True) == [2, 1]


SCALE = define("""
    def scale(x):
        return x * 2
    """)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["f8", "f4", "i8", "strided", "readonly", "f8-5", "float", "npfloat"]),
                min_size=1, max_size=8))
def test_any_sequence_of_argument_types_compiles_each_once(picks):
    """Whatever the order, a call matching an earlier variant never compiles again, and each result is
    Python's, dtype and shape included."""
    def make(kind):
        if kind in ("float", "npfloat"):
            return 2.5 if kind == "float" else np.float64(2.5)
        if kind == "strided":
            return np.arange(8.0)[::2]
        a = np.arange(5 if kind == "f8-5" else 4, dtype="f4" if kind == "f4" else "i8" if kind == "i8" else "f8")
        a.flags.writeable = kind != "readonly"
        return a

    fn = cuvil.jit(SCALE)
    seen = []
    for kind in picks:
        got, want = fn(make(kind)), fn.py_func(make(kind))
        assert _compare(want, got, "result", None, None) == []  # values, dtypes and shapes (cuvil.testing's rule)
        seen.append(kind)
        assert _count(fn) <= len(set(seen))
    assert _count(fn) == len(cuvil.explain(fn).guards)


def test_a_byte_swapped_array_after_an_unaligned_one_is_refused_not_run_as_native():
    """Numba's C dispatch types an unaligned array by a fingerprint blind to byte order and remembers it: a
    big-endian array with the same fingerprint then matched the native signature and ran on swapped bytes."""
    fn = cuvil.jit(define("""
        def twice(x):
            return x * 2.0
        """))
    assert fn(np.arange(3.0)).tolist() == [0.0, 2.0, 4.0]
    unaligned = np.zeros(3 * 8 + 1, np.uint8)[1:].view(np.float64)
    unaligned[:] = [1.0, 2.0, 3.0]
    assert not unaligned.flags.aligned and fn(unaligned).tolist() == [2.0, 4.0, 6.0]
    with pytest.raises(cuvil.CuvilTypeError, match=r"argument 'x' has non-native byte order \(>f8\)"):
        fn(np.arange(3.0).astype(">f8"))
