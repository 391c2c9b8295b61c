"""target="cuda" on a machine with no CUDA driver or device, and no simulator: a CuvilError saying so at the
first call (not a Numba traceback); the generated source can still be read. Runs in a subprocess, because
numba.cuda reads NUMBA_ENABLE_CUDASIM once per process and this one simulates."""

import subprocess
import sys
import textwrap

import pytest

from tests.cuda.backing import GPU, no_simulator_env

PROGRAM = textwrap.dedent("""
    import numpy as np, cuvil

    def bump(x):
        for i in range(x.shape[0]):
            x[i] += 1
        return x

    fn = cuvil.jit(bump, target="cuda")
    assert "bump_k0" in fn.source("kernel")
    try:
        fn(np.ones(4))
    except cuvil.CuvilError as exc:
        print(type(exc).__name__, exc)
""")


@pytest.mark.skipif(GPU, reason="this machine has a GPU")
def test_cuda_target_without_a_device_is_a_cuvil_error(tmp_path):
    env = no_simulator_env()
    env["CUVIL_CACHE_DIR"] = str(tmp_path)
    script = tmp_path / "no_device.py"  # a file: cuvil reads the function's source
    script.write_text(PROGRAM)
    found = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert found.returncode == 0, found.stderr[-2000:]
    assert found.stdout.strip() == (
        "CuvilError target='cuda' needs a CUDA device, and this machine has no usable CUDA driver or device; use "
        "target='cpu', or set NUMBA_ENABLE_CUDASIM=1 before importing numba to simulate one")
