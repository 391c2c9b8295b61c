"""options={"background": True}: the graph runs its partitions as torch ops until their kernels, compiled on a
worker thread, are ready, then runs the kernels, with no new graph; a refused partition stays torch ops with
its reason; the backend's options are checked when the model is compiled."""

import threading

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

import cuvil.dynamo as cd  # noqa: E402
from cuvil.dynamo import background  # noqa: E402
from cuvil.dynamo.compiler import backend_options  # noqa: E402


@pytest.fixture(autouse=True)
def fresh():
    torch._dynamo.reset()
    cd.reset()
    yield
    assert cd.wait(timeout=60)
    torch._dynamo.reset()


@pytest.fixture
def held(monkeypatch):
    """The worker compiles only once the test releases it, so the calls before that run torch's ops."""
    release = threading.Event()
    original = background.compile_partition

    def compile_when_released(sub):
        assert release.wait(timeout=60)
        return original(sub)

    monkeypatch.setattr(background, "compile_partition", compile_when_released)
    yield release
    release.set()


def scaled_log_softmax(x, w):
    return F.log_softmax(x * w, -1) - 0.25


def test_partitions_run_in_torch_until_their_kernel_is_ready(held):
    compiled = torch.compile(scaled_log_softmax, backend="cuvil", options={"background": True})
    x, w = torch.randn(7, 30), torch.randn(30)
    with torch.no_grad():
        want = scaled_log_softmax(x, w)
        before = compiled(x, w)  # the worker is held: torch computes it
        (graph,) = cd.explain().graphs
        assert not graph.fused and not graph.fallbacks and not graph.left
        held.set()
        assert cd.wait(timeout=60)
        (fused,) = graph.fused
        assert fused.mode == "rows" and "log_f32(" in fused.source
        after = compiled(x, w)
        x2 = torch.randn(7, 30)
        third = compiled(x2, w)
    assert len(cd.explain().graphs) == 1  # the swap is inside the graph: no recompile
    for got, expected in ((before, want), (after, want), (third, scaled_log_softmax(x2, w))):
        assert got.dtype == expected.dtype and got.shape == expected.shape
        torch.testing.assert_close(got, expected, atol=1e-5, rtol=1e-5)


def test_a_partition_refused_in_the_background_stays_torch_ops_with_its_reason():
    def f(x, y):
        return torch.exp(x) * y

    compiled = torch.compile(f, backend="cuvil", options={"background": True})
    x, y = torch.randn(2, 3, 4), torch.randn(2, 1, 4)
    with torch.no_grad():
        first = compiled(x, y)
        assert cd.wait(timeout=60)
        second = compiled(x, y)
    for got in (first, second):
        torch.testing.assert_close(got, f(x, y), atol=0, rtol=0)
    (fallback,) = cd.explain().fallbacks
    assert "along a dim other than the last" in fallback.reason
    assert fallback.ops == ("exp.default", "mul.Tensor") and not cd.explain().fused


def test_background_off_fuses_before_the_first_result():
    compiled = torch.compile(scaled_log_softmax, backend="cuvil", options={"background": False})
    x, w = torch.randn(5, 12), torch.randn(12)
    with torch.no_grad():
        got = compiled(x, w)
    torch.testing.assert_close(got, scaled_log_softmax(x, w), atol=1e-5, rtol=1e-5)
    (fused,) = cd.explain().fused
    assert fused.mode == "rows"


def test_options_are_checked_with_the_known_ones_named():
    assert backend_options(None) == {"background": False}
    assert backend_options({"background": True}, "default") == {"background": True}
    with pytest.raises(ValueError, match=r"^backend='cuvil' has no option 'backgroud'; its options: background: "):
        backend_options({"backgroud": True})
    with pytest.raises(TypeError, match=r"^backend='cuvil': options\['background'\] must be True or False, not 1$"):
        backend_options({"background": 1})
    with pytest.raises(ValueError, match=r"^backend='cuvil' has no mode 'max-autotune' \(torch.compile's modes "):
        backend_options(None, "max-autotune")


def test_a_bad_option_fails_when_the_model_is_first_called():
    compiled = torch.compile(F.gelu, backend="cuvil", options={"threads": 2})
    with pytest.raises(Exception, match=r"backend='cuvil' has no option 'threads'") as caught:
        compiled(torch.ones(3))
    assert type(caught.value).__name__ == "BackendCompilerFailed"
