"""codegen/cuda_jam.py and what a fast launch needs: a grid-stride loop of plain assignments runs four
iterations a trip with every copy's loads before the first store (equal to Python on the simulator with a grid
small enough that the trips run; the serial twin as written), and a call with device arrays allocates only its
result and copies nothing back (counted with stand-ins). The PTX of the fast kernels (four loads before the first
store, no float64, warp shuffles) is read in test_ptx.py, whose one subprocess compiles every kernel."""

from contextlib import contextmanager

import numpy as np
import pytest

import cuvil
from bench import gpu_bench
from cuvil.runtime import cuda_runtime
from tests.cuda.backing import GPU
from tests.programs.test_programs import assert_same


def integer_total(x, out):
    s = 0
    for i in range(len(x)):
        v = x[i] * 3
        out[i] = v
        s += v
    return s


def clipped(x, out):  # an `if` in the body: not jammed
    for i in range(len(x)):
        if x[i] > 0:
            out[i] = x[i]
        else:
            out[i] = 0.0
    return out


@contextmanager
def small_grid(threads=32):
    """Every grid launch on one block of `threads`: the jammed trips run on the simulator's few elements."""

    def hook(kernel, config):
        return kernel[config if config == (1, 1) else (1, threads)]

    with cuda_runtime.launch_hook(hook):
        yield


def test_jammed_gelu_equals_python_over_trips_and_rest():
    x = np.linspace(-6, 6, 203, dtype=np.float32)  # 32 threads: one trip of 4 x 32, then the rest
    fn = cuvil.jit(gpu_bench.gelu, target="cuda")
    with small_grid():
        got = fn(x, np.zeros_like(x))
    want = gpu_bench.gelu(x, np.zeros_like(x))
    assert got.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=4e-7, atol=1e-6)  # 1 + tanh near -6 cancels
    assert "while _k0 + 3 * _s0 < _n0:" in fn.source(stage="kernel")


def test_jammed_reduction_is_exact_for_integers_first_call_hit_and_miss():
    fn = cuvil.jit(integer_total, target="cuda")
    for x in (np.arange(300, dtype=np.int64) - 150, np.arange(300, dtype=np.int64) * 7, np.arange(41, dtype=np.int64)):
        out, expected = np.zeros_like(x), np.zeros_like(x)
        with small_grid():
            got = fn(x, out)
        assert_same(got, integer_total(x, expected))
        assert_same(out, expected)


def test_overlapping_arrays_run_the_loop_as_written():
    x = np.arange(200, dtype=np.float64)
    fn = cuvil.jit(gpu_bench.gelu, target="cuda")
    expected = x.copy()
    gpu_bench.gelu(expected[:-1], expected[1:])  # out is x shifted by one: each element reads the last one's result
    from numba import cuda

    got = cuda.to_device(x)  # NumPy arguments that overlap are refused: device arrays are taken as they are
    with small_grid():
        fn(got[:-1], got[1:])
    assert_same(got.copy_to_host(), expected)


def test_a_body_with_a_test_is_not_jammed():
    x = np.linspace(-1, 1, 90)
    fn = cuvil.jit(clipped, target="cuda")
    with small_grid():
        assert_same(fn(x, np.zeros_like(x)), clipped(x, np.zeros_like(x)))
    assert "while" not in fn.source(stage="kernel").split("def clipped_k0")[1].split("\ndef ")[0]


def test_the_bandwidth_probe_copies_every_element():
    """inspect/device_probe's copy, jammed by hand like a generated kernel: one block of 32 threads over 203
    elements runs a trip and the rest."""
    from numba import cuda

    from cuvil.inspect import device_probe

    copy, _ = device_probe._kernels()
    src, dst = cuda.to_device(np.arange(203, dtype=np.float32)), cuda.to_device(np.zeros(203, np.float32))
    copy[1, 32](dst, src)
    assert_same(dst.copy_to_host(), np.arange(203, dtype=np.float32))


class Counts:
    """Calls of numba.cuda's allocations, copies and synchronizations, by name."""

    def __init__(self, monkeypatch):
        from numba import cuda
        from numba.cuda.simulator.cudadrv import devicearray

        self.seen: list[str] = []
        for name in ("device_array", "to_device", "synchronize", "device_array_like", "pinned_array"):
            monkeypatch.setattr(cuda, name, self.counted(name, getattr(cuda, name)))
        for name in ("copy_to_host", "copy_to_device"):
            monkeypatch.setattr(devicearray.FakeCUDAArray, name,
                                self.counted(name, getattr(devicearray.FakeCUDAArray, name)))

    def counted(self, name, fn):
        def call(*args, **kwargs):
            self.seen.append(name)
            return fn(*args, **kwargs)

        return call


@pytest.mark.skipif(GPU, reason="counts the simulator's calls")
def test_a_call_on_device_arrays_allocates_only_its_result(monkeypatch):
    from numba import cuda

    from tests.cuda.test_cuda_rows import softmax_arrays

    x = cuda.to_device(np.linspace(-3, 3, 4 * 40, dtype=np.float32).reshape(4, 40))
    flat, out = cuda.to_device(np.linspace(-3, 3, 64, dtype=np.float32)), cuda.device_array(64, np.float32)
    gelu, soft = cuvil.jit(gpu_bench.gelu, target="cuda"), cuvil.jit(softmax_arrays, target="cuda")
    gelu(flat, out), soft(x)  # compiled
    counts = Counts(monkeypatch)
    for _ in range(3):
        gelu(flat, out)
    assert counts.seen == []  # nothing allocated, copied or waited for
    soft(x)
    assert counts.seen == ["device_array"]  # its result
