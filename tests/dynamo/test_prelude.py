"""prelude.py: once a process has its first kernel, the vector math is compiled ahead with the kernels' own
flags, so a later graph's compile is its kernel's alone (one Numba compile, not one per math function)."""

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional
event = pytest.importorskip("numba.core.event")

from cuvil.dynamo import prelude  # noqa: E402


def every_function(x):
    """exp, log and max (log_softmax), tanh, erf, sigmoid: every function the prelude compiles."""
    return torch.log_softmax(x, -1) + torch.tanh(x) * F.gelu(x) - torch.sigmoid(x)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_later_graph_compiles_only_its_kernel(new_process, dtype):
    x = torch.randn(5, 33, generator=torch.Generator().manual_seed(1)).to(dtype)
    first = torch.compile(lambda t: t * 2 + 1, backend="cuvil", dynamic=False)
    assert torch.equal(first(x), x * 2 + 1)  # a first kernel: the prelude starts
    assert prelude.wait(timeout=120)
    later = torch.compile(every_function, backend="cuvil", dynamic=False)
    with event.install_recorder("numba:compile") as recorder:
        out = later(x)
    compiled = [e.data["dispatcher"].py_func.__name__ for _, e in recorder.buffer if e.is_start]
    assert compiled == ["kernel"]  # without the prelude: kernel, _exp_f32, _log_f32, _tanh_f32, ...
    expected = every_function(x)
    assert out.dtype == expected.dtype == dtype and out.shape == expected.shape == (5, 33)
    tolerance = {torch.bfloat16: (0.05, 0.02)}.get(dtype, (1e-5, 1e-5))
    torch.testing.assert_close(out, expected, atol=tolerance[0], rtol=tolerance[1])
