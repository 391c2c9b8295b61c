"""cuvil.profile: the call timed, the cost model's counts, this machine's measured roofs, a roofline chart."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

import cuvil
from cuvil.inspect import peaks as peaks_module
from cuvil.inspect import profile as profile_module
from cuvil.inspect.peaks import Peaks
from cuvil.inspect.roofline import chart
from tests.helpers import define

AXPY = """
def axpy(a, x, y, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i]
    return out
"""

FIXED = Peaks("test", 2, {"1": 10.0, "all": 20.0}, {"float32/1": 50.0, "float32/all": 100.0, "float64/1": 25.0,
                                                   "float64/all": 50.0})


@pytest.fixture
def fixed_peaks(monkeypatch):
    monkeypatch.setattr(profile_module, "peaks", lambda: FIXED)


def _axpy_profile(parallel=False):
    fn = cuvil.jit(define(AXPY), parallel=parallel)
    n = 100_000
    x, y = np.ones(n), np.full(n, 2.0)
    out = np.empty(n)
    found = cuvil.profile(fn, 3.0, x, y, out, repeat=3)
    assert np.array_equal(out, 3.0 * x + y)  # it ran
    return found, n


def test_profile_counts_times_and_sets_against_the_roofs(fixed_peaks):
    found, n = _axpy_profile()
    assert (found.flops, found.moved) == (2 * n, 24 * n)
    assert len(found.runs) == 3 and found.seconds == sorted(found.runs)[1]
    assert found.gflops == pytest.approx(2 * n / found.seconds / 1e9)
    assert not found.parallel and found.roof == (25.0, 10.0)  # float64, one thread: no parallel loop
    assert found.bound == "memory" and found.fraction == pytest.approx(found.gbytes / 10.0)
    text = str(found)
    assert "timed: whole call (a CPU variant is one compiled function: its regions are not timed separately)" in text
    assert "memory-bound" in text and "roofs (float64, 1 thread): 25 GFLOP/s, 10 GB/s" in text


def test_profile_of_a_parallel_variant_uses_every_thread_roof(fixed_peaks):
    found, _ = _axpy_profile(parallel=True)
    assert found.parallel and found.roof == (50.0, 20.0)


def test_profile_chart_png_and_html(fixed_peaks):
    pytest.importorskip("matplotlib")
    found, _ = _axpy_profile()
    png = found._repr_png_()
    assert png is not None and png.startswith(b"\x89PNG\r\n\x1a\n")
    assert '<img src="data:image/png;base64,' in found._repr_html_()


def test_chart_without_matplotlib_says_how_to_get_it(fixed_peaks, monkeypatch):
    found, _ = _axpy_profile()
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"a roofline chart needs matplotlib: pip install 'cuvil\[plot\]'"):
        chart([("k", 1.0, 1.0)], (10.0, 1.0), "t")
    assert found._repr_png_() is None
    assert found._repr_html_().startswith("<pre>profile of axpy") and "<img" not in found._repr_html_()


def test_profile_refuses_a_plain_function():
    with pytest.raises(TypeError, match="cuvil.profile takes a function made by cuvil.jit, not function"):
        cuvil.profile(define(AXPY), 1.0, np.ones(2), np.ones(2), np.ones(2))


def test_peaks_are_measured_once_per_machine_and_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("CUVIL_CACHE_DIR", str(tmp_path))
    calls = []
    stub = Peaks(peaks_module.machine_id(), 2, {"1": 1.0, "all": 2.0}, dict(FIXED.gflops))
    monkeypatch.setattr(peaks_module, "measure", lambda: calls.append(1) or stub)
    assert peaks_module.peaks() == stub and peaks_module.peaks() == stub and len(calls) == 1
    (path,) = tmp_path.glob("peaks-*.json")
    assert json.loads(path.read_text())["bandwidth"] == {"1": 1.0, "all": 2.0}
    path.write_text(json.dumps({**json.loads(path.read_text()), "machine": "another"}))
    assert peaks_module.peaks() == stub and len(calls) == 2  # another machine's figures are measured again
    assert peaks_module.peaks(force=True) == stub and len(calls) == 3


def test_measured_peaks_are_plausible():
    """The probes themselves (compiled here): positive, and a vector FMA is not slower than a triad's FLOPs."""
    found = peaks_module.measure()
    assert set(found.bandwidth) == {"1", "all"}
    assert set(found.gflops) == {"float32/1", "float32/all", "float64/1", "float64/all"}
    assert all(v > 0.1 for v in [*found.bandwidth.values(), *found.gflops.values()])
    assert found.gflops["float64/1"] > found.bandwidth["1"] / 12  # the triad does 2 FLOPs per 24 bytes
