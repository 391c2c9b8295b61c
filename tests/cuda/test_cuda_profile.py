"""cuvil.profile of a CUDA variant (CudaProfile): one entry per launched kernel, named for the user's lines of
its Plan region, with the cost model's FLOPs and bytes, set against the device's roofs. On the simulator the
times are the host clock's and mean nothing, so the tests pin the structure and the counts, never a time.

Hand counts (float64, n elements): `out[i] = a * x[i] + y[i]` is 2 FLOPs and reads x and y, writes out:
2n FLOPs, 16n bytes read, 8n written; `s += out[i]` is n FLOPs and 8n bytes read."""

from __future__ import annotations

import json

import numpy as np
import pytest

import cuvil
from cuvil.inspect import cuda_profile, device_probe
from cuvil.inspect import peaks as peaks_module
from cuvil.inspect.peaks import Peaks
from cuvil.runtime import cuda_runtime
from tests.cuda.backing import GPU
from tests.helpers import define
from tests.inspect.test_profile import FIXED

AXPY_SUM = """
def axpy_sum(a, x, y, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i]
    s = 0.0
    for i in range(x.shape[0]):
        s += out[i]
    return s
"""

STEPS = """
def steps(x, k):
    for t in range(k):
        for i in range(x.shape[0]):
            x[i] = x[i] * 0.5
    return x
"""

SCAN = """
def scan(x):
    for i in range(1, x.shape[0]):
        x[i] = x[i] + x[i - 1]
    return x
"""


@pytest.fixture
def fixed_roofs(monkeypatch):
    """tests/inspect's roofs; a CUDA profile reads their every-thread figures."""
    monkeypatch.setattr(cuda_profile, "device_peaks", lambda: FIXED)


def _profile(fn, *args, **kwargs):
    found = cuvil.profile(fn, *args, repeat=2, **kwargs)
    assert isinstance(found, cuda_profile.CudaProfile)
    return found


def test_each_launched_kernel_has_its_region_lines_and_hand_counted_cost(fixed_roofs):
    fn = cuvil.jit(define(AXPY_SUM), target="cuda")
    n = 64
    x, y, out = np.arange(n, dtype=np.float64), np.full(n, 2.0), np.empty(n)
    found = _profile(fn, 3.0, x, y, out)
    assert np.array_equal(out, 3.0 * x + y)  # it ran, with the caller's arrays written back
    assert [(k.name, k.kind, k.lines, k.launches) for k in found.kernels] == [
        ("axpy_sum_k0", "grid", (2, 3), 1), ("axpy_sum_k1", "grid", (5, 6), 1)]
    first, second = found.kernels
    assert (first.flops, first.read, first.written, first.exact) == (2 * n, 16 * n, 8 * n, True)
    assert (second.flops, second.read, second.written) == (n, 8 * n, 0)
    regions = {r.id: r for r in found.regions}  # the same figures as the cost model's regions
    assert all((regions[k.region].flops, regions[k.region].lines) == (k.flops, k.lines) for k in found.kernels)
    assert all(k.seconds > 0 for k in found.kernels) and len(found.runs) == 2
    assert found.roof == (50.0, 20.0) and found.dtype == "float64"
    assert first.bound(found.roof) == "memory" and first.fraction(found.roof) == pytest.approx(first.gbytes / 20)
    text = str(found)
    assert text.startswith(f"profile of axpy_sum (variant #1) on {found.device}: ")
    assert found.device == (cuda_profile._device_name() if GPU else "the CUDA simulator")
    assert "  roofs (float64): 50 GFLOP/s, 20 GB/s" in text
    assert "  kernel axpy_sum_k0 (grid, r1 L2-L3): 1 launch(es), " in text
    assert "  kernel axpy_sum_k1 (grid, r3 L5-L6): 1 launch(es), " in text


