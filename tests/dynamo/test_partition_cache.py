"""A partition met again (a recompiled graph, a later process) is found by its key: no Plan is built again, and
a refused partition is refused again with the same reason; the key tells apart what changes the kernel."""

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

import cuvil.dynamo as cd  # noqa: E402
from cuvil.dynamo import compiled as C  # noqa: E402
from cuvil.dynamo import modules, partition_key  # noqa: E402

from .conftest import forget_compiled_kernels  # noqa: E402


@pytest.fixture(autouse=True)
def fresh(new_process):
    torch._dynamo.reset()
    cd.reset()
    yield
    torch._dynamo.reset()


def bias_gelu(x, b):
    return F.gelu(x + b) * 2


def _compile_and_check(fn, *args):
    torch._dynamo.reset()
    compiled = torch.compile(fn, backend="cuvil", dynamic=False)
    with torch.no_grad():
        got, want = compiled(*args), fn(*args)
    assert got.dtype == want.dtype and got.shape == want.shape
    torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-5)


def test_a_partition_found_on_disk_is_not_built_again():
    x, b = torch.randn(6, 40), torch.randn(40)
    before = dict(C.COUNTS)
    _compile_and_check(bias_gelu, x, b)
    assert C.COUNTS["plans_built"] - before["plans_built"] == 1
    forget_compiled_kernels()
    _compile_and_check(bias_gelu, x, b)  # the entry names the module; Numba's cache=True has its machine code
    assert C.COUNTS["plans_built"] - before["plans_built"] == 1
    _compile_and_check(bias_gelu, x, b)  # the same process: the kernel itself, compiled nothing
    assert C.COUNTS["plans_built"] - before["plans_built"] == 1
    assert C.COUNTS["kernels"] - before["kernels"] == 2
    graphs = cd.explain().graphs
    assert [g.fused[0].found for g in graphs] == ["built", "disk", "process"]
    assert graphs[0].fused[0].plan_seconds > 0 and graphs[1].fused[0].plan_seconds == 0
    assert graphs[2].fused[0].seconds == 0 and graphs[2].stages["numba"] == 0
    assert all(g.fused[0].source == graphs[0].fused[0].source for g in graphs)
    assert "erf_f32(" in graphs[0].fused[0].source and graphs[0].fused[0].mode == "rows"
    assert set(graphs[0].stages) == {"aot", "partition", "plans", "numba"}
    assert ", from the disk cache, Numba " in str(graphs[1])
    assert str(graphs[2]).splitlines()[0].endswith(")") and "(AOTAutograd " in str(graphs[2])


def test_an_entry_whose_module_is_gone_is_built_again(tmp_path):
    x, b = torch.randn(6, 40), torch.randn(40)
    _compile_and_check(bias_gelu, x, b)
    forget_compiled_kernels()
    for module in (tmp_path / "dynamo").glob("cuvil_dynamo_*.py"):
        module.unlink()
    before = C.COUNTS["plans_built"]
    _compile_and_check(bias_gelu, x, b)
    assert C.COUNTS["plans_built"] == before + 1


def test_a_refused_partition_is_refused_again_with_its_reason():
    def f(x, y):
        return torch.exp(x) * y

    x, y = torch.randn(2, 3, 4), torch.randn(2, 1, 4)
    reasons = []
    before = C.COUNTS["plans_built"]
    for forget in (False, True, False):
        if forget:
            forget_compiled_kernels()
        _compile_and_check(f, x, y)
        reasons.append(cd.explain().graphs[-1].fallbacks[0].reason)
    assert C.COUNTS["plans_built"] == before + 1
    assert len(set(reasons)) == 1 and "along a dim other than the last" in reasons[0]


def _partition_keys(fn, *args):
    """The keys of the partitions the backend met compiling `fn` for `args`."""
    seen = []
    original = partition_key.key

    def spy(gm):
        seen.append(original(gm))
        return seen[-1]

    C.partition_key.key = spy
    try:
        _compile_and_check(fn, *args)
    finally:
        C.partition_key.key = original
    return seen


def test_the_key_tells_apart_dtype_layout_and_operation_not_names():
    def renamed(y, c):  # the same computation under other names
        return F.gelu(y + c) * 2

    x, b = torch.randn(6, 40), torch.randn(40)
    (same,) = _partition_keys(bias_gelu, x, b)
    assert _partition_keys(renamed, x, b) == [same]
    assert _partition_keys(bias_gelu, x.double(), b.double()) != [same]
    assert _partition_keys(bias_gelu, x, torch.randn(6, 1)) != [same]  # per row, not per column
    assert _partition_keys(lambda x, b: F.gelu(x + b) * 3, x, b) != [same]


def test_the_key_follows_the_shared_environment(monkeypatch):
    """A change in anything cache_key.environment() names (a new numba, a changed code generator) is a new key,
    so an old process's module is never reused; the key reads the shared function, not a copy of its own."""
    from cuvil.runtime import cache_key

    x, b = torch.randn(6, 40), torch.randn(40)
    (before,) = _partition_keys(bias_gelu, x, b)
    changed = {**cache_key.environment(), "numba": "0.0.1"}
    monkeypatch.setattr(cache_key, "environment", lambda: changed)
    partition_key._environment.cache_clear()
    try:
        (after,) = _partition_keys(bias_gelu, x, b)
    finally:
        partition_key._environment.cache_clear()
    assert after != before


def test_an_unreadable_entry_is_no_entry(tmp_path):
    x, b = torch.randn(6, 40), torch.randn(40)
    _compile_and_check(bias_gelu, x, b)
    for entry in (tmp_path / "dynamo").glob("*.json"):
        assert modules.read_entry(entry.stem) is not None
        entry.write_text("{not json")
        assert modules.read_entry(entry.stem) is None
    forget_compiled_kernels()
    _compile_and_check(bias_gelu, x, b)


def test_static_batch_sizes_share_one_module_and_its_machine_code():
    """dynamic=False: Dynamo compiles a graph per batch size; their partitions differ only in static sizes,
    print the same text, and the kernel compiled for the first runs them all (extents are arguments)."""
    compiled = torch.compile(bias_gelu, backend="cuvil", dynamic=False)
    before = dict(C.COUNTS)
    b = torch.randn(40)
    with torch.no_grad():
        for rows in (3, 5, 9, 5):
            x = torch.randn(rows, 40)
            got, want = compiled(x, b), bias_gelu(x, b)
            assert got.dtype == want.dtype and got.shape == want.shape == (rows, 40)
            torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-5)
    assert len(cd.explain().graphs) == 3
    assert C.COUNTS["plans_built"] - before["plans_built"] == 3
    assert C.COUNTS["numba_compiles"] - before["numba_compiles"] == 1
    assert len({f.source for g in cd.explain().graphs for f in g.fused}) == 1
