"""cuvil.profile of a CUDA variant while another thread calls the same function: the profile times its own
call's launches only, and the other call runs its kernels untouched. The profile once bound each kernel's name
in the generated module to a timed stand-in for the whole profile, so the other thread's launches were timed
into the profile (and its launch counts doubled). The threads take turns here, as the simulator runs one
kernel at a time: the profiling thread stops before its timed call's first launch until the other thread has
made a whole call."""

from __future__ import annotations

import threading

import numpy as np

import cuvil
from cuvil.inspect import cuda_profile
from cuvil.runtime import cuda_runtime
from tests.cuda.test_cuda_profile import AXPY_SUM
from tests.helpers import define
from tests.inspect.test_profile import FIXED


def test_a_call_on_another_thread_is_not_timed_into_the_profile(monkeypatch):
    monkeypatch.setattr(cuda_profile, "device_peaks", lambda: FIXED)
    fn = cuvil.jit(define(AXPY_SUM), target="cuda")
    n = 32
    x, y = np.arange(n, dtype=np.float64), np.full(n, 2.0)
    fn(1.0, x, y, np.empty(n))  # compiled before the threads start
    profiler = threading.current_thread()
    grids = []
    other_done = threading.Event()
    results = []
    grid = cuda_runtime.grid

    def paused_grid(*args, **kwargs):
        if threading.current_thread() is profiler:
            grids.append(args)
            if len(grids) == 3:  # the timed call's first launch (the warm-up call launched two kernels)
                threading.Thread(target=other_call).start()
                assert other_done.wait(60)
        return grid(*args, **kwargs)

    def other_call():
        out = np.empty(n)
        results.append((fn(3.0, x, y, out), out.copy()))
        other_done.set()

    monkeypatch.setattr(cuda_runtime, "grid", paused_grid)
    found = cuvil.profile(fn, 2.0, x, y, np.empty(n), repeat=1)
    assert other_done.is_set() and len(grids) == 4
    [(total, out)] = results
    assert np.array_equal(out, 3.0 * x + y) and out.dtype == np.float64
    assert total == float(np.sum(3.0 * x + y))
    assert [(k.name, k.launches) for k in found.kernels] == [("axpy_sum_k0", 1), ("axpy_sum_k1", 1)]
    launcher = fn._variants[0].impl.launcher
    assert all(launcher.__globals__[k] is not None for k in launcher.__globals__["CUVIL_KERNELS"])


def test_two_threads_profiling_at_once_each_count_their_own_launches(monkeypatch):
    """Both threads profile; one stops in its timed call while the other profiles whole."""
    monkeypatch.setattr(cuda_profile, "device_peaks", lambda: FIXED)
    fn = cuvil.jit(define(AXPY_SUM), target="cuda")
    n = 16
    x = np.ones(n)
    fn(1.0, x, x, np.empty(n))
    first = threading.current_thread()
    grids = []
    other_done = threading.Event()
    found = {}
    grid = cuda_runtime.grid

    def paused_grid(*args, **kwargs):
        if threading.current_thread() is first:
            grids.append(args)
            if len(grids) == 3:
                threading.Thread(target=other_profile).start()
                assert other_done.wait(60)
        return grid(*args, **kwargs)

    def other_profile():
        found["other"] = cuvil.profile(fn, 1.0, x, x, np.empty(n), repeat=2)
        other_done.set()

    monkeypatch.setattr(cuda_runtime, "grid", paused_grid)
    found["first"] = cuvil.profile(fn, 1.0, x, x, np.empty(n), repeat=1)
    assert other_done.is_set()
    for name, runs in (("first", 1), ("other", 2)):
        assert [(k.name, k.launches) for k in found[name].kernels] == [("axpy_sum_k0", 1), ("axpy_sum_k1", 1)]
        assert len(found[name].runs) == runs and all(k.seconds > 0 for k in found[name].kernels)
