"""tests/cuda run on the CUDA simulator (each GPU thread as Python), unless CUVIL_GPU=1 (bench/gpu_check.sh on a
real GPU). numba.cuda reads NUMBA_ENABLE_CUDASIM once, when it is first imported, so it is set here, before
any test module of this folder imports cuvil's CUDA runtime (the CPU target never imports numba.cuda)."""

import os
import sys

import pytest

from tests.cuda.backing import GPU

if not GPU:
    if "numba.cuda" in sys.modules and not os.environ.get("NUMBA_ENABLE_CUDASIM"):
        raise RuntimeError("numba.cuda was imported before tests/cuda/conftest.py could turn the simulator on")
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"


@pytest.fixture(autouse=True)
def _no_performance_warning_noise():
    """Single-thread kernels warn (PerformanceWarning); tests that care catch it themselves."""
    import warnings

    import cuvil

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cuvil.PerformanceWarning)
        yield
