"""Every operation of the op table, fused into one nest, computes what eager torch computes (float32, float64,
bfloat16, float16); what the table refuses stays a torch call with its reason; the backend is found by name."""

import importlib.metadata
import re

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import cuvil.dynamo as cd  # noqa: E402

TOLERANCE = {torch.float32: dict(atol=1e-5, rtol=1e-5), torch.float64: dict(atol=1e-12, rtol=1e-12),
             torch.bfloat16: dict(atol=0.15, rtol=0.05), torch.float16: dict(atol=0.04, rtol=0.01)}


def every_op(x, y, b):
    a = torch.where(x > 0, torch.exp(-x.abs()) - y, torch.log(y.abs() + 1) * 2)
    a = torch.clamp(torch.tanh(a) + torch.sigmoid(b), -0.5, 0.75) ** 2
    a = F.relu(a - 0.1) + F.silu(x) + F.gelu(y, approximate="tanh") + F.gelu(x) / 3 - (-b)
    m = a.mean(-1, keepdim=True)
    v = a.var(-1, keepdim=True, unbiased=False)
    s = a.sum(-1) + a.amax(-1) - a.amin(-1)
    return (a - m) / torch.sqrt(v + 1e-5), F.log_softmax(a, -1), F.softmax(a * 3, -1), s


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16, torch.float16],
                         ids=["float32", "float64", "bfloat16", "float16"])
def test_every_op_in_one_nest_matches_eager(dtype):
    torch.manual_seed(1)
    compiled = torch.compile(every_op, backend="cuvil", dynamic=True)
    for rows in (3, 6):  # a second size: the same graph and kernel
        x, y = torch.randn(rows, 33, dtype=dtype), torch.randn(rows, 33, dtype=dtype)
        b = torch.randn(33, dtype=dtype)
        with torch.no_grad():
            got, want = compiled(x, y, b), every_op(x, y, b)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            torch.testing.assert_close(g, w, **TOLERANCE[dtype])
    (graph,) = cd.explain().graphs
    (fused,) = graph.fused
    assert fused.mode == "rows" and not graph.fallbacks and not graph.left
    assert {"gelu.default", "where.self", "var.correction", "amin.default", "pow.Tensor_Scalar"} <= set(fused.ops)


def test_reduction_over_a_leading_dim_stays_a_torch_call():
    def f(x):
        return torch.softmax(x, 0) + 1

    compiled = torch.compile(f, backend="cuvil")
    x = torch.randn(4, 5)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), f(x))
    left = cd.explain().left
    assert left["amax.default"].startswith("a reduction over dims [0] of a 2-d tensor (fused: the last dim only)")
    assert "add.Tensor" not in left  # the elementwise tail is fused on its own


def test_a_middle_dim_broadcast_is_not_fused_and_says_why():
    def f(x, y):
        return torch.exp(x) * y

    compiled = torch.compile(f, backend="cuvil")
    x, y = torch.randn(2, 3, 4), torch.randn(2, 1, 4)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x, y), f(x, y))
    (fallback,) = cd.explain().fallbacks
    assert "along a dim other than the last" in fallback.reason
    assert fallback.ops == ("exp.default", "mul.Tensor")


def test_backend_is_registered_by_entry_point():
    compiled = torch.compile(torch.nn.functional.gelu, backend="cuvil")
    compiled(torch.ones(3))  # imports the backend's modules: none may shadow the function the entry point names
    (entry,) = [e for e in importlib.metadata.entry_points(group="torch_dynamo_backends") if e.name == "cuvil"]
    assert entry.load() is cd.backend and callable(cd.backend) and cd.backend.__module__ == "cuvil.dynamo"
    assert "cuvil" in torch._dynamo.list_backends(exclude_tags=())


_compiled_bias_gelu = None


def bias_gelu_residual(x, b, r):
    return F.gelu(x + b) + r


@given(rows=st.integers(2, 40), cols=st.integers(2, 70), seed=st.integers(0, 2**16))
def test_bias_gelu_residual_any_shape(rows, cols, seed):
    """Flat or per-column broadcast, any extent: one symbolic graph, the extents passed to the kernel."""
    global _compiled_bias_gelu
    if _compiled_bias_gelu is None:
        torch._dynamo.reset()
        _compiled_bias_gelu = torch.compile(bias_gelu_residual, backend="cuvil", dynamic=True)
    g = torch.Generator().manual_seed(seed)
    x, r = torch.randn(rows, cols, generator=g), torch.randn(rows, cols, generator=g)
    b = torch.randn(cols, generator=g)
    with torch.no_grad():
        torch.testing.assert_close(_compiled_bias_gelu(x, b, r), bias_gelu_residual(x, b, r), atol=1e-6, rtol=1e-5)


