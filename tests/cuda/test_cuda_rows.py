"""codegen/cuda_rows.py: a parallel loop over rows with loops along each row becomes a kernel with a block per
row, its threads strided along the row and its inner reductions reduced across the block. On the simulator
(the block reductions' shared-memory tree; the warp shuffles are compiled to PTX in test_ptx_of_fast_kernels),
against plain Python: NaN and inf, rows shorter than a warp, one row, no rows, the same array in and out (the
serial twin), and the shapes that must keep a thread per row."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.runtime import cuda_runtime
from tests.programs.test_programs import assert_same


def softmax(x, out):
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(1, x.shape[1]):
            m = max(m, x[i, j])
        s = 0.0
        for j in range(x.shape[1]):
            e = np.exp(x[i, j] - m)
            out[i, j] = e
            s += e
        for j in range(x.shape[1]):
            out[i, j] = out[i, j] / s
    return out


def softmax_arrays(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def row_sums(x, out):
    for i in range(x.shape[0]):
        s = 0
        for j in range(x.shape[1]):
            s += x[i, j]
        out[i] = s
    return out


def prefix_sums(x, out):  # iteration j reads what j - 1 wrote: a thread per row
    for i in range(x.shape[0]):
        out[i, 0] = x[i, 0]
        for j in range(1, x.shape[1]):
            out[i, j] = out[i, j - 1] + x[i, j]
    return out


def first_argument_max(x, out):  # max(v, m): NaN handling is the argument order's; a thread per row
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(x.shape[1]):
            m = max(x[i, j], m)
        out[i] = m
    return out


def layernorm(x, out):  # row temporaries (d), row scalars between the loops (mean, inv)
    for i in range(x.shape[0]):
        s = 0.0
        for j in range(x.shape[1]):
            s += x[i, j]
        mean = s / x.shape[1]
        v = 0.0
        for j in range(x.shape[1]):
            d = x[i, j] - mean
            v += d * d
        inv = 1.0 / math.sqrt(v / x.shape[1] + 1e-5)
        for j in range(x.shape[1]):
            out[i, j] = (x[i, j] - mean) * inv
    return out


def layernorm_arrays(x):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5)


def row_min(x, out):
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(x.shape[1]):
            m = min(m, x[i, j])
        out[i] = m
    return out


def shift_by_first(x, out):  # the row reads out[i, 0] before the loop that overwrites it
    for i in range(x.shape[0]):
        first = out[i, 0]
        for j in range(x.shape[1]):
            out[i, j] = x[i, j] + first
    return out


def mapping(fn):
    return [line.split(": ", 1)[1] for line in str(cuvil.explain(fn)).splitlines() if "grid kernel" in line]


_DYNAMIC = {}


def run(fn, *args, dynamic=None):
    """Cuvil's result and Python's, each on its own copies of the arguments; `dynamic=True`: one variant for
    every shape (compiled once per test session: hypothesis's examples only run)."""
    import copy

    compiled = cuvil.jit(fn, target="cuda") if not dynamic else _DYNAMIC.setdefault(
        fn, cuvil.jit(fn, target="cuda", dynamic=True))
    with np.errstate(all="ignore"):
        return compiled, compiled(*copy.deepcopy(args)), fn(*copy.deepcopy(args))


values = st.one_of(st.floats(-30, 30, width=32), st.sampled_from([np.nan, np.inf, -np.inf]))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 3), st.integers(1, 40), st.data())
def test_softmax_loops_equal_python(rows, cols, data):
    x = np.array(data.draw(st.lists(values, min_size=rows * cols, max_size=rows * cols)),
                 np.float32).reshape(rows, cols)
    fn, got, want = run(softmax, x, np.zeros_like(x), dynamic=True)
    assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7, equal_nan=True)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 3), st.integers(1, 40), st.data())
def test_softmax_of_arrays_equals_python(rows, cols, data):
    x = np.array(data.draw(st.lists(values, min_size=rows * cols, max_size=rows * cols)),
                 np.float32).reshape(rows, cols)
    fn, got, want = run(softmax_arrays, x, dynamic=True)
    assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7, equal_nan=True)


def test_explain_names_a_block_per_row():
    x = np.linspace(-2, 2, 2 * 40, dtype=np.float32).reshape(2, 40)
    fn, got, want = run(softmax, x, np.empty_like(x))
    np.testing.assert_allclose(got, want, rtol=2e-6)
    assert mapping(fn) == ["grid kernel softmax_k0: block per row, up to 256 threads along the row, reduces m max, "
                           "s + across the block, rows(2, x.shape[1] - 1, _serial0)"]
    fn, got, want = run(softmax_arrays, x)
    found, = mapping(fn)  # the launcher's names for the lowered shapes are the lowering's
    assert found.startswith("grid kernel softmax_arrays_k0: block per row, up to 256 threads along the row, reduces "
                            "_acc0 maximum_nonan, _nan0 +, _acc1 + across the block, rows(")


