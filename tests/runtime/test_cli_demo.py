"""`cuvil demo`: rows name the sizes actually run, and no compile is ever in a timed call."""

import numpy as np
import pytest

from cuvil import demo
from cuvil.cli import main


def test_demo_labels_the_sizes_it_runs():
    cases = demo._cases(0.1)
    assert [f"{c.name} {c.label(c.n)}" for c in cases] == [
        "saxpy 200k f64", "pairwise 60x3", "escape time 40x30", "stencil 20k x20"]
    shapes = {c.name: [np.shape(a) for a in c.make(c.n)] for c in cases}
    assert shapes["saxpy"] == [(), (200_000,), (200_000,), (200_000,)]
    assert shapes["pairwise"] == [(60, 3), (60, 60)]
    assert shapes["escape time"][3] == (30, 40)
    assert shapes["stencil"][0] == (20_000,)


def test_demo_sizes_stay_large_enough_for_loops_at_a_tiny_scale():
    # At --scale 0.01 the old warm-up input had 0 or 1 rows: a variant of its own, compiled again when timed.
    for case in demo._cases(0.001):
        assert 20 <= case.python_n <= case.n
        arrays = [np.shape(a) for a in case.make(case.n) if np.ndim(a)]
        assert all(min(shape) >= 3 and max(shape) >= 20 for shape in arrays)


def test_demo_compiles_once_before_timing():
    pairwise = next(c for c in demo._cases(0.01) if c.name == "pairwise")
    measured = demo.measure(pairwise, repeat=2)
    assert (measured.label, measured.compiles, measured.compiles_while_timed) == ("pairwise 20x3", 1, 0)
    assert min(measured.python_s, measured.numpy_s, measured.cuvil_s, measured.first_call_s) > 0


@pytest.mark.parametrize("ratio, shown", [(1234.4, "1234x"), (12.6, "13x"), (3.14, "3.1x"), (0.31, "0.31x"),
                                          (0.004, "0.004x")])
def test_demo_ratio_is_never_shown_as_zero(ratio, shown):
    assert demo._ratio(ratio) == shown


def test_demo_command_runs_the_kernels_named(capsys):
    assert main(["demo", "--scale", "0.01", "--repeat", "1", "--only", "pairwise"]) == 0
    table = capsys.readouterr().out.splitlines()[-3:]
    assert table[0].split() == ["kernel", "python", "numpy", "cuvil", "vs", "python", "vs", "numpy", "first", "call"]
    assert table[2].startswith("pairwise 20x3 ")


@pytest.mark.parametrize("seconds, shown", [(2.8149, "2.81 s"), (0.3712, "371 ms"), (0.00351, "3.51 ms"),
                                            (0.000928, "928 us"), (6.6e-6, "6.6 us")])
def test_demo_times_keep_three_digits_without_an_exponent(seconds, shown):
    assert demo._time(seconds) == shown


def test_demo_shows_the_median_with_its_interquartile_range():
    runs = demo.Runs((1.0e-3, 1.1e-3, 1.2e-3, 1.3e-3, 9.0e-3))  # one run disturbed: the spread ignores it
    assert demo._spread(runs) == "1.20 ms (1.10-1.30)"
    assert demo._spread(demo.Runs((0.5,))) == "500 ms (500-500)"
    assert demo._spread(demo.Runs((38e-3, 39e-3, 40.1e-3, 41e-3, 44e-3))) == "40.1 ms (39.0-41.0)"


def test_demo_times_every_run_on_touched_buffers_refilled_with_the_same_inputs():
    seen = []

    def double_in_place(a):  # updates its input, as stencil does
        seen.append((a.copy(), a.ctypes.data))
        a *= 2

    pristine = (np.arange(4.0),)
    runs = demo._timed({"x": double_in_place}, pristine, repeat=3)
    assert len(runs["x"].seconds) == 3 and len(seen) == 4  # one untimed warm-up, then the timed runs
    assert all(np.array_equal(a, np.arange(4.0)) for a, _ in seen)
    assert len({address for _, address in seen}) == 1 and seen[0][1] != pristine[0].ctypes.data
    assert np.array_equal(pristine[0], np.arange(4.0))
