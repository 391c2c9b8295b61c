"""runtime/cuda_call.py's allocator: a call on another library's GPU arrays makes its new arrays with that
library (its caching allocator: no cudaMalloc, and no cudaFree waiting for the device, per call) and returns
them as that library's arrays, not copied. A stand-in "cupy" module whose arrays are backing.Interface's."""

import sys
import types

import numpy as np
import pytest

import cuvil
from tests.cuda.backing import GPU, Interface
from tests.cuda.test_cuda_jam import Counts
from tests.cuda.test_cuda_rows import softmax_arrays

pytestmark = pytest.mark.skipif(GPU, reason="a stand-in library over the simulator's memory")


class FakeCupyArray(Interface):
    pass


FakeCupyArray.__module__ = "cupy._core.core"


@pytest.fixture
def fake_cupy(monkeypatch):
    module = types.ModuleType("cupy")
    module.made = []

    def empty(shape, dtype):
        made = FakeCupyArray(np.full(shape, np.nan, dtype))
        module.made.append(made)
        return made

    module.empty = empty
    module.asarray = lambda a: a
    monkeypatch.setitem(sys.modules, "cupy", module)
    return module


def test_new_arrays_come_from_the_callers_library_first_call_hit_and_miss(fake_cupy, monkeypatch):
    fn = cuvil.jit(softmax_arrays, target="cuda")
    for rows in (3, 3, 5):  # first call, guard hit, guard miss (another row count)
        host = np.linspace(-4, 4, rows * 40, dtype=np.float32).reshape(rows, 40)
        counts = Counts(monkeypatch)
        got = fn(FakeCupyArray(host))
        assert got is fake_cupy.made[-1]  # the library's own array, returned as it is
        assert "device_array" not in counts.seen
        with np.errstate(all="ignore"):
            want = softmax_arrays(host)
        assert got.read().dtype == want.dtype and got.read().shape == want.shape
        np.testing.assert_allclose(got.read(), want, rtol=2e-6)
        monkeypatch.undo()
        monkeypatch.setitem(sys.modules, "cupy", fake_cupy)
    assert len(fake_cupy.made) == 3