def test_integer_row_sums_are_exact_first_call_hit_and_miss():
    fn = cuvil.jit(row_sums, target="cuda")
    big = np.iinfo(np.int64).max // 64
    for x in (np.full((3, 70), big, np.int64), np.arange(3 * 70, dtype=np.int64).reshape(3, 70) - 100,
              np.arange(2 * 5, dtype=np.int64).reshape(2, 5)):  # first call, hit, miss (another row count)
        got = fn(x, np.zeros(x.shape[0], np.int64))
        assert_same(got, row_sums(x, np.zeros(x.shape[0], np.int64)))
    assert mapping(fn)[0].startswith("grid kernel row_sums_k0: block per row")


def test_same_array_in_and_out_runs_the_serial_twin_in_pythons_order():
    x = np.random.default_rng(3).standard_normal((3, 50)).astype(np.float32)
    fn, got, want = run(softmax, x, x)  # out is x: each copy is its own array, passed twice
    assert_same(got, want)  # one thread: the serial order exactly


@pytest.mark.parametrize("fn", [prefix_sums, first_argument_max])
def test_rows_that_cannot_split_keep_a_thread_per_row(fn):
    x = np.random.default_rng(4).standard_normal((3, 40)).astype(np.float32)
    x[1, 3] = np.nan
    out = np.zeros_like(x) if fn is prefix_sums else np.zeros(3, np.float32)
    compiled, got, want = run(fn, x, out)
    assert_same(got, want)
    assert mapping(compiled) and not any("block per row" in m for m in mapping(compiled))


def test_threads_per_row_cover_a_row_in_whole_warps():
    assert cuda_runtime.rows(8, 5) == (8, 32)
    assert cuda_runtime.rows(8, 33) == (8, 64)
    assert cuda_runtime.rows(3, 10_000) == (3, 256)
    assert cuda_runtime.rows(0, None) == (1, 256)
    assert cuda_runtime.rows(5, 40, True) == (1, 1)
    assert cuda_runtime.rows(10**9, 8)[0] == cuda_runtime.max_blocks()


@pytest.mark.parametrize("fn", [softmax, softmax_arrays, row_sums])
def test_rows_longer_than_four_times_the_block_run_jammed_trips(fn):
    """One block of 32 threads over 150-element rows: each split loop runs four elements a trip, then the rest
    (codegen/cuda_jam.py), the reductions across the block after."""
    from tests.cuda.test_cuda_jam import small_grid

    x = np.random.default_rng(5).standard_normal((3, 150)).astype(np.float32)
    x[1, 77], x[2, 3] = np.nan, np.inf
    args = {softmax: (x, np.zeros_like(x)), softmax_arrays: (x,), row_sums: (x, np.zeros(3, np.float32))}[fn]
    with small_grid(32):
        compiled, got, want = run(fn, *args)
    assert "while _k0 + 3 * _s0 < _n0:" in compiled.source(stage="kernel")
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("fn", [layernorm, layernorm_arrays, row_min])
def test_layernorm_and_row_min_split_along_rows(fn):
    """Reductions between row statements, a temporary per element, `min`; one block of 32 threads (jammed
    trips; the launcher's own grid is the other tests')."""
    from tests.cuda.test_cuda_jam import small_grid

    x = np.random.default_rng(6).standard_normal((2, 150))
    x[1, 140] = -np.inf if fn is row_min else x[1, 140]
    args = {layernorm: (x, np.zeros_like(x)), layernorm_arrays: (x,), row_min: (x, np.zeros(2))}[fn]
    with small_grid(32):
        compiled, got, want = run(fn, *args)
    assert mapping(compiled)[0].startswith(f"grid kernel {fn.__name__}_k0: block per row")
    assert got.dtype == want.dtype == np.float64 and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_a_row_read_before_a_loop_that_overwrites_it_sees_the_old_value():
    """Every thread reads out[i, 0] before any thread of the block writes it (a barrier before the loop)."""
    x = np.ones((2, 300))
    out = np.arange(2 * 300, dtype=np.float64).reshape(2, 300) + 5.0
    for _ in range(2):
        compiled, got, want = run(shift_by_first, x, out)
        assert_same(got, want)
    assert mapping(compiled)[0].startswith("grid kernel shift_by_first_k0: block per row")
