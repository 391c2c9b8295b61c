"""The launcher's pieces without kernels: error slots and their decoding, exceptions at the user's line, the
launch configuration, the target option."""

import traceback

import numpy as np
import pytest

import cuvil
from cuvil.runtime import cuda_call, cuda_runtime


def test_an_error_slot_keeps_the_lowest_iteration_and_its_code():
    slots = cuda_runtime.error_slots()
    assert cuda_runtime.first_error(slots) == 0
    host = slots.copy_to_host()
    for iteration, code in ((7, 2), (3, 1005), (9, 1)):
        host[0] = min(host[0], iteration * cuda_runtime.CODES + code)
    slots = cuda_runtime.cuda.to_device(host)
    assert cuda_runtime.first_error(slots) == 1005
    assert cuda_runtime.decode(3 * cuda_runtime.CODES + 1005) == (3, 1005)


def test_raise_at_puts_the_exception_at_the_users_line():
    exc = cuda_call.raise_at(ZeroDivisionError("integer division or modulo by zero"), __file__, 5)
    last = traceback.extract_tb(exc.__traceback__)[-1]
    assert (last.filename, last.lineno) == (__file__, 5)
    assert type(exc) is ZeroDivisionError and str(exc) == "integer division or modulo by zero"


@pytest.mark.parametrize(("n", "expected"), [(0, (1, 32)), (5, (1, 32)), (33, (1, 64)), (256, (1, 256)),
                                             (257, (2, 256)), (10**9, (None, 256))])
def test_launch_configuration(n, expected):
    """Blocks cover n up to 32 per multiprocessor (1024 on the simulator); a grid-stride loop does the rest."""
    cap = 1024 if cuda_runtime.simulator() or cuda_runtime._is_sim() else \
        32 * cuda_runtime.cuda.get_current_device().MULTIPROCESSOR_COUNT
    assert cuda_runtime.grid(n) == (expected[0] or cap, expected[1])
    assert cuda_runtime.grid(n, True) == (1, 1)


def test_reduction_identities_and_combine():
    assert cuda_runtime.identity("max", "float32") == -np.inf
    assert cuda_runtime.identity("min", "int32") == np.iinfo(np.int32).max
    assert cuda_runtime.identity("+", "int64") == 0
    assert cuda_runtime.combine("max", 3.0, 5.0) == 5.0
    assert cuda_runtime.combine("+", 1, 2) == 3


def test_target_is_validated():
    with pytest.raises(ValueError, match="target must be one of"):
        cuvil.jit(target="tpu")


def test_auto_runs_numpy_arguments_on_the_cpu():
    def double(x):
        return x * 2.0

    f = cuvil.jit(double, target="auto")
    x = np.arange(4.0)
    np.testing.assert_array_equal(f(x), x * 2.0)
    assert "target: cuda" not in " ".join(cuvil.explain(f).guards[0])


def test_a_cpu_and_a_cuda_variant_are_different_entries():
    def inc(x):
        for i in range(len(x)):
            x[i] += 1.0
        return x

    cpu, gpu = cuvil.jit(inc), cuvil.jit(inc, target="cuda")
    np.testing.assert_array_equal(cpu(np.zeros(3)), np.ones(3))
    np.testing.assert_array_equal(gpu(np.zeros(3)), np.ones(3))
    assert "@cuda.jit" in gpu.source("cuda") and "@cuda.jit" not in cpu.source("kernel")
    assert gpu.compile_events[0].cache == "miss"  # not the CPU entry


class _Compiled:
    """A compiled kernel as numba-cuda's dispatcher lists it in `overloads`."""

    regs_per_thread = 40

    def inspect_asm(self, cc):
        return f"// PTX for sm_{cc[0]}{cc[1]}\n" + "x" * 100


def test_kernel_sizes_list_each_compiled_kernel_and_skip_device_functions():
    """The module's kernels are those its CUVIL_KERNELS table lists; a device function it imports is not one."""
    kernel = type("Kernel", (), {"overloads": {("float64[::1]", "int64"): _Compiled()}})()
    device = type("Device", (), {"overloads": {("float64",): _Compiled()}})()
    cc = cuda_runtime.cuda.get_current_device().compute_capability
    table = {"f_k0": ("grid", "r1", 2, 3)}
    assert cuda_runtime.kernel_sizes({"f_k0": kernel, "helper": device, "n": 3}) == []
    lines = cuda_runtime.kernel_sizes({"CUVIL_KERNELS": table, "f_k0": kernel, "helper": device, "n": 3})
    size = len(_Compiled().inspect_asm(cc))
    assert lines == [f"kernel f_k0('float64[::1]', 'int64'): PTX {size} bytes for cc {cc[0]}.{cc[1]}, "
                     "40 registers per thread"]


def test_kernel_sizes_after_a_launch():
    """On a GPU (bench/gpu_check.sh): the one kernel, its PTX and registers; the simulator compiles none."""
    f = cuvil.jit(plain_saxpy, target="cuda")
    f(2.0, np.ones(4), np.ones(4), np.zeros(4))
    sizes = f._variants[0].impl.kernel_sizes()
    if cuda_runtime.simulator() or cuda_runtime._is_sim():
        assert sizes == []
    else:
        assert len(sizes) == 1 and sizes[0].startswith("kernel plain_saxpy_k0(") and "registers per thread" in sizes[0]
        assert int(sizes[0].split("PTX ")[1].split()[0]) > 1000


def plain_saxpy(a, x, y, out):
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]
    return out


def test_compiling_for_the_cpu_imports_no_numba_cuda(tmp_path):
    """The CPU target never imports numba.cuda (seconds of import, and NUMBA_ENABLE_CUDASIM is read once,
    then): the CUDA code generator's tables live apart from the device twins."""
    import os
    import subprocess
    import sys

    code = ("import sys, numpy as np, cuvil\n"
            "def f(x):\n    return x * 2\n"
            "cuvil.jit(f)(np.ones(3))\n"
            "import cuvil.codegen.cuda_module, cuvil.codegen.cuda_checks\n"
            "print('numba.cuda' in sys.modules)\n")
    script = tmp_path / "cpu_only.py"
    script.write_text(code)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env["CUVIL_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False"]
