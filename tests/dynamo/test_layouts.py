"""Inputs that are not C-contiguous (transposed, sliced with an offset, broadcast by expand with stride 0) are
read as torch reads them: the kernel sees their values in logical order, and nothing they share is written."""

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

import cuvil.dynamo as cd  # noqa: E402


def layer_norm_gelu(x, w, b, r):
    return F.gelu(F.layer_norm(x, (x.shape[-1],), w, b)) + r


@pytest.mark.parametrize("form", ["transposed", "offset slice", "expanded", "contiguous"])
def test_strided_inputs_match_eager(form):
    base = torch.randn(24, 40)
    w, b = torch.randn(24), torch.randn(24)
    x = {"transposed": base.t(), "offset slice": torch.randn(40, 30)[:, 3:27],
         "expanded": torch.randn(1, 24).expand(40, 24), "contiguous": base.t().contiguous()}[form]
    r = torch.randn(24).expand(x.shape[0], 24)  # a residual broadcast with stride 0
    before = (x.clone(), r.clone())
    compiled = torch.compile(layer_norm_gelu, backend="cuvil", dynamic=False)
    with torch.no_grad():
        got, want = compiled(x, w, b, r), layer_norm_gelu(x, w, b, r)
    assert got.dtype == want.dtype and got.shape == want.shape
    torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-5)
    assert torch.equal(x, before[0]) and torch.equal(r, before[1])
    (graph,) = cd.explain().graphs
    assert len(graph.fused) == 1 and not graph.fallbacks
