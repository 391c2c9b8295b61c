"""Declared dims (issue 17 §4, cuvil/dims.py): a range compiles one variant for every size in it, guarded by
the range; a size outside compiles another, with the reason; sizes in an annotation stay static."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from tests.helpers import define

NORMS = """
    import cuvil
    import numpy as np

    def norms(x{annotation}):
        out = np.empty(x.shape[0])
        for b in range(x.shape[0]):
            s = 0.0
            for i in range(x.shape[1]):
                for j in range(x.shape[2]):
                    s += x[b, i, j] * x[b, i, j]
            out[b] = s
        return out
    """
ANNOTATED = define(NORMS.format(annotation=': cuvil.Array["B", 3, 64]'), "norms")
PLAIN = define(NORMS.format(annotation=""), "norms")


def _reasons(fn):
    return [e.reason for e in cuvil.explain(fn).compiles]


def _sweep(fn, sizes):
    for b in sizes:
        x = np.arange(b * 3 * 64, dtype=np.float64).reshape(b, 3, 64) / 1000
        got, want = fn(x), fn.py_func(x)
        assert got.dtype == want.dtype == np.float64 and got.shape == want.shape == (b,)
        np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize(("fn", "dims"), [(ANNOTATED, {"B": (1, 32)}), (PLAIN, {"x.shape[0]": (1, 32)})],
                         ids=["annotation", "shape-key"])
def test_a_batch_sweep_under_a_declared_range_compiles_once(fn, dims):
    jitted = cuvil.jit(fn, dims=dims)
    _sweep(jitted, range(1, 33))
    assert _reasons(jitted) == ["first call"]
    assert "1 <= x.shape[0] <= 32 (declared)" in cuvil.explain(jitted).guards[0]


def test_without_a_range_the_same_sweep_compiles_twice():
    jitted = cuvil.jit(PLAIN)  # the policy: 1 is static, then the dim turns dynamic
    _sweep(jitted, range(1, 33))
    assert _reasons(jitted) == ["first call", "x.shape[0]: 2 != 1 (guard of variant #1)"]


def test_a_size_outside_the_range_compiles_a_variant_and_says_why():
    jitted = cuvil.jit(ANNOTATED, dims={"B": (2, 8)})
    _sweep(jitted, [4, 8, 40, 2, 5])  # 40: its variant is dynamic (past the policy's small dims): 2, 5 hit it
    assert _reasons(jitted) == ["first call", "x.shape[0]: 40 outside the declared range 2..8 (guard of variant #1)"]
    below = cuvil.jit(ANNOTATED, dims={"B": (2, 8)})
    _sweep(below, [4, 1, 5, 1])  # 1: a small dim, static in its variant; 5 goes back to the range's
    assert _reasons(below) == ["first call", "x.shape[0]: 1 outside the declared range 2..8 (guard of variant #1)"]


def test_sizes_in_the_annotation_are_static_whatever_their_size():
    jitted = cuvil.jit(ANNOTATED, dims={"B": (1, 32)})
    _sweep(jitted, [3])
    guard = cuvil.explain(jitted).guards[0]
    assert "x.shape[1] == 3" in guard and "x.shape[2] == 64" in guard  # 64: above the policy's 16
    plain = cuvil.jit(PLAIN, dims={"x.shape[0]": (1, 32)})
    _sweep(plain, [3])
    assert "x.shape[2] == 64" not in cuvil.explain(plain).guards[0]
    _sweep(jitted, [2])
    x = np.ones((2, 3, 65))  # not the annotated size: Python runs it, so does a new variant
    np.testing.assert_allclose(jitted(x), jitted.py_func(x))
    assert _reasons(jitted)[1] == "x.shape[2]: 65 != 64 (guard of variant #1)"


def test_a_name_without_a_range_is_dynamic():
    jitted = cuvil.jit(ANNOTATED)
    _sweep(jitted, [1, 2, 5])
    assert _reasons(jitted) == ["first call"] and "x.shape[0]" not in " ".join(cuvil.explain(jitted).guards[0])


def test_the_annotation_runs_as_plain_python(monkeypatch):
    x = np.ones((2, 3, 64))
    assert cuvil.jit(ANNOTATED).py_func(x).tolist() == [192.0, 192.0]
    monkeypatch.setenv("CUVIL_DISABLE_JIT", "1")
    disabled = cuvil.jit(ANNOTATED, dims={"B": (1, 32)})
    assert disabled(x).tolist() == [192.0, 192.0] and cuvil.explain(disabled).compiles == []
    assert repr(cuvil.Array["B", 3, 64]) == "cuvil.Array['B', 3, 64]" and cuvil.Array[3] == cuvil.Array[(3,)]


def test_a_string_annotation_is_read_too():
    fn = define("""
        from __future__ import annotations
        import cuvil

        def first(x: cuvil.Array["N"]):
            return x[0]
        """, "first")
    jitted = cuvil.jit(fn, dims={"N": (1, 4)})
    assert jitted(np.ones(2)) == 1.0 and jitted(np.ones(4)) == 1.0 and len(_reasons(jitted)) == 1


@pytest.mark.parametrize(("dims", "words"), [
    ({"y.shape[0]": (1, 32)}, "dims['y.shape[0]']: norms has no parameter 'y' (its parameters: x)"),
    ({"C": (1, 32)}, "dims['C']: no cuvil.Array annotation of norms names 'C'"),
    ({"x.shape(0)": (1, 32)}, "dims['x.shape(0)']: a key is '<parameter>.shape[<axis>]' or a name"),
    ({"B": (32, 1)}, "dims['B'] is (32, 1): a range is (low, high), integers with 0 <= low <= high"),
    ({"B": (1.0, 32)}, "dims['B'] is (1.0, 32): a range is (low, high)"),
    ({"B": (1, 2, 3)}, "dims['B'] is (1, 2, 3): a range is (low, high)"),
    ({"B": -1}, "dims['B'] is -1: a range is (low, high)"),
    ({"x.shape[1]": (1, 4)}, "dims['x.shape[1]']: x.shape[1] is annotated as the static size 3"),
    ({0: (1, 4)}, "dims keys are strings"),
    ([("B", 1)], "dims must be a dict"),
])
def test_a_misspelt_declaration_is_a_cuvil_error_naming_it(dims, words):
    with pytest.raises(cuvil.CuvilError) as info:
        cuvil.jit(ANNOTATED, dims=dims)
    assert words in str(info.value)


@pytest.mark.parametrize("item", [-1, 2.5, "not a name", True, None])
def test_a_bad_annotation_item_is_a_cuvil_error(item):
    with pytest.raises(cuvil.CuvilError, match="cuvil.Array"):
        cuvil.Array["B", item]


@settings(max_examples=20, deadline=None)
@given(low=st.integers(0, 6), width=st.integers(0, 6), sizes=st.lists(st.integers(0, 14), min_size=1, max_size=6))
def test_every_size_in_a_range_shares_one_variant(low, width, sizes):
    """Whatever the range and the order of sizes: results are Python's, and sizes inside the range never
    compile more than the first of them did."""
    high = low + width
    jitted = cuvil.jit(SUM, dims={"x.shape[0]": (low, high)})
    compiled_inside = 0
    for n in sizes:
        before = len(_reasons(jitted))
        x = np.arange(n, dtype=np.int64)
        assert jitted(x) == jitted.py_func(x)
        compiled_inside += low <= n <= high and len(_reasons(jitted)) > before
    assert compiled_inside <= 1


SUM = define("""
    def total(x):
        s = 0
        for v in x:
            s += v
        return s
    """)
