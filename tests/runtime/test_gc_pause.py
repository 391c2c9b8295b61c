"""runtime/gc_pause.py: no cyclic collection while a function compiles, the collector as it was afterwards
(the user's choice kept), whatever the compile raised."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import cuvil
from cuvil.runtime import cache_key, gc_pause
from tests.helpers import define


@pytest.fixture
def collector():
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_as_it_was_after_a_compile(collector, monkeypatch, enabled):
    (gc.enable if enabled else gc.disable)()
    during = []
    key = cache_key.key

    def watched(*args, **kwargs):  # called in the middle of every compile
        during.append(gc.isenabled())
        return key(*args, **kwargs)

    monkeypatch.setattr(cache_key, "key", watched)
    fn = cuvil.jit(define("def f(x):\n    return x * 2.0\n", env={"np": np}))
    x = np.arange(3.0)
    np.testing.assert_array_equal(fn(x), x * 2.0)
    assert during == [False] and gc.isenabled() is enabled
    with gc_pause.paused():
        assert not gc.isenabled()
        with gc_pause.paused():  # nested: still paused inside and after the inner one
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled() is enabled


def test_a_failing_compile_resumes_the_collector(collector):
    gc.enable()
    fn = cuvil.jit(define("def f(x):\n    return undefined_name + x\n", env={"np": np}))
    with pytest.raises(NameError):
        fn(1.0)
    assert gc.isenabled()
