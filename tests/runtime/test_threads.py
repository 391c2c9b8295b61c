"""The threading layer: `multiprocessing` with fork works after a parallel call (TBB, chosen before Numba
starts a pool), a layer the user chose is kept, GNU OpenMP's fork death is announced, `cuvil doctor` shows it.
Each test runs a fresh interpreter: the layer is chosen once per process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cuvil

SCRIPT = textwrap.dedent('''
    import multiprocessing as mp
    import numba
    import numpy as np
    import cuvil

    @cuvil.jit(parallel=True)
    def double(x):
        for i in range(len(x)):
            x[i] = x[i] * 2.0
        return x

    def child(q):
        q.put(float(double(np.ones(1000)).sum()))

    if __name__ == "__main__":
        assert "numba.prange" in double.source()
        total = double(np.ones(100_000)).sum()
        ctx = mp.get_context("fork")
        q = ctx.Queue()
        p = ctx.Process(target=child, args=(q,))
        p.start()
        p.join(120)
        print(numba.threading_layer(), total, p.exitcode, q.get() if p.exitcode == 0 else None)
    ''')

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork and GNU OpenMP: Linux")


def _run(tmp_path: Path, *argv: str, layer: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    env["PYTHONPATH"] = str(Path(cuvil.__file__).parents[1])
    env["CUVIL_CACHE_DIR"] = str(tmp_path / "cache")
    if layer:
        env["NUMBA_THREADING_LAYER"] = layer
    return subprocess.run([sys.executable, *argv], env=env, capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)


def _fork(tmp_path: Path, layer: str | None = None) -> tuple[list[str], str]:
    (tmp_path / "forking.py").write_text(SCRIPT)
    done = _run(tmp_path, "forking.py", layer=layer)
    assert done.returncode == 0, done.stderr
    return done.stdout.split(), done.stderr


def test_fork_after_a_parallel_call_runs_the_child(tmp_path):
    assert _fork(tmp_path)[0] == ["tbb", "200000.0", "0", "2000.0"]


def test_a_layer_the_user_chose_is_kept(tmp_path):
    assert _fork(tmp_path, layer="workqueue")[0] == ["workqueue", "200000.0", "0", "2000.0"]


def test_a_fork_under_gnu_openmp_is_announced_before_the_child_dies(tmp_path):
    printed, stderr = _fork(tmp_path, layer="omp")
    assert printed == ["omp", "200000.0", "-15", "None"]
    assert "CuvilWarning: fork() after a parallel=True call: GNU OpenMP" in stderr
    assert "pip install tbb" in stderr


def test_doctor_shows_the_threading_layer(tmp_path):
    done = _run(tmp_path, "-m", "cuvil.cli", "doctor")
    assert done.returncode == 0, done.stderr
    assert "threading layer for parallel=True: tbb (fork-safe; thread-safe)" in done.stdout.splitlines()
