"""Every kernel target="cuda" generates for the corpus (tests/programs), the kernels of these tests, the
kernels of bench/kernels and those of bench/gpu_bench.py compiles to PTX for compute capability 9.0 with
numba.cuda.compile_ptx.

The kernels run here on the simulator, which records each launch's argument types; a subprocess without the
simulator (compile_ptx is not there under NUMBA_ENABLE_CUDASIM) imports the generated modules and compiles each
kernel for those types. A kernel that calls a device function makes numba-cuda 0.30.4 (pinned in
constraints/tests.txt) ask for the current device's compute capability even for compile_ptx
(numba/cuda/dispatcher.py: `get_current_device().compute_capability` in `compile_device`), which fails with
no GPU: the subprocess stands in a 9.0 device for that one lookup."""

import importlib
import json
import pickle
import pkgutil
import re
import subprocess
import sys
import textwrap
from copy import deepcopy
from pathlib import Path

import numpy as np
import pytest

import cuvil
from tests.cuda import test_kernels
from tests.cuda.backing import GPU, no_simulator_env
from tests.cuda.test_programs import ACCEPTED

pytestmark = pytest.mark.skipif(GPU, reason="a real GPU compiles every launch")


def _sig(value):
    if hasattr(value, "_ary"):
        value = value._ary
    if isinstance(value, np.ndarray):
        dims = [":"] * value.ndim
        if value.flags.c_contiguous and value.ndim:
            dims[-1] = "::1"
        return f"{value.dtype.name if value.dtype != np.bool_ else 'boolean'}[{', '.join(dims)}]"
    if isinstance(value, bool | np.bool_):
        return "boolean"
    if isinstance(value, np.generic):
        return value.dtype.name
    if isinstance(value, int):
        return "int64"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, tuple):
        return "Tuple((" + ", ".join(_sig(v) for v in value) + ",))"
    raise TypeError(type(value))


class Launches(dict):
    """(module path, kernel, signature) of each kernel launched, and per module the values Cuvil sets before
    it runs (a captured array: `# NAME: …, set by Cuvil before this module runs`), for the subprocess."""

    def __init__(self) -> None:
        super().__init__()
        self.injected: dict[str, dict[str, object]] = {}


INJECTED = re.compile(r"^# (\w+): .*, set by Cuvil before this module runs$", re.MULTILINE)


@pytest.fixture
def launches(monkeypatch):
    from numba.cuda.simulator import kernel

    found = Launches()
    original = kernel.FakeCUDAKernel.__call__

    def record(self, *args):
        path = self.fn.__code__.co_filename
        if not self._device and "_cuvil_" in path:
            found[(path, self.fn.__name__, "(" + ", ".join(_sig(a) for a in args) + ",)")] = True
            if path not in found.injected:
                names = INJECTED.findall(Path(path).read_text())
                found.injected[path] = {n: self.fn.__globals__[n] for n in names}
        return original(self, *args)

    monkeypatch.setattr(kernel.FakeCUDAKernel, "__call__", record)
    return found


def _bench_kernels():
    import bench.kernels as package

    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"bench.kernels.{info.name}")
        fn = getattr(module, info.name, None)
        if callable(fn) and hasattr(module, "args"):
            yield fn, module.args


