"""Compiled functions run under Python's profilers and tracers (cProfile, sys.setprofile, sys.settrace) as
without them: Numba's C dispatcher shows a profiled call as a frame of the dispatcher's code object, and the
call entry's one-signature dispatcher (runtime/exact.py) had none, so every call under cProfile raised
RuntimeError("No __code__ attribute found.")."""

from __future__ import annotations

import contextlib
import cProfile
import sys
import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import assert_matches
from tests.helpers import define

SCALE = define("""
    def scale(a, out, k):
        for i in range(a.shape[0]):
            out[i] = a[i] * k
        return a.shape[0]
    """)

PICK = define("""
    def pick(a, i):
        x = a[0]
        return a[i] + x
    """)


@contextlib.contextmanager
def _cprofile():
    profile = cProfile.Profile()
    profile.enable()
    try:
        yield
    finally:
        profile.disable()


@contextlib.contextmanager
def _hook(install):
    calls = []
    install(lambda frame, event, arg: calls.append(event))
    try:
        yield
    finally:
        install(None)
    assert calls  # the hook was live while the compiled function ran


PROFILERS = {"cProfile": _cprofile, "setprofile": lambda: _hook(sys.setprofile),
             "settrace": lambda: _hook(sys.settrace)}


@pytest.mark.parametrize("profiler", PROFILERS)
@settings(max_examples=4)
@given(dtype=st.sampled_from([np.float64, np.float32, np.int32, np.uint8]), size=st.integers(0, 5))
def test_a_profiled_call_returns_what_python_does(profiler, dtype, size):
    jitted = cuvil.jit(SCALE)
    for length in (size, size, size + 2):  # first call, guard hit, guard miss (a new static length)
        a = np.arange(length).astype(dtype)
        with PROFILERS[profiler]():
            assert_matches(SCALE, {"cuvil": jitted}, a, np.zeros(length, dtype), 3)
    assert len(cuvil.explain(jitted).compiles) == 2


@pytest.mark.parametrize("profiler", PROFILERS)
def test_a_profiled_error_is_pythons_at_the_users_line(profiler):
    jitted = cuvil.jit(PICK)
    a = np.arange(4.0)
    with PROFILERS[profiler]():
        assert_matches(PICK, {"cuvil": jitted}, a, 3)  # compiles
        assert_matches(PICK, {"cuvil": jitted}, a, -2)  # a guard hit
        with pytest.raises(IndexError) as info:
            jitted(a, 7)
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (str(info.value), last.filename, last.lineno) == (
        "index 7 is out of bounds for axis 0 with size 4", PICK.__code__.co_filename, 3)
