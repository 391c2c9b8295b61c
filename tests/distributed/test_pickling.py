"""Jitted functions pickle (cuvil/distributed.py): by reference when their module can be imported, by value
(source text, captured values, defaults, closure values, options) when they were defined in `__main__`, a
notebook cell or exec'd text — and the copy a fresh process rebuilds computes what the original does, keyed on
the disk by content (one compile per cache directory)."""

from __future__ import annotations

import math
import os
import pickle
import subprocess
import sys
import threading
import types
import uuid
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cuvil
import cuvil.distributed as cd
from cuvil.distributed import _by_reference, _by_value
from tests.distributed.conftest import compiler_fingerprint
from tests.helpers import define

ROOT = Path(__file__).resolve().parents[2]
OFFSET = 0.5


@cuvil.jit
def shifted(x):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = math.sqrt(abs(x[i])) + OFFSET
    return out


def plain_scale(x, k=3.0):
    return x * k


scale_serial = cuvil.jit(plain_scale, parallel=False)  # call form: the module holds the plain function

EXEC_TEXT = """
import numpy as np

GAIN = 2.0

def helper(v):
    return v * GAIN

def affine(x, bias=1.0):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = helper(x[i]) + bias
    return out
"""


def exec_defined(options=None, text=EXEC_TEXT):
    """A function as `__main__` or a notebook would hold it: its module cannot be imported elsewhere."""
    return cuvil.jit(define(text, "affine"), **(options or {}))


def expected_affine(x, bias=1.0):
    return x * 2.0 + bias


def test_module_function_pickles_by_reference():
    reduced = shifted.__reduce__()
    assert reduced == (_by_reference, (__name__, "shifted", shifted.options))
    assert pickle.loads(pickle.dumps(shifted)) is shifted


def test_call_form_pickles_by_reference_with_its_options():
    reduced = scale_serial.__reduce__()
    assert reduced[0] is _by_reference and reduced[1][2].parallel is False
    copy = pickle.loads(pickle.dumps(scale_serial))
    assert copy is not scale_serial and copy.options == scale_serial.options
    assert pickle.loads(pickle.dumps(scale_serial)) is copy  # one Dispatcher per process
    x = np.arange(20.0)
    np.testing.assert_array_equal(copy(x), x * 3.0)


def test_exec_defined_function_pickles_by_value_and_runs():
    fn = exec_defined()
    assert fn.__reduce__()[0] is _by_value
    copy = pickle.loads(pickle.dumps(fn))
    assert copy is not fn and copy.py_func is not fn.py_func
    x = np.linspace(-3.0, 3.0, 40)
    np.testing.assert_array_equal(copy(x), expected_affine(x))  # first call
    np.testing.assert_array_equal(copy(x + 1.0), expected_affine(x + 1.0))  # guard hit
    np.testing.assert_array_equal(copy(x, 0.25), expected_affine(x, 0.25))  # keyword default overridden
    xi = np.arange(40, dtype=np.int64)
    np.testing.assert_array_equal(copy(xi), fn.py_func(xi))  # guard miss: int64
    assert [e.reason.split(" (")[0] for e in copy.compile_events][0] == "first call"
    assert len(copy.compile_events) == 2
    assert pickle.loads(pickle.dumps(fn)) is copy  # rebuilt once per process: compiled once


def test_by_value_sends_the_new_value_of_a_global():
    fn = exec_defined()
    copy = pickle.loads(pickle.dumps(fn))
    x = np.arange(30.0)
    np.testing.assert_array_equal(copy(x), expected_affine(x))
    fn.py_func.__globals__["GAIN"] = 5.0  # the client's module changed, as a re-run cell would
    again = pickle.loads(pickle.dumps(fn))
    assert again is copy
    np.testing.assert_array_equal(again(x), x * 5.0 + 1.0)
    assert "global helper.GAIN" in copy.compile_events[-1].reason


def test_closures_with_other_values_stay_two_functions():
    def make(c):
        def times(x):
            return x * c

        return cuvil.jit(times)

    two, three = (pickle.loads(pickle.dumps(make(c))) for c in (2.0, 3.0))
    assert two is not three
    x = np.arange(25.0)
    np.testing.assert_array_equal(two(x), x * 2.0)
    np.testing.assert_array_equal(three(x), x * 3.0)


def test_functions_that_call_each_other_by_value_keep_their_options():
    inner = define("""
    def inner(x):
        return x + 1.0
    """)
    jitted_inner = cuvil.jit(inner, boundscheck=False)
    outer = define("""
    def outer(x):
        return inner(x) * 2.0
    """, env={"inner": jitted_inner})
    copy = pickle.loads(pickle.dumps(cuvil.jit(outer)))
    copied_inner = copy.py_func.__globals__["inner"]
    assert getattr(copied_inner, "__cuvil_jit__", False) and copied_inner.options.boundscheck is False
    x = np.arange(20.0)
    np.testing.assert_array_equal(copy(x), (x + 1.0) * 2.0)


