"""The benchmark suite: every kernel of bench/kernels/ on plain Python, NumPy, Numba, torch and Cuvil (CPU).

Run `python bench/run.py` (or `nox -s bench`); `python bench/run.py --quick` is a smoke test that writes to a
scratch folder: every kernel runs once at small sizes and is checked against the reference, in under 3 minutes
on 2 cores. Its figures are not for publishing: 2 timed runs, no waiting for a quiet machine, and what costs
minutes but only matters for figures is left out (the Numba control; torch.compile and the fresh-process first
calls but on one kernel). The run writes bench/results.json, then bench/REPORT.md and bench/results.png from
it (bench/report.py, which also re-renders them from the JSON alone). Progress goes to stderr.

How each figure is measured:

- Steady state: every system in this one process. Before each run the array inputs are copied (outside the
  timer), so kernels that update their inputs always start from the same data. One warm-up run per system,
  checked against the reference (NumPy's result, or torch eager's where there is no NumPy form); a system that
  disagrees is reported as a mismatch and not timed. Then `--repeat` timed runs, interleaved across systems
  (round robin, so drift hits all alike); median, min and max are kept.
- Plain Python runs the loop form on a reduced input (the kernel's PYTHON_SCALE) and its times are multiplied
  by work(full) / work(reduced), where `work` is the kernel's own count of work units (elements, point pairs,
  pixels, points × steps, calls). Linear scaling is close for interpreted loops, whose cost per unit hardly
  depends on the size; cache effects favour Python slightly (the reduced inputs fit in cache).
- Serial Cuvil against serial Numba: beside the ratio, whether the module Cuvil generated compiles to the same
  machine code as the kernel as written (Numba's assembly of both, compared), and a control: the loop form
  compiled by Numba a second time and timed like the rest, which shows what placement and noise alone do.
- First-call compile latency: for each compiling system, in a fresh process with empty caches (Cuvil's, Numba's,
  TorchInductor's) on the full-size inputs: decoration plus the first call minus a second call. Each such
  process runs under a timeout; when it hits it the figure is "did not compile in N s", and torch.compile then
  has no steady state. Where it compiled, this process's torch.compile starts from that run's inductor cache.
- Other load: the CPU time other processes (and the hypervisor) took while a kernel was timed, from /proc/stat
  less this process's own. Above BUSY_CORES the kernel is measured again after the machine goes quiet (within
  --busy-retries and --busy-budget), and the least disturbed measurement is kept; the report shows the load.
- Thread scaling: a serial (parallel=False) Cuvil GELU, compiled nogil, over the two halves of the input, run
  one after the other on one thread, then on two Python threads at once; the same for numba.njit(nogil=True).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.util
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

KERNELS = ("gelu", "softmax", "pairwise", "escape_time", "stencil", "total", "dot", "small_call", "bf16_axpy")
SYSTEMS = ("python", "numpy", "numba", "numba_parallel", "torch", "torch_compile", "cuvil", "cuvil_parallel")
# A control, not a contender: the loop form compiled by Numba a second time, timed like the others. Two
# compilations of the same code can differ by where the JIT places the hot loop; the report sets Cuvil's ratio
# to Numba beside this one.
CONTROL = "numba_again"
COMPILING = ("numba", "numba_parallel", "torch_compile", "cuvil", "cuvil_parallel")
TORCH_INPUTS = ("torch", "torch_compile")
THREAD_KERNEL = "gelu"

# --quick leaves out what took most of a full run and serves only its figures: the fresh-process first calls
# (torch.compile's alone 10-60 s per kernel) and torch.compile's steady state, kept for one kernel so that their
# code paths still run, and the Numba control. Every other system still runs every kernel once and is checked
# against the reference.
QUICK_FIRST_CALLS = {"gelu": COMPILING}
QUICK_SKIP = {CONTROL: "not run (--quick: a control for the figures)"}

_START = time.perf_counter()

# numba.njit(parallel=True) on a kernel with nothing to parallelize (small_call) says so at every compile
warnings.filterwarnings("ignore", message="(?s).*no transformation for parallel execution")


def progress(message: str) -> None:
    print(f"[{time.perf_counter() - _START:6.1f} s] {message}", file=sys.stderr, flush=True)


def cpu_seconds() -> tuple[float, float] | None:
    """(busy CPU seconds of the whole machine since boot, of this process and its finished children)."""
    stat = Path("/proc/stat")
    if not stat.exists():
        return None
    fields = [int(v) for v in stat.read_text().split("\n", 1)[0].split()[1:9]]  # user … steal
    own = os.times()
    busy = (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait
    return busy, own.user + own.system + own.children_user + own.children_system


def other_load(before: tuple[float, float] | None, seconds: float) -> float | None:
    """Cores kept busy by other processes (or stolen by the hypervisor) since `before`, on average."""
    after = cpu_seconds()
    if before is None or after is None or seconds <= 0:
        return None
    return max(0.0, ((after[0] - before[0]) - (after[1] - before[1])) / seconds)


BUSY_CORES = 0.2  # other processes' average use of the cores above which a measurement is taken again


def wait_for_quiet(timeout: float) -> bool:
    """Whether the machine went quiet (two 5-s windows under BUSY_CORES busy in all) within `timeout` s."""
    deadline, quiet = time.perf_counter() + timeout, 0
    while time.perf_counter() < deadline and quiet < 2:
        before = cpu_seconds()
        if before is None:
            return False
        time.sleep(5)
        quiet = quiet + 1 if (other_load(before, 5) or 0) < BUSY_CORES else 0
    return quiet >= 2


class Quietly:
    """Measurements taken again, while the retry budget lasts, when other processes kept the machine busy: on 2
    cores their work would be timed as the slowness of every multithreaded system."""

    def __init__(self, retries: int, budget: float):
        self.retries, self.budget = retries, budget  # budget: seconds of waiting left for the whole run

    def __call__(self, label: str, measure: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], float | None, int]:
        """(the least disturbed result, other processes' cores busy during it, attempts made)."""
        best: tuple[dict[str, Any], float | None] | None = None
        attempt = 0
        while True:
            attempt += 1
            before, start = cpu_seconds(), time.perf_counter()
            result = measure()
            load = other_load(before, time.perf_counter() - start)
            if best is None or (load or 0) < (best[1] or 0):
                best = (result, load)
            if best[1] is None or best[1] <= BUSY_CORES or attempt > self.retries:
                return best[0], best[1], attempt
            if self.budget <= 0:
                return best[0], best[1], attempt
            progress(f"{label}: other processes kept {load:.2f} cores busy; waiting (≤ {self.budget:.0f} s) for "
                     "quiet to measure again")
            start = time.perf_counter()
            wait_for_quiet(self.budget)
            self.budget -= time.perf_counter() - start


class Unavailable(Exception):
    """A system has no figure for a kernel, for a stated reason (no such form, no such dtype, not yet)."""


@dataclasses.dataclass(frozen=True)
class Kernel:
    name: str
    module: types.ModuleType

    @classmethod
    def load(cls, name: str) -> Kernel:
        return cls(name, importlib.import_module(f"bench.kernels.{name}"))

    @property
    def loop(self) -> Callable[..., Any]:
        return getattr(self.module, self.name)

    @property
    def precision(self) -> str | None:
        return getattr(self.module, "PRECISION", None)

    @property
    def calls(self) -> int:
        return getattr(self.module, "CALLS", 1)

    def form(self, attribute: str, label: str) -> Callable[..., Any]:
        fn = getattr(self.module, attribute, None)
        if fn is None:
            raise Unavailable(f"n/a: no {label} form")
        return fn

    def args(self, scale: float) -> tuple[Any, ...]:
        return self.module.args(scale)

    def work(self, args: tuple[Any, ...]) -> int:
        return self.module.work(*args) * self.calls

    def torch_args(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        if hasattr(self.module, "torch_args"):
            return self.module.torch_args(*args)
        import torch

        return tuple(torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args)


def make(kernel: Kernel, system: str) -> tuple[Callable[..., Any], bool]:
    """The callable a system runs for a kernel, and whether it takes the torch inputs."""
    if system == "python":
        return kernel.loop, False
    if system in ("numpy", "numba", "numba_parallel", CONTROL) and kernel.precision:
        raise Unavailable(f"n/a: no {kernel.precision} type in {'NumPy' if system == 'numpy' else 'Numba'}")
    if system == "numpy":
        return kernel.form("numpy_form", "NumPy"), False
    if system in ("numba", "numba_parallel", CONTROL):
        import numba

        if system in ("numba", CONTROL):
            return numba.njit(nogil=True)(kernel.loop), False
        return numba.njit(nogil=True, parallel=True)(getattr(kernel.module, "prange_form", kernel.loop)), False
    if system == "torch":
        return kernel.form("torch_form", "torch"), True
    if system == "torch_compile":
        import torch

        return torch.compile(kernel.form("torch_form", "torch")), True
    import cuvil

    options: dict[str, Any] = {"parallel": True} if system == "cuvil_parallel" else {}
    if kernel.precision:
        options["precision"] = kernel.precision
    try:
        return cuvil.jit(kernel.loop, **options), bool(kernel.precision)
    except NotImplementedError as exc:
        raise Unavailable(f"not supported yet: {exc}") from None


def fresh(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(a.copy() if isinstance(a, np.ndarray) else a.clone() if hasattr(a, "clone") else a for a in args)


def run_once(fn: Callable[..., Any], args: tuple[Any, ...], calls: int) -> tuple[float, Any]:
    args = fresh(args)
    result = None
    start = time.perf_counter()
    for _ in range(calls):
        result = fn(*args)
    return time.perf_counter() - start, result


def as_numpy(value: Any) -> np.ndarray:
    if hasattr(value, "detach"):
        value = value.detach()
        return (value.float() if value.dtype.is_floating_point and value.element_size() < 4 else value).numpy()
    return np.asarray(value)


def disagreement(result: Any, reference: np.ndarray, precision: str | None) -> str | None:
    """None when `result` matches the reference to the tolerance its dtype allows, else what differs."""
    got = as_numpy(result)
    if got.shape != reference.shape:
        return f"shape {got.shape} != {reference.shape}"
    if reference.dtype.kind in "iub":
        wrong = np.count_nonzero(got != reference)
        return None if wrong <= 1e-3 * reference.size else f"{wrong} of {reference.size} values differ"
    rtol, atol = {"bf16": (1e-2, 1e-2)}.get(precision or "", (1e-4, 1e-6) if reference.dtype == np.float32
                                                            else (1e-7, 1e-9))
    if np.allclose(got, reference, rtol=rtol, atol=atol, equal_nan=True):
        return None
    worst = np.nanmax(np.abs(got.astype(np.float64) - reference) / (atol + rtol * np.abs(reference)))
    return f"max error {worst:.3g}× the tolerance (rtol {rtol:g}, atol {atol:g})"


def reference(kernel: Kernel, args: tuple[Any, ...]) -> tuple[np.ndarray, str]:
    if hasattr(kernel.module, "numpy_form"):
        return as_numpy(kernel.module.numpy_form(*fresh(args))), "numpy"
    return as_numpy(kernel.module.torch_form(*kernel.torch_args(fresh(args)))), "torch"


def describe(args: tuple[Any, ...]) -> str:
    def one(a: Any) -> str:
        if hasattr(a, "shape") and hasattr(a, "dtype"):
            return f"{str(a.dtype).replace('torch.', '')}[{'×'.join(str(d) for d in a.shape)}]"
        return repr(a)

    return ", ".join(one(a) for a in args)


def _asm(dispatcher: Any) -> str:
    """Numba's assembly for a dispatcher's one signature, without names, comments and debug lines."""
    text = dispatcher.inspect_asm(dispatcher.signatures[0])
    keep = [line for line in text.splitlines() if not line.strip().startswith(("#", ".file", ".loc", ".size"))]
    return re.sub(r"_ZN\S*", "", "\n".join(keep))


def same_machine_code(kernel: Kernel, cuvil_fn: Any, numba_fn: Any) -> bool | None:
    """Whether the module Cuvil generated (its public source) compiles to the machine code Numba makes of the
    kernel as written; None when that cannot be told (the source imports what a plain module cannot)."""
    try:
        with tempfile.TemporaryDirectory(prefix="cuvil-bench-") as folder:
            path = Path(folder) / f"generated_{kernel.name}.py"
            path.write_text(cuvil_fn.source("kernel").replace("cache=True", "cache=False"))
            spec = importlib.util.spec_from_file_location(path.stem, path)
            module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
            spec.loader.exec_module(module)  # type: ignore[union-attr]
            generated = getattr(module, kernel.name)
            generated.compile(numba_fn.signatures[0])
            return _asm(generated) == _asm(numba_fn)
    except Exception:  # a kernel whose module needs Cuvil's injected names: not comparable this way
        return None


# ---------------------------------------------------------------------------------------------- steady state


@dataclasses.dataclass
class Contender:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    factor: float  # measured seconds × factor = seconds at full size
    times: list[float] = dataclasses.field(default_factory=list)


def steady_state(kernel: Kernel, scale: float, repeat: int, skip: dict[str, str]) -> dict[str, Any]:
    """Per system: ms median/min/max (at full size), or the reason there is none."""
    full = kernel.args(scale)
    small = kernel.args(scale * getattr(kernel.module, "PYTHON_SCALE", 1.0))
    references = {id(full): reference(kernel, full), id(small): reference(kernel, small)}
    out: dict[str, Any] = {"reference": references[id(full)][1], "size": describe(full)}
    contenders: dict[str, Contender] = {}
    for system in SYSTEMS + ((CONTROL,) if kernel.calls == 1 else ()):
        if system in skip:
            out[system] = {"status": skip[system]}
            continue
        args = small if system == "python" else full
        try:
            fn, takes_torch = make(kernel, system)
            start = time.perf_counter()
            _, result = run_once(fn, kernel.torch_args(args) if takes_torch else args, 1)
            warm_up = time.perf_counter() - start
        except Unavailable as exc:
            out[system] = {"status": str(exc)}
            continue
        except Exception as exc:  # a failure is a finding: reported in the table, not fatal to the suite
            out[system] = {"error": f"{type(exc).__name__}: {str(exc).strip().splitlines()[0][:300]}"}
            progress(f"{kernel.name}: {system} failed: {out[system]['error']}")
            continue
        wrong = disagreement(result, references[id(args)][0], kernel.precision)
        if wrong:
            out[system] = {"mismatch": wrong}
            progress(f"{kernel.name}: {system} disagrees with {references[id(args)][1]}: {wrong}")
            continue
        factor = kernel.work(full) / kernel.work(args)
        contenders[system] = Contender(fn, kernel.torch_args(args) if takes_torch else args, factor)
        out[system] = {"warm_up_s": warm_up}
        if factor != 1:
            out[system]["scaled_from"] = {"size": describe(args), "factor": factor}
    for _ in range(repeat):
        for c in contenders.values():
            c.times.append(run_once(c.fn, c.args, kernel.calls)[0] * c.factor)
    for system, c in contenders.items():
        ms = [t * 1e3 for t in c.times]
        out[system].update(ms=statistics.median(ms), min_ms=min(ms), max_ms=max(ms), runs_ms=ms)
        if kernel.calls > 1:
            out[system]["us_per_call"] = statistics.median(ms) * 1e3 / kernel.calls
        progress(f"{kernel.name}: {system:<14} {statistics.median(ms):10.2f} ms")
    if "numba" in contenders and "cuvil" in contenders:
        out["cuvil"]["same_machine_code_as_numba"] = same_machine_code(kernel, contenders["cuvil"].fn,
                                                                       contenders["numba"].fn)
    return out


# ------------------------------------------------------------------------------------- first-call latency


def first_call_child(name: str, system: str, scale: float) -> dict[str, Any]:
    """In a fresh process: decoration + first call − second call, on the full-size inputs."""
    kernel = Kernel.load(name)
    full = kernel.args(scale)
    import numba  # noqa: F401  (the backend of Numba and Cuvil alike: its import is part of neither's compile)
    try:
        start = time.perf_counter()
        fn, takes_torch = make(kernel, system)
        decorate = time.perf_counter() - start
    except Unavailable as exc:
        return {"status": str(exc)}
    args = kernel.torch_args(full) if takes_torch else full
    first, _ = run_once(fn, args, 1)
    second, _ = run_once(fn, args, 1)
    out = {"decorate_s": decorate, "first_s": first, "second_s": second, "compile_s": decorate + first - second}
    if system.startswith("cuvil"):
        import cuvil

        out["stages_s"] = cuvil.explain(fn).compiles[0].seconds
    return out


def first_call(name: str, system: str, scale: float, timeout: float, inductor_cache: Path) -> dict[str, Any]:
    """first_call_child in a fresh process with empty caches, killed (with its workers) after `timeout` s."""
    with tempfile.TemporaryDirectory(prefix="cuvil-bench-") as scratch:
        env = {**os.environ, "CUVIL_CACHE_DIR": f"{scratch}/cuvil", "NUMBA_CACHE_DIR": f"{scratch}/numba",
               "TORCHINDUCTOR_CACHE_DIR": f"{scratch}/inductor"}
        needs_torch = "yes" if system in TORCH_INPUTS or Kernel.load(name).precision else "no"
        command = [sys.executable, __file__, "--first-call", f"{name}:{system}:{needs_torch}", "--scale", repr(scale)]
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                 start_new_session=True)
        try:
            stdout, stderr = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)  # its own session: the child and the compile workers it started
            child.communicate()
            return {"timeout_s": timeout}
        lines = [line for line in stdout.splitlines() if line.startswith("RESULT ")]
        if child.returncode or not lines:
            tail = [line for line in stderr.strip().splitlines() if line.strip()][-1:] or [f"exit {child.returncode}"]
            return {"error": tail[0][:300]}
        if system == "torch_compile" and Path(f"{scratch}/inductor").is_dir():
            shutil.copytree(f"{scratch}/inductor", inductor_cache, dirs_exist_ok=True)
        return json.loads(lines[-1].removeprefix("RESULT "))


def compile_latency(name: str, opts: argparse.Namespace, inductor_cache: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kernel = Kernel.load(name)
    for system in COMPILING:
        if opts.quick and system not in QUICK_FIRST_CALLS.get(name, ()):
            out[system] = {"status": f"not run (--quick: only on {', '.join(QUICK_FIRST_CALLS)})"}
            continue
        try:
            make(kernel, system)  # cheap: decorators compile lazily; spares a process where there is no figure
        except Unavailable as exc:
            out[system] = {"status": str(exc)}
            continue
        timeout = opts.torch_compile_timeout if system == "torch_compile" else opts.compile_timeout
        samples = opts.compile_repeat if system in ("numba", "cuvil") else 1
        results = [first_call(name, system, opts.scale, timeout, inductor_cache) for _ in range(samples)]
        timed = [r for r in results if "compile_s" in r]
        if len(timed) < len(results):  # any sample that failed or timed out speaks for the system
            out[system] = next(r for r in results if "compile_s" not in r)
        else:
            out[system] = {key: statistics.median(r[key] for r in timed) for key in timed[0] if key != "stages_s"}
            out[system]["samples"] = len(timed)
            if "stages_s" in timed[0]:
                out[system]["stages_s"] = {k: statistics.median(r["stages_s"][k] for r in timed)
                                           for k in timed[0]["stages_s"]}
        shown = (f"{out[system]['compile_s']:.2f} s" if "compile_s" in out[system]
                 else f"timed out after {timeout:g} s" if "timeout_s" in out[system] else str(out[system]))
        progress(f"{name}: first call {system:<14} {shown}")
    return out


# --------------------------------------------------------------------------------------------- threads


def thread_scaling(scale: float, repeat: int) -> dict[str, Any]:
    import numba

    import cuvil

    kernel = Kernel.load(THREAD_KERNEL)
    x, out = kernel.args(scale)
    half = len(x) // 2
    halves = [(x[:half], out[:half]), (x[half:], out[half:])]
    result: dict[str, Any] = {"kernel": THREAD_KERNEL, "size": describe((x,))}
    for label, fn in (("cuvil", cuvil.jit(kernel.loop)), ("numba", numba.njit(nogil=True)(kernel.loop))):
        for h in halves:  # compile for exactly these inputs: a different size may be another variant
            fn(*h)

        def one_thread(fn=fn) -> None:
            for h in halves:
                fn(*h)

        def two_threads(fn=fn) -> None:
            workers = [threading.Thread(target=fn, args=h) for h in halves]
            for w in workers:
                w.start()
            for w in workers:
                w.join()

        times: dict[str, list[float]] = {"1": [], "2": []}
        for _ in range(repeat):
            for threads, run in (("1", one_thread), ("2", two_threads)):
                start = time.perf_counter()
                run()
                times[threads].append((time.perf_counter() - start) * 1e3)
        one, two = statistics.median(times["1"]), statistics.median(times["2"])
        result[label] = {"1_thread_ms": one, "2_threads_ms": two, "speedup": one / two, "runs_ms": times}
        progress(f"threads: {label} 1 thread {one:.1f} ms, 2 threads {two:.1f} ms, ×{one / two:.2f}")
    return result


# ----------------------------------------------------------------------------------------------- main


def machine() -> dict[str, str]:
    import numba
    import torch

    import cuvil

    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    simd = [f for f in ("avx2", "fma", "avx512f") if f" {f} " in flags or f" {f}\n" in flags]
    memory = next((f"{int(line.split()[1]) / 2**20:.0f} GiB" for line in Path("/proc/meminfo").read_text()
                   .splitlines() if line.startswith("MemTotal")), "?") if Path("/proc/meminfo").exists() else "?"
    try:
        layer = numba.threading_layer()
    except ValueError:  # no parallel Numba code ran
        layer = "not initialized"
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE)
    return {"cpu": f"{model} ({platform.machine()}, {os.cpu_count()} cores, {', '.join(simd) or 'no AVX2'})",
            "memory": memory, "os": platform.platform(), "python": platform.python_version(),
            "numpy": np.__version__, "numba": f"{numba.__version__} (threading layer {layer})",
            "torch": f"{torch.__version__} ({torch.get_num_threads()} threads)", "cuvil": cuvil.__version__,
            "commit": commit.stdout.strip() or "?", "date": time.strftime("%Y-%m-%d %H:%M %Z")}


def options(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke test, not figures to publish: every kernel "
                        "once at sizes ×0.05, checked against the reference, 2 timed runs, no waiting for quiet, "
                        "no Numba control, first calls in fresh processes and torch.compile only on "
                        f"{', '.join(QUICK_FIRST_CALLS)}; under 3 minutes on 2 cores; writes to a scratch folder")
    parser.add_argument("--scale", type=float, default=1.0, help="problem size factor (1 = the issue's sizes)")
    parser.add_argument("--repeat", type=int, help="timed runs per system (after one warm-up); 5, or 2 with --quick")
    parser.add_argument("--compile-repeat", type=int, default=3, help="fresh processes for numba's and cuvil's "
                        "first call (median); the parallel variants and torch.compile get one")
    parser.add_argument("--compile-timeout", type=float, default=120.0, help="s, bound on numba's and cuvil's")
    parser.add_argument("--torch-compile-timeout", type=float, default=120.0, help="s, bound on torch.compile's")
    parser.add_argument("--busy-retries", type=int, help="measure a kernel again (after waiting for quiet) when "
                        f"other processes kept more than {BUSY_CORES} cores busy meanwhile; 2, or 0 with --quick")
    parser.add_argument("--busy-budget", type=float, default=240.0, help="s, the most all such waits may take")
    parser.add_argument("--kernels", default=",".join(KERNELS), help="comma-separated subset")
    parser.add_argument("--no-compile", action="store_true", help="skip first-call latency (and torch.compile)")
    parser.add_argument("--out", type=Path, help="folder for results.json, REPORT.md, results.png "
                        "(default bench/, or a scratch folder with --quick)")
    # KERNEL:SYSTEM:yes|no (whether the child needs torch): the child process of first_call()
    parser.add_argument("--first-call", help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    if opts.repeat is None:
        opts.repeat = 2 if opts.quick else 5
    if opts.busy_retries is None:
        opts.busy_retries = 0 if opts.quick else 2
    if opts.quick:
        opts.scale, opts.compile_repeat = opts.scale * 0.05, 1
        opts.compile_timeout, opts.torch_compile_timeout = min(opts.compile_timeout, 60), min(
            opts.torch_compile_timeout, 60)
    if opts.out is None:
        opts.out = Path(tempfile.gettempdir()) / "cuvil-bench-quick" if opts.quick else HERE
    return opts


def main(argv: list[str] | None = None) -> None:
    opts = options(argv)
    if opts.first_call:
        name, system, needs_torch = opts.first_call.split(":")
        if needs_torch == "no":  # keep torch's import (~1 s) out of this child: kernel modules then go without
            sys.modules["torch"] = None  # type: ignore[assignment]
        print("RESULT " + json.dumps(first_call_child(name, system, opts.scale)), flush=True)
        return
    scratch = Path(tempfile.mkdtemp(prefix="cuvil-bench-"))
    inductor_cache = scratch / "inductor"
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(inductor_cache)  # before torch reads it
    os.environ["CUVIL_CACHE_DIR"] = str(scratch / "cuvil")  # no entry left by an earlier version of a kernel
    argv_shown = " ".join(argv if argv is not None else sys.argv[1:])
    results: dict[str, Any] = {"command": f"python bench/run.py {argv_shown}".strip(), "quick": opts.quick,
                               "scale": opts.scale, "repeat": opts.repeat, "compile_repeat": opts.compile_repeat,
                               "compile_timeout_s": opts.compile_timeout,
                               "torch_compile_timeout_s": opts.torch_compile_timeout, "busy_cores": BUSY_CORES,
                               "kernels": []}
    quietly = Quietly(opts.busy_retries, opts.busy_budget)
    if opts.quick:
        progress("a smoke test (--quick): every kernel runs once at small sizes and is checked against the "
                 "reference; its times are not figures to publish")
    try:
        for name in opts.kernels.split(","):
            kernel = Kernel.load(name)
            entry: dict[str, Any] = {"name": name, "doc": (kernel.module.__doc__ or "").strip().splitlines()[0],
                                     "calls": kernel.calls}
            skip = dict(QUICK_SKIP) if opts.quick else {}
            if not opts.no_compile:
                if not opts.quick or name in QUICK_FIRST_CALLS:
                    progress(f"{name}: first-call latency, fresh processes")
                entry["compile"] = compile_latency(name, opts, inductor_cache)
                tc = entry["compile"]["torch_compile"]
                if "timeout_s" in tc:
                    skip["torch_compile"] = f"did not compile in {tc['timeout_s']:g} s"
                elif "compile_s" not in tc:
                    skip["torch_compile"] = tc.get("status") or f"compile failed: {tc.get('error')}"
            else:
                skip["torch_compile"] = "not run (--no-compile)"
            progress(f"{name}: steady state, {opts.repeat} runs per system")
            entry["steady"], entry["other_load_cores"], entry["attempts"] = quietly(
                name, lambda: steady_state(kernel, opts.scale, opts.repeat, skip))  # noqa: B023  (called here)
            results["kernels"].append(entry)
        progress("thread scaling")
        results["threads"], load, attempts = quietly("threads", lambda: thread_scaling(opts.scale, opts.repeat))
        results["threads"].update(other_load_cores=load, attempts=attempts)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    results["machine"] = machine()  # after the runs: Numba's threading layer is known once it has run
    results["wall_s"] = time.perf_counter() - _START
    opts.out.mkdir(parents=True, exist_ok=True)
    (opts.out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    from bench import report

    report.write(results, opts.out)
    progress(f"wrote {opts.out / 'results.json'}, REPORT.md, results.png in {results['wall_s']:.0f} s")
    if opts.quick:
        sys.exit(smoke_verdict(results))


def smoke_verdict(results: dict[str, Any]) -> int:
    """--quick's exit status: 1 when a system failed or disagreed with the reference on a kernel (each named on
    stderr), else 0. A timeout or a system with no form for a kernel is not a failure."""
    failed = [f"{k['name']}, {system}: {entry.get('mismatch') or entry.get('error')}"
              for k in results["kernels"] for part in ("steady", "compile")
              for system, entry in k.get(part, {}).items()
              if isinstance(entry, dict) and ("mismatch" in entry or "error" in entry)]
    agreed = sum("ms" in entry for k in results["kernels"] for entry in k["steady"].values()
                 if isinstance(entry, dict))
    progress(f"smoke test (--quick): {agreed} kernel × system pairs ran and agreed with the reference; "
             f"{len(failed)} failed" + "".join(f"\n  {line}" for line in failed))
    return 1 if failed else 0


if __name__ == "__main__":
    main()
