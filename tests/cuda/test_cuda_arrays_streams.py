"""runtime/cuda_arrays.from_interface on a GPU (stood in: the simulator builds host views instead): an array on
CUDA's legacy default stream (CuPy's default, `stream` 1) or with no stream is taken without waiting for the
host, since the kernels run on the default stream after that stream's work; another stream is synchronized
with first, as __cuda_array_interface__ v3 asks."""

import pytest

from cuvil.runtime import cuda_arrays
from tests.cuda.backing import GPU


class Producer:
    def __init__(self, stream):
        self.__cuda_array_interface__ = {"version": 3, "shape": (4,), "typestr": "<f4", "strides": None,
                                         "data": (4096, False), "stream": stream}


@pytest.mark.skipif(GPU, reason="stands in numba's import functions")
@pytest.mark.parametrize(("stream", "synchronized"), [(None, False), (1, False), (2, True), (123456, True)])
def test_only_another_stream_is_waited_for(monkeypatch, stream, synchronized):
    seen = []
    monkeypatch.setattr(cuda_arrays, "simulator", lambda: False)
    monkeypatch.setattr(cuda_arrays, "_is_sim", lambda: False)
    monkeypatch.setattr(cuda_arrays.cuda, "as_cuda_array", lambda value: seen.append("as_cuda_array (syncs)"),
                        raising=False)
    monkeypatch.setattr(cuda_arrays.cuda, "from_cuda_array_interface",
                        lambda desc, owner=None, sync=True: seen.append(f"from_interface sync={sync}"), raising=False)
    value = Producer(stream)
    cuda_arrays.from_interface(value, dict(value.__cuda_array_interface__))
    assert seen == (["as_cuda_array (syncs)"] if synchronized else ["from_interface sync=False"])