def test_every_generated_kernel_compiles_to_ptx_for_cc90(launches):
    for case in ACCEPTED:
        args = case.strategy.example()
        cuvil.jit(case.fn, target="cuda")(*deepcopy(args))
    for name in ("gelu", "saxpy", "total", "largest", "count_positive", "row_softmax", "divide"):
        fn = getattr(test_kernels, name)
        sample = {"saxpy": (2.0, np.ones(40), np.ones(40), np.zeros(40)), "row_softmax": (np.ones((4, 8)),
                  np.zeros((4, 8))), "divide": (np.zeros(8, np.int64), -1)}.get(name, (np.ones(40), np.zeros(40)))
        cuvil.jit(fn, target="cuda")(*sample[: fn.__code__.co_argcount])
    for into, value in ((np.uint64, np.int64(-1)), (np.uint32, np.float32(-1.0)),  # float_as_unsigned's
                        (np.uint8, np.float64(-1.0))):  # three branches
        cuvil.jit(test_kernels.accumulate, target="cuda")(np.zeros(40, into), np.full(40, value))
    halves = np.ones(40, np.float16)
    for precision in (None, "fp16"):  # half precision: bits in, float32 values, rounding (runtime/half.py)
        cuvil.jit(test_kernels.gelu, target="cuda", precision=precision)(halves, np.zeros_like(halves))
        cuvil.jit(test_kernels.expression, target="cuda", precision=precision)(halves, halves)
    import torch

    bf = torch.ones(40, dtype=torch.bfloat16)
    cuvil.jit(test_kernels.saxpy, target="cuda", precision="bf16")(1.5, bf, bf, torch.zeros_like(bf))
    from tests.cuda.test_collapse import SCALE  # two parallel axes as one grid (codegen/cuda_collapse.py)

    cuvil.jit(SCALE, target="cuda")(np.ones((2, 3)), np.zeros((2, 3)), 2.0)
    from bench import gpu_bench  # bench/gpu_check.sh's GELU and softmax, as it launches them (float32)

    for fn, shape in ((gpu_bench.gelu, (64,)), (gpu_bench.softmax, (4, 16))):
        x = np.linspace(-3.0, 3.0, int(np.prod(shape)), dtype=np.float32).reshape(shape)
        cuvil.jit(fn, target="cuda")(x, np.empty_like(x))
    from tests.cuda.test_cuda_rows import row_sums  # a block per row reducing int64 by warp shuffles

    cuvil.jit(row_sums, target="cuda")(np.arange(64, dtype=np.int64).reshape(4, 16), np.zeros(4, np.int64))
    for fn, make in _bench_kernels():  # every bench kernel is accepted (none refused at its line)
        cuvil.jit(fn, target="cuda")(*make(1e-5))
    if any(c.fn.__name__ == "smooth_with_array_constant" for c in ACCEPTED):  # a kernel reading a captured array
        assert any(launches.injected.values())
    assert len(launches) >= 20  # the launches were recorded (the corpus itself may be another: a held-out one)
    failed = compile_ptx(launches, instructions=FAST)
    assert not failed, "\n".join(failed)
    fast_kernels_ptx(failed.instructions)


# kernels whose instructions fast_kernels_ptx reads: (kernel, the user's file its module was generated from)
FAST = (("gelu_k0", "gpu_bench.py"), ("softmax_k0", "gpu_bench.py"), ("row_sums_k0", "test_cuda_rows.py"))


def fast_kernels_ptx(ops):
    """The float32 GELU does no float64 work and loads a trip's four elements before its first store
    (codegen/cuda_jam.py); the row softmax (loops, float32) reduces by warp shuffles between block barriers and
    does no float64 work (its sum is the user's float32 `s`); an int64 row sum shuffles too."""
    gelu = ops["gelu_k0"]
    assert [op for op in gelu if ".f64" in op] == []
    first_store = next(k for k, op in enumerate(gelu) if op.startswith("st.global"))
    assert sum(op.startswith("ld.global") for op in gelu[:first_store]) == 4
    rows = ops["softmax_k0"]
    assert sum(op.startswith("shfl.sync.down") for op in rows) >= 10  # 5 steps, twice, per reduction
    assert any(op.startswith("bar.sync") for op in rows)
    assert [op for op in rows if ".f64" in op] == []
    assert any(op.startswith("shfl.sync.down") for op in ops["row_sums_k0"])


class Failures(list):
    """compile_ptx's failures, one line each; `instructions`: the PTX instructions of the kernels asked for."""

    instructions: dict