def test_profiling_leaves_the_module_and_the_launch_path_as_they_were(fixed_roofs):
    """The kernels are timed through a launch hook of the profiling call, not by rebinding the module's names
    (another thread's call would be timed: tests/cuda/test_profile_threads.py); after it, launches are plain."""
    fn = cuvil.jit(define(AXPY_SUM), target="cuda")
    x = np.ones(32)
    fn(1.0, x, x, np.empty(32))
    launcher = fn._variants[0].impl.launcher
    kernels = launcher.__globals__["CUVIL_KERNELS"]
    before = {k: launcher.__globals__[k] for k in kernels}
    assert sorted(before) == ["axpy_sum_k0", "axpy_sum_k1"]
    _profile(fn, 1.0, x, x, np.empty(32))
    assert all(launcher.__globals__[k] is before[k] for k in kernels)
    assert cuda_runtime._LAUNCH_HOOK.get() is None
    assert fn(1.0, x, x, np.empty(32)) == 64.0


def test_a_kernel_in_a_host_loop_counts_every_launch(fixed_roofs):
    fn = cuvil.jit(define(STEPS), target="cuda")
    n, k = 32, 3
    x = np.ones(n)
    found = _profile(fn, x, k)
    assert np.array_equal(x, np.full(n, 0.5 ** (k * 3)))  # warm-up and two timed calls, three steps each
    (kernel,) = found.kernels
    assert (kernel.kind, kernel.launches, kernel.lines) == ("grid", k, (3, 4))
    assert (kernel.flops, kernel.read, kernel.written) == (k * n, k * 8 * n, k * 8 * n)


def test_a_serial_loop_is_one_single_thread_kernel(fixed_roofs):
    fn = cuvil.jit(define(SCAN), target="cuda")
    x = np.ones(16, dtype=np.float32)
    found = _profile(fn, x)
    (kernel,) = found.kernels
    assert (kernel.kind, kernel.launches, kernel.lines) == ("serial", 1, (2, 3))
    assert found.dtype == "float32" and found.roof == (100.0, 20.0)


def test_guard_hit_and_miss_profile_the_variant_that_runs(fixed_roofs):
    fn = cuvil.jit(define(AXPY_SUM), target="cuda", dynamic=False)
    x = np.ones(16)
    fn(1.0, x, x, np.empty(16))  # first call
    hit = _profile(fn, 1.0, x, x, np.empty(16))
    y = np.ones(24)
    miss = _profile(fn, a=1.0, x=y, y=y, out=np.empty(24))  # keywords too
    assert (hit.variant, miss.variant, len(fn._variants)) == (1, 2, 2)
    assert [k.flops for k in hit.kernels] == [32, 16] and [k.flops for k in miss.kernels] == [48, 24]


def test_device_roofs_are_measured_once_per_device_and_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(tmp_path))
    calls = []
    stub = Peaks(device_probe.device_id(), 1, {"1": 3.0, "all": 3.0}, dict(FIXED.gflops))
    monkeypatch.setattr(device_probe, "measure", lambda: calls.append(1) or stub)
    assert peaks_module.device_peaks() == stub and peaks_module.device_peaks() == stub and len(calls) == 1
    (path,) = tmp_path.glob("peaks-cuda-*.json")
    assert path.name == f"peaks-cuda-{device_probe.device_id()}.json"
    assert json.loads(path.read_text())["bandwidth"]["all"] == 3.0
    path.write_text(json.dumps({**json.loads(path.read_text()), "machine": "another device"}))
    assert peaks_module.device_peaks() == stub and len(calls) == 2
    assert peaks_module.device_peaks(force=True) == stub and len(calls) == 3


def test_the_device_probes_run():
    """The probe kernels themselves (a copy, two multiply-add chains): on a few hundred simulated threads, or on
    a GPU (bench/gpu_check.sh), where a copy is slower than the multiply-adds' bytes would be."""
    found = device_probe.measure()
    assert found.machine == device_probe.device_id()
    assert set(found.bandwidth) == {"1", "all"}
    assert set(found.gflops) == {"float32/1", "float32/all", "float64/1", "float64/all"}
    assert all(v > 0 for v in [*found.bandwidth.values(), *found.gflops.values()])
    if GPU:  # a data-centre GPU: hundreds of GB/s at least, and FP32 faster than FP64 or as fast
        assert found.bandwidth["all"] > 100 and found.gflops["float32/all"] > found.bandwidth["all"] / 8