def test_gelu_through_every_branch_of_erf_matches_eager():
    """float32 GELU over [-8, 8] densely, so x / sqrt(2) crosses erf's branch at 1 and its clamp at 3.95 (where
    float32's erf is 1), with -inf, NaN and both zeros: eager's values and dtype, NaN where eager's is NaN."""
    x = torch.cat([torch.linspace(-8, 8, 8193), torch.tensor([-float("inf"), float("nan"), -0.0, 0.0])])
    x = x.reshape(1, -1)
    compiled = torch.compile(F.gelu, backend="cuvil", dynamic=False)
    with torch.no_grad():
        got, want = compiled(x), F.gelu(x)
    assert got.dtype == want.dtype == torch.float32 and got.shape == want.shape
    assert [f.ops for f in cd.explain().graphs[-1].fused] == [("gelu.default",)]
    torch.testing.assert_close(got, want, atol=1e-6, rtol=2e-7, equal_nan=True)
    assert torch.equal(torch.signbit(got[0, -2:]), torch.tensor([True, False]))  # gelu(-0) is -0


def test_softmax_computes_exp_once_per_element():
    """The sum's loop keeps exp(x - max) in the output and the last loop divides it there (as torch does)."""
    compiled = torch.compile(lambda x: torch.softmax(x, -1), backend="cuvil")
    x = torch.randn(3, 10)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), torch.softmax(x, -1))
    (fused,) = cd.explain().fused
    assert fused.source.count("exp_f32(") == 1
    assert re.search(r"\n {12}t\d+_exp = out0\[r, c\]\n", fused.source)


@pytest.mark.parametrize("threads", [1, 3])
def test_large_tensors_split_over_threads_match_eager(threads):
    """Over 32K elements the nest's rows (a flat loop's elements) are split into one chunk per torch thread."""
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        compiled = torch.compile(every_op, backend="cuvil", dynamic=True)
        flat = torch.compile(lambda x, r: torch.tanh(x) * r + 1, backend="cuvil", dynamic=True)
        x, y, b = torch.randn(301, 129), torch.randn(301, 129), torch.randn(129)
        with torch.no_grad():
            for g, w in zip(compiled(x, y, b), every_op(x, y, b)):
                torch.testing.assert_close(g, w, **TOLERANCE[torch.float32])
            torch.testing.assert_close(flat(x, y), torch.tanh(x) * y + 1)
    finally:
        torch.set_num_threads(before)
    assert sorted(f.mode for f in cd.explain().fused) == ["flat", "rows"]


def test_type_promotion_is_torchs():
    """bfloat16 * float32 is float32, a 0-d float64 tensor does not widen a float32 one, a comparison of mixed
    dtypes compares in the promoted type, a bfloat16 result narrows once at its store."""

    def f(a, b, s):
        return a * b + 1, (b + s) * 2, a > b, torch.exp(a.float()) + 0.5, a / 3

    a, b, s = torch.randn(4, 6, dtype=torch.bfloat16), torch.randn(4, 6), torch.tensor(2.5, dtype=torch.float64)
    compiled = torch.compile(f, backend="cuvil")
    with torch.no_grad():
        got, want = compiled(a, b, s), f(a, b, s)
    assert [g.dtype for g in got] == [w.dtype for w in want] == [
        torch.float32, torch.float32, torch.bool, torch.float32, torch.bfloat16]
    for g, w in zip(got, want):
        torch.testing.assert_close(g, w, atol=3e-7, rtol=3e-7)
    (fused,) = cd.explain().fused
    assert fused.mode == "flat" and re.search(r"= bf16\(t\d+_div\)\n", fused.source)


def test_gelu_feeding_layernorm_and_softmax_is_computed_once():
    """Five column loops need the GELU: the first keeps it in the output, the next ones read it back (and the
    LayerNorm's and exp's values replace it in turn), so erf and exp each run once per element."""

    def f(x, w, b):
        return torch.softmax(F.layer_norm(F.gelu(x), (x.shape[-1],), w, b), -1)

    compiled = torch.compile(f, backend="cuvil")
    x, w, b = torch.randn(5, 40), torch.randn(40), torch.randn(40)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x, w, b), f(x, w, b), atol=1e-6, rtol=1e-5)
    (fused,) = cd.explain().fused
    assert fused.source.count("erf_f32(") == 1 and fused.source.count("exp_f32(") == 1
    assert fused.source.count("for c in range(C):") == 5


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bfloat16", "float16"])
def test_half_softmax_keeps_exp_in_a_float32_row(dtype, threads):
    """A half output cannot hold exp(x - max) between the sum's loop and the last one: a float32 row of the
    kernel's own does (one per call, so one per thread's chunk of rows), and exp runs once per element."""
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        compiled = torch.compile(lambda x: torch.softmax(x * 2, -1), backend="cuvil")
        x = torch.randn(301, 129, dtype=dtype)
        with torch.no_grad():
            got, want = compiled(x), torch.softmax(x * 2, -1)
    finally:
        torch.set_num_threads(before)
    assert got.dtype == want.dtype == dtype and got.shape == want.shape
    torch.testing.assert_close(got, want, **TOLERANCE[dtype])
    (fused,) = cd.explain().fused
    assert fused.source.count("exp_f32(") == 1
    assert "\n    row = np.empty(C, np.float32)\n" in fused.source and re.search(r"t\d+_exp = row\[c\]\n", fused.source)