def compile_ptx(launches, instructions=()):
    """The kernels launched (a `launches` fixture's record) compiled for cc 9.0 without the simulator, in a
    subprocess, each with numba-cuda's disk cache in its entry and the values Cuvil sets in its module before
    it runs; the failures, and the instructions of the kernels `instructions` names ((kernel, the user's file),
    the first signature launched)."""
    script = textwrap.dedent("""
        import importlib.util, json, os, pickle, sys
        import numba.cuda.dispatcher as d
        class Device:  # compute capability 9.0 for compile_device's lookup (numba-cuda 0.30.4)
            compute_capability = (9, 0)
        d.get_current_device = lambda: Device()
        from numba import cuda
        failed = []
        modules = {}
        launched, injected, wanted = pickle.load(sys.stdin.buffer)
        instructions = {}
        for path, name, sig in launched:
            if path not in modules:
                spec = importlib.util.spec_from_file_location(path.rsplit("/", 1)[1][:-3], path)
                module = importlib.util.module_from_spec(spec)
                module.__dict__.update(injected.get(path, {}))
                sys.modules[spec.name] = module
                spec.loader.exec_module(module)
                modules[path] = module
            try:
                kernel = getattr(modules[path], name)
                ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
                assert ".target sm_90" in ptx
                origin = open(path).readline().split(" from ", 1)[-1].split(" ", 1)[0]
                if (name, origin) in wanted and name not in instructions:
                    instructions[name] = [line.split()[0] for line in ptx.splitlines() if line.strip() and not
                                          line.strip().startswith(("//", ".", "{", "}", "$", "@", ")", "("))]
                # numba-cuda's disk cache (its index keyed by compute capability) in the entry, beside the module;
                # absolute paths: CUVIL_CACHE_DIR may be relative (nox's is)
                entry = os.path.abspath(os.path.join(os.path.dirname(path), "__pycache__"))
                assert os.path.abspath(kernel._cache._cache_path) == entry, kernel._cache
            except Exception as exc:
                failed.append(f"{name}{sig}: {type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:300]}")
        print(json.dumps([failed, instructions]))
    """)
    env = no_simulator_env()
    given = pickle.dumps((sorted(launches), getattr(launches, "injected", {}), set(instructions)))
    done = subprocess.run([sys.executable, "-c", script], input=given, capture_output=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    failed, found = json.loads(done.stdout.decode().strip().splitlines()[-1])
    out = Failures(failed)
    out.instructions = found
    return out


def test_kernels_with_pythons_checks_compile_to_ptx_for_cc90(launches):
    """Single-thread kernels with conditions and recording twins (runtime/cuda_checks.py), grid kernels with
    Python-int and math checks (runtime/cuda_pyint.py, cuda_pymath.py)."""
    from tests.cuda import test_python_errors as programs

    for fn, args in programs.SAMPLES.items():
        cuvil.jit(fn, target="cuda")(*args)
    assert len(launches) == len(programs.SAMPLES)
    failed = compile_ptx(launches)
    assert not failed, "\n".join(failed)


def test_runtime_kernels_compile_to_ptx_for_cc90():
    """Kernels of Cuvil's runtime a launcher calls: `a @ b` (runtime/cuda_matmul.py) for the dtypes NumPy's
    promotion gives it (same, mixed float, int32, mixed int), contiguous and strided operands."""
    script = textwrap.dedent("""
        from numba import cuda, types
        from cuvil.runtime import cuda_matmul
        product = cuda_matmul._kernel()
        found = []
        for a, b, out in (("float64",) * 3, ("float32",) * 3, ("float32", "float64", "float64"),
                          ("int32",) * 3, ("int32", "int64", "int64")):
            for layout in ("C", "A"):
                sig = tuple(types.Array(getattr(types, t), 2, layout) for t in (a, b, out)) + (getattr(types, out),)
                ptx, _ = cuda.compile_ptx(product.py_func, sig, cc=(9, 0))
                found.append(ptx.count(".target sm_90"))
        print(found)
    """)
    done = subprocess.run([sys.executable, "-c", script], text=True, capture_output=True, env=no_simulator_env(),
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [1] * 10


def test_device_probe_kernels_compile_to_ptx_for_cc90():
    """The roofs' probes (inspect/device_probe.py): the copy, and multiply-add chains that stay fused
    multiply-adds (four chains in the loop, float32 and float64), so the FLOP roof is the FMA units'."""
    script = textwrap.dedent("""
        from numba import cuda, types
        from cuvil.inspect import device_probe
        copy, fma = device_probe._kernels()
        ptx, _ = cuda.compile_ptx(copy.py_func, (types.float32[::1], types.float32[::1]), cc=(9, 0))
        counts = [ptx.count(".target sm_90")]
        for t, suffix in ((types.float32, ".f32"), (types.float64, ".f64")):  # fastmath: fma.rn.ftz.f32
            ptx, _ = cuda.compile_ptx(fma.py_func, (t[::1], types.int64, t, t), cc=(9, 0), fastmath=True)
            counts.append(sum(line.split()[0].startswith("fma.rn") and line.split()[0].endswith(suffix)
                              for line in ptx.splitlines() if line.strip()))
        print(counts)
    """)
    env = no_simulator_env()
    done = subprocess.run([sys.executable, "-c", script], text=True, capture_output=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    copy, fma32, fma64 = json.loads(done.stdout.strip().splitlines()[-1])
    assert copy == 1 and fma32 >= 4 and fma64 >= 4