def test_unpicklable_global_is_named():
    fn = cuvil.jit(define("""
    def uses_lock(x):
        if LOCK is None:
            return x
        return x + 1.0
    """, env={"LOCK": threading.Lock()}))
    with pytest.raises(cuvil.CuvilError, match=r"cannot send uses_lock to another process: 'LOCK' \(a lock\) "
                                               r"cannot be pickled"):
        pickle.dumps(fn)


def test_missing_module_on_the_worker_is_said_with_the_remedy():
    with pytest.raises(cuvil.CuvilError, match=r"cannot find no_such_module_xyz\.f in this process .*"
                                               r"send_by_value\('no_such_module_xyz'\)"):
        _by_reference("no_such_module_xyz", "f", shifted.options)


def test_send_by_value_overrides_an_importable_module():
    cd.send_by_value(__name__)
    try:
        assert shifted.__reduce__()[0] is _by_value
        copy = pickle.loads(pickle.dumps(shifted))
    finally:
        cd._by_value_modules.discard(__name__)
    assert copy is not shifted and copy.py_func.__code__.co_filename.startswith(f"{__file__} [shifted, sent by cuvil ")
    x = np.linspace(-2.0, 2.0, 30)
    np.testing.assert_allclose(copy(x), np.sqrt(np.abs(x)) + OFFSET, rtol=0, atol=0)


@settings(max_examples=10)
@given(hnp.arrays(np.float64, st.integers(17, 60), elements=st.floats(-1e6, 1e6)))
def test_copy_by_value_equals_python(x):
    copy = pickle.loads(pickle.dumps(exec_defined({"dynamic": True})))
    np.testing.assert_array_equal(copy(x), copy.py_func(x))


CHILD = """
import pickle, sys
import numpy as np
from tests.distributed.conftest import pin_compiler
pin_compiler(sys.argv[1])
by_reference, by_value = pickle.loads(sys.stdin.buffer.read())
x = np.linspace(-3.0, 3.0, 40)
print(repr((by_reference(x).tolist(), by_value(x).tolist(), [e.cache for e in by_value.compile_events])))
"""


def test_both_kinds_load_in_a_fresh_process_and_by_value_hits_the_disk():
    by_value = exec_defined(text=EXEC_TEXT.replace("bias=1.0):", f"bias=1.0):  # {uuid.uuid4()}: new text"))
    copy = pickle.loads(pickle.dumps(by_value))
    x = np.linspace(-3.0, 3.0, 40)
    copy(x)  # compiled here, keyed by its text: the fresh process reads it from the disk
    assert [e.cache for e in copy.compile_events] == ["miss"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", CHILD, compiler_fingerprint()], input=pickle.dumps((shifted, by_value)),
                         capture_output=True, env=env, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    got_reference, got_value, caches = eval(out.stdout.decode())
    np.testing.assert_array_equal(got_reference, shifted.py_func(x))
    np.testing.assert_array_equal(got_value, expected_affine(x))
    assert caches == ["disk"]


def test_a_copy_sent_on_is_the_same_function():
    """Dask's scheduler unpickles a task and pickles it again for a worker: the second hop must name the first
    sender's file and lines, or the worker keys (and compiles) a different function."""
    fn = cuvil.jit(define("""
    @cuvil.jit
    def decorated(x):
        return x - 1.0
    """, "decorated", env={"cuvil": types.SimpleNamespace(jit=lambda f: f)}))  # the text says @cuvil.jit
    copy = pickle.loads(pickle.dumps(fn))
    assert copy.__reduce__() == fn.__reduce__()
    assert pickle.loads(pickle.dumps(copy)) is copy
    assert copy.py_func.__code__.co_firstlineno == fn.py_func.__code__.co_firstlineno == 1
    np.testing.assert_array_equal(copy(np.arange(20.0)), np.arange(20.0) - 1.0)


def test_a_copy_received_again_after_linecache_was_cleared_still_compiles():
    fn = exec_defined(text=EXEC_TEXT.replace("bias=1.0):", f"bias=1.0):  # {uuid.uuid4()}"))
    copy = pickle.loads(pickle.dumps(fn))
    x = np.arange(20.0)
    np.testing.assert_array_equal(copy(x), expected_affine(x))
    import linecache

    sender = fn.py_func.__code__.co_filename
    everything = dict(linecache.cache)  # restored after: other tests in this process registered their sources
    try:
        linecache.clearcache()  # as a worker might: the copy's source goes with it
        linecache.cache[sender] = everything[sender]  # (the sender, another process in real use, keeps its own)
        assert pickle.loads(pickle.dumps(fn)) is copy  # received again: its text registered again
        xi = np.arange(20, dtype=np.int32)
        np.testing.assert_array_equal(copy(xi), fn.py_func(xi))  # a guard miss: compiled from that text
        assert [e.cache for e in copy.compile_events] == ["miss", "miss"]
    finally:
        linecache.cache.update({k: v for k, v in everything.items() if k not in linecache.cache})
