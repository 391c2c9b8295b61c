"""cuvil.diff, the sweep helper and `cuvil diff`: structural differences in words and as a plan diff."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from cuvil.cli import main
from cuvil.inspect.diff import describe, diff, sweep
from cuvil.inspect.variants import plans_for, plans_of, variant_for
from tests.helpers import define

ROWS = """
import numpy as np

def rows(x, w):
    return np.tanh(x * w + 1.0)
"""

LOOP = """
def scale(x, out):
    for i in range(x.shape[0]):
        out[i] = 2.0 * x[i]
    return out
"""


def _rows(batch, dtype=np.float32):
    return np.ones((batch, 8), dtype), np.ones(8, dtype)


def test_diff_names_a_dim_that_became_dynamic():
    fn = cuvil.jit(define(ROWS))
    found = diff(fn, _rows(4), _rows(16))
    assert (found.a, found.b) == (1, 2) and not found.same
    assert found.changes == ["dim x.shape[0] static 4 → dynamic", "code at L4 changed"]
    assert str(found).splitlines()[1:3] == ["  - dim x.shape[0] static 4 → dynamic", "  - code at L4 changed"]
    assert len(fn.compile_events) == 2  # compiled, and the calls ran nothing: no third compile on reuse
    assert diff(fn, 1, 2).changes == found.changes


def test_diff_names_a_dtype_and_shows_the_plan_diff():
    fn = cuvil.jit(define(ROWS), dynamic=True)
    found = diff(fn, _rows(4), _rows(4, np.float64))
    assert found.changes[:2] == ["x: float32[2d] → float64[2d]", "w: float32[1d] → float64[1d]"]
    assert "-  r1 Alloc _t0: float32(_d0, _d1)  # L4\n+  r1 Alloc _t0: float64(_d0, _d1)  # L4" in found.unified
    assert found.unified.startswith("--- variant #1\n+++ variant #2\n")


def test_diff_of_equal_structures_says_so():
    fn = cuvil.jit(define(ROWS), dynamic=True)
    found = diff(fn, _rows(4), _rows(4, np.float64))
    same = diff(fn, 1, 1)
    assert same.same and same.changes == [] and str(same).endswith(": the same structure")
    assert found.fingerprints[0] == same.fingerprints[0]


def test_diff_words_name_a_loop_that_became_parallel():
    x = np.ones(40)
    serial = cuvil.jit(define(LOOP), parallel=False)
    parallel = cuvil.jit(serial.py_func, parallel=True)
    for fn in (serial, parallel):
        variant_for(fn, (x, x))
    words = describe(plans_of(serial), plans_of(parallel))
    assert words[0] == "loop L2 became parallel"
    assert describe(plans_of(parallel), plans_of(serial))[0] == "loop L2 became serial"


def test_sweep_names_the_sizes_where_the_structure_changes():
    fn = cuvil.jit(define(ROWS))
    found = sweep(fn, _rows, range(1, 33))
    assert [size for size, _ in found.changes] == [2]  # 1 is static, then the batch dim becomes dynamic
    assert found.changes[0][1][0] == "dim x.shape[0] static 1 → dynamic"
    assert [number for _, number, _ in found.rows] == [1] + [2] * 31
    assert fn.compile_events == []  # the sweep compiles a fresh copy
    assert str(found).splitlines()[0] == "rows: 32 size(s), 2 variant(s), structure changed at 2"


def test_sweep_of_a_fully_dynamic_function_changes_nowhere():
    found = sweep(cuvil.jit(define(ROWS), dynamic=True), _rows, range(1, 9))
    assert found.changes == [] and {n for _, n, _ in found.rows} == {1}


def test_cli_diff_and_sweep(tmp_path, capsys):
    path = tmp_path / "kernels.py"
    path.write_text(ROWS)
    assert main(["diff", f"{path}:rows", "--shapes", "[4,8]:float32 [8]:float32", "[16,8]:float32 [8]:float32"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "  - dim x.shape[0] static 4 → dynamic"
    assert main(["diff", f"{path}:rows", "--shapes", "[B,8]:float32 [8]:float32", "--sweep", "1..5"]) == 0
    assert capsys.readouterr().out.startswith("rows: 5 size(s), 2 variant(s), structure changed at 2\n")


@pytest.mark.parametrize(("argv", "message"), [
    (["--shapes", "[B,8]"], "cuvil diff: --shapes takes two SPECs (or one with --sweep)"),
    (["--shapes", "[B,8]", "[4,8]"], "cuvil diff: '[B,8]': 'B' stands for the size of a sweep; give --sweep FROM..TO"),
    (["--shapes", "[4,8] x", "[4,8] 1"], "cuvil diff: 'x' is neither [d0,d1,...][:dtype], an int nor a float"),
])
def test_cli_diff_refuses_bad_specs(tmp_path, capsys, argv, message):
    path = tmp_path / "kernels.py"
    path.write_text(ROWS)
    assert main(["diff", f"{path}:rows", *argv]) == 2
    assert capsys.readouterr().err.strip() == message


def test_diff_words_name_a_temporary_that_was_fused():
    """`t` used only elementwise is fused into the loop that reads it; returned too, it must be stored."""
    fused = cuvil.jit(define("""
    import numpy as np

    def f(x):
        t = x * 2.0
        return t + 1.0
    """))
    kept = cuvil.jit(define("""
    import numpy as np

    def f(x):
        t = x * 2.0
        return t + 1.0, t
    """))
    args = (np.ones(8),)
    assert describe(plans_for(kept, args), plans_for(fused, args))[0] == "region at L4 fused: 1 → 0 allocation(s)"
