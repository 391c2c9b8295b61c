"""torch.compile(model, backend="cuvil") on the models issue 14 names: the same outputs as eager within dtype
tolerance for batch sizes 1, 7, 32, 33, with an exact number of graphs compiled (Dynamo's guards, not Cuvil's:
batch 1 is its own graph, since Dynamo specializes sizes 0 and 1; every other size shares one symbolic graph)."""

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

import cuvil  # noqa: E402
import cuvil.dynamo as cd  # noqa: E402
from cuvil.dynamo.compiled import COUNTS  # noqa: E402

BATCHES = (1, 7, 32, 33)
TOLERANCE = {torch.float32: dict(atol=2e-6, rtol=1e-5), torch.bfloat16: dict(atol=3e-2, rtol=3e-2)}


class MLPBlock(nn.Module):
    """A transformer MLP block: Linear, GELU, Linear, residual add, LayerNorm."""

    def __init__(self, width: int = 16, hidden: int = 64):
        super().__init__()
        self.up, self.act, self.down = nn.Linear(width, hidden), nn.GELU(), nn.Linear(hidden, width)
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        return self.norm(x + self.down(self.act(self.up(x))))


def _run(model, make_input, dtype, dynamic):
    torch.manual_seed(0)
    model = model.to(dtype).eval()
    compiled = torch.compile(model, backend="cuvil", dynamic=dynamic)
    graphs = []
    with torch.no_grad():
        for batch in BATCHES:
            x = make_input(batch).to(dtype)
            got, want = compiled(x), model(x)
            assert got.dtype == want.dtype and got.shape == want.shape
            torch.testing.assert_close(got, want, **TOLERANCE[dtype])
            graphs.append(len(cd.explain(compiled).graphs))
    return compiled, graphs


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["float32", "bfloat16"])
def test_sequential_gelu_layernorm_softmax_matches_eager(dtype):
    model = nn.Sequential(nn.Linear(12, 32), nn.GELU(), nn.Linear(32, 24), nn.LayerNorm(24), nn.Softmax(-1))
    compiled, graphs = _run(model, lambda b: torch.randn(b, 12), dtype, dynamic=None)
    assert graphs == [1, 2, 2, 2]  # batch 1 static, then one graph for 7, 32 and 33
    report = cd.explain(compiled)
    assert cuvil.explain(compiled).graphs == report.graphs == cuvil.explain(model).graphs
    text = str(report)
    assert "fused fused_" in text and "torch call addmm.default: not an elementwise operation" in text
    for graph in report.graphs:
        fused = sorted(f.ops for f in graph.fused)
        assert len(fused) == 2  # the GELU; LayerNorm and Softmax together in one nest
        assert ("gelu.default",) in fused
        assert "addmm.default" in graph.left and not graph.fallbacks


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["float32", "bfloat16"])
def test_transformer_mlp_block_matches_eager(dtype, new_process):
    before = COUNTS["numba_compiles"]
    compiled, graphs = _run(MLPBlock(), lambda b: torch.randn(b, 5, 16), dtype, dynamic=True)
    assert graphs == [1, 2, 2, 2]
    assert COUNTS["numba_compiles"] - before == 2  # two kernels, each shared by the static and symbolic graph
    modes = sorted(f.mode for f in cd.explain(compiled).graphs[-1].fused)
    assert modes == ["flat", "rows"]  # GELU alone; residual add + LayerNorm as one nest over rows


def test_grad_graph_runs_eager_with_one_warning():
    model = nn.Sequential(nn.Linear(8, 8), nn.GELU())
    compiled = torch.compile(model, backend="cuvil")
    x = torch.randn(4, 8)
    with pytest.warns(cuvil.PerformanceWarning, match="requires grad") as caught:
        y = compiled(x)
        compiled(x)
    assert len([w for w in caught if "requires grad" in str(w.message)]) == 1
    assert torch.equal(y, model(x)) and y.requires_grad
    (report,) = cd.explain(compiled).graphs
    assert report.eager.startswith("the graph requires grad") and not report.fused

