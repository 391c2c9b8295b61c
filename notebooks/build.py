"""The notebooks' source: each walkthrough as a list of cells, written to `<name>.ipynb` and executed in a fresh
kernel so the committed file carries its outputs (`python notebooks/build.py`, or `nox -s notebooks -- --build`).

A cell that starts with `assert` lines is a check as much as a lesson: tests/notebooks executes every notebook
on a real ipykernel, and a changed behaviour fails there.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from precision_cells import MIXED_PRECISION  # noqa: E402 (the mixed-precision walkthrough's cells)

QUICKSTART = [
    ("md", """# Cuvil in five minutes

Cuvil compiles plain Python functions — loops, `if`s, NumPy calls — by rewriting their source into readable
[Numba](https://numba.pydata.org) source. Put `@cuvil.jit` on a function and call it."""),
    ("code", """import numpy as np
import cuvil"""),
    ("code", """@cuvil.jit
def saxpy(a, x, y, out):
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]
    return out

x, y = np.arange(5.0), np.ones(5)
result = saxpy(2.0, x, y, np.empty(5))
assert np.array_equal(result, 2.0 * x + y)
result"""),
    ("md", """The first call compiled the function for these argument types. `cuvil.explain` tells what was
compiled, why, how long each stage took, and whether a cache answered (`miss`: compiled now; `disk`: read
from the cache folder, as after a kernel restart; `memory`: already in this kernel)."""),
    ("code", """cuvil.explain(saxpy)"""),
    ("md", """Helpers need no decorator: a plain function your jitted function calls is compiled with it.
Early returns, `enumerate`, chained comparisons are all fine."""),
    ("code", """def is_outlier(v, lo, hi):
    return not lo <= v < hi

@cuvil.jit
def first_outlier(a, lo, hi):
    for i, v in enumerate(a):
        if is_outlier(v, lo, hi):
            return i
    return -1

a = np.array([1.0, 5.0, 20.0, -3.0])
assert first_outlier(a, 0.0, 10.0) == first_outlier.py_func(a, 0.0, 10.0) == 2
first_outlier(a, 0.0, 10.0)"""),
    ("md", """Every stage can be read: `"normalized"` (your code in one canonical form), `"cfg"`, `"plan"` and
`"kernel"` (the Numba module). Each statement keeps `# L<n>`, its line in this cell."""),
    ("code", """first_outlier.source("normalized")"""),
    ("code", """print(first_outlier.source("kernel"))"""),
    ("md", """Python's errors stay Python's: an index out of bounds is an `IndexError` at your line, not a
crash or a silent read past the end."""),
    ("code", """@cuvil.jit
def at(a, i):
    return a[i]

try:
    at(np.arange(3.0), 3)
except IndexError as exc:
    print("IndexError:", exc)"""),
    ("md", """Compiled code is cached on the disk (`CUVIL_CACHE_DIR`, by default the platform's cache folder), keyed by
the cell's text — not by the file name the kernel gives the cell — so after a kernel restart these functions
load in a fraction of the compile time, with `cache == "disk"`."""),
    ("code", """{f.__name__: [e.cache for e in cuvil.explain(f).compiles] for f in (saxpy, first_outlier, at)}"""),
]

RECOMPILES = [
    ("md", """# Recompiles and guards

Numba dispatches on types. Cuvil compiles *variants*: each guards the exact type of every argument, the small
dims it specialized on, and every global value it read. A guard that fails compiles a new variant and says why."""),
    ("code", """import numpy as np
import cuvil

@cuvil.jit
def norms(x):
    out = np.empty(x.shape[0])
    for b in range(x.shape[0]):
        s = 0.0
        for i in range(x.shape[1]):
            for j in range(x.shape[2]):
                s += x[b, i, j] * x[b, i, j]
        out[b] = np.sqrt(s)
    return out

for batch in range(1, 6):
    norms(np.ones((batch, 3, 4), np.float32))
assert len(cuvil.explain(norms).compiles) == 2
cuvil.explain(norms)"""),
    ("md", """The first call specialized on every small dim (the generated loops read `range(3)`); the second batch
size made `x.shape[0]` dynamic, once and for good: the other calls reused variant #2."""),
    ("code", """print(cuvil.explain(norms))"""),
    ("md", """Globals are guarded too. Numba freezes a global at its first compile; Cuvil notices when it
changes, recompiles, and uses the new value."""),
    ("code", """SCALE = 2.0

@cuvil.jit
def scaled(x):
    return x * SCALE

assert scaled(1.5) == 3.0
SCALE = 10.0
assert scaled(1.5) == 15.0
print(cuvil.explain(scaled).compiles[-1].reason)"""),
    ("md", """Redefining a function — rerunning a cell with other code — gives a new function with its own
history; the old variant is never used."""),
    ("code", """@cuvil.jit
def step(x):
    return x + 1

first = step(1)

@cuvil.jit
def step(x):
    return x * 100

assert (first, step(1)) == (2, 100)
(first, step(1))"""),
    ("md", """Arguments compiled code cannot take are refused with their name, on every call."""),
    ("code", """try:
    norms([[1.0, 2.0]])
except cuvil.CuvilTypeError as exc:
    print(type(exc).__name__ + ":", exc)"""),
    ("md", """`dynamic=True` compiles one variant for every shape; `cuvil.stats()` sums it up per function."""),
    ("code", """@cuvil.jit(dynamic=True)
def total(x):
    return x.sum()

for n in (3, 30, 300):
    total(np.ones(n))
assert len(cuvil.explain(total).compiles) == 1
{name: s["compiles"] for name, s in cuvil.stats().items()}"""),
]

PARALLEL = [
    ("md", """# Parallel loops and whole-array code

Whole-array NumPy expressions are lowered to loops with NumPy 2's dtypes and fused; `parallel=True` runs
loops proven free of loop-carried dependences on all cores."""),
    ("code", """import numpy as np
import cuvil

@cuvil.jit(parallel=True)
def softmax(x):
    m = np.max(x, axis=1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=1, keepdims=True)

x = np.random.default_rng(0).standard_normal((200, 64)).astype(np.float32)
got = softmax(x)
assert got.dtype == np.float32
np.testing.assert_allclose(got, softmax.py_func(x), rtol=1e-5, atol=1e-6)
got.dtype, got.sum(axis=1)[:3]"""),
    ("md", """The plan shows one allocation and one parallel nest over rows: no temporary array for `e`."""),
    ("code", """plan = softmax.source("plan")
assert plan.count(" ParallelNest ") == 1
print(plan)"""),
    ("md", """A loop is parallel when the analysis proves that no iteration touches what another writes. What
only run time can tell — whether the output overlaps an input — is checked before the loop, which then runs
serially when it does."""),
    ("code", """@cuvil.jit(parallel=True)
def shifted_add(out, a, b):
    for i in range(len(a)):
        out[i] = a[i] + b[i]
    return out

@cuvil.jit(parallel=True)
def prefix(a):
    s = 0.0
    out = np.empty_like(a)
    for i in range(len(a)):
        s += a[i]
        out[i] = s
    return out

a = np.arange(6.0)
assert np.array_equal(shifted_add(np.empty(6), a, a), 2 * a)
assert np.array_equal(prefix(a), np.cumsum(a))
print("\\n".join(shifted_add.loops()[0] + prefix.loops()[0]))"""),
    ("md", """Types follow NumPy 2 (NEP 50): a Python number takes the dtype of the array it meets."""),
    ("code", """@cuvil.jit
def half_plus(a, b):
    return a * 0.5 + b

r = half_plus(np.ones(3, np.float32), np.ones(3, np.float32))
assert r.dtype == np.float32
r.dtype"""),
    ("md", """How the time grows with the size, for one whole-array expression (GELU's tanh form) written once
and run three ways: by NumPy, which makes a temporary array for each operation; by `numba.njit` of the same
function; and by `cuvil.jit`, both serial here, so that the other cores' load moves the lines less. Cuvil's
kernel (`systems["Cuvil"].source("kernel")`) is one loop with no temporary array, whose `tanh` is written so
that LLVM vectorizes the loop (`cuvil.runtime.vmath`); Numba calls the C library's `tanh` once per element,
which NumPy's own SIMD loops outrun. `parallel=True` would spread Cuvil's loop over the cores. Each point is the
median of 5 calls after an untimed one (which compiles, touches the memory, and checks the result against
NumPy's); the axes are log-log, and the figures are this machine's at the time the notebook ran."""),
    ("code", """import time

import matplotlib.pyplot as plt
import numba

def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))

systems = {"NumPy": gelu, "Numba": numba.njit(gelu), "Cuvil": cuvil.jit(gelu)}
sizes = [10_000, 100_000, 1_000_000, 4_000_000]
median_ms = {name: [] for name in systems}
for n in sizes:
    x = np.random.default_rng(n).standard_normal(n)
    expected = gelu(x)
    for name, fn in systems.items():
        np.testing.assert_allclose(fn(x), expected, rtol=1e-10)  # untimed: compiles, touches memory, checks
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            fn(x)
            runs.append(time.perf_counter() - start)
        median_ms[name].append(1e3 * np.median(runs))

fig, ax = plt.subplots(figsize=(6, 3.6), dpi=80)
for name, ms in median_ms.items():
    ax.loglog(sizes, ms, marker="o", label=name)
ax.set(xlabel="elements (float64)", ylabel="ms per call (median of 5)", title="gelu(x) against the size of x")
ax.grid(True, which="both", alpha=0.3)
ax.legend()
plt.show()"""),
]

DASK = [
    ("md", """# A map_blocks job on Dask, compiled once per worker

A function decorated in a notebook cell can be sent to a Dask cluster as it is: Cuvil sends its source and the
values it reads (it is *by value*: the workers have no module to import it from), each worker process compiles
it once, and every worker reads the compiled module from the disk cache (`CUVIL_CACHE_DIR`) once one of them
has written it. Needs `pip install "cuvil[dask]"`."""),
    ("code", """import logging

import numpy as np
import dask.array as da
from distributed import Client, LocalCluster

import cuvil
import cuvil.distributed

# Two worker processes; they inherit this kernel's environment, CUVIL_CACHE_DIR included. silence_logs: the
# scheduler's, nannies' and workers' warnings (an event loop held up while a worker compiles, a worker process
# killed at shutdown) would print into this notebook; errors still do.
cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                       silence_logs=logging.ERROR)
client = Client(cluster)"""),
    ("code", """@cuvil.jit
def curve(x):
    return np.tanh(x) * np.exp(-x * x) + 0.5 * x"""),
    ("md", """`cuvil.distributed.warmup` calls the function once on every worker before the first task, with an
example of the tasks' arguments (a block: same dtype and rank, dims above 16). It returns each worker's compile
events: one worker compiled it (`miss`) — or both did at once — and the other read it from the disk."""),
    ("code", """events = cuvil.distributed.warmup(client, curve, np.linspace(0.0, 1.0, 1000))
assert sorted(len(e) for e in events.values()) == [1, 1]
print(events)"""),
    ("md", """Now the job: `map_blocks` over 10 million float64. `meta=` tells Dask the result's type, so it does not
call the function on an empty array in this kernel to find out."""),
    ("code", """x = da.linspace(-3.0, 5.0, 10_000_000, chunks=1_250_000)
total = x.map_blocks(curve, meta=np.array((), np.float64)).sum().compute()
expected = curve.py_func(np.linspace(-3.0, 5.0, 10_000_000)).sum()
assert np.isclose(total, expected, rtol=1e-12)
total"""),
    ("code", """# eight blocks later, still one compile per worker
after = cuvil.distributed.explain(client, curve)
assert after.caches() == events.caches()
after.caches()"""),
    ("md", """A new cluster (fresh worker processes, as after a restart) on the same cache directory compiles
nothing: every worker reads the module from the disk."""),
    ("code", """client.close(); cluster.close()
cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                       silence_logs=logging.ERROR)
client = Client(cluster)
again = cuvil.distributed.warmup(client, curve, np.linspace(0.0, 1.0, 1000))
assert list(again.caches().values()) == [["disk"], ["disk"]]
list(again.caches().values())"""),
    ("code", """client.close(); cluster.close()"""),
]

NOTEBOOKS = {
    "01_quickstart": QUICKSTART,
    "02_recompiles_and_guards": RECOMPILES,
    "03_parallel_and_arrays": PARALLEL,
    "04_dask_map_blocks": DASK,
    "05_mixed_precision": MIXED_PRECISION,
}


def notebook(cells: list[tuple[str, str]]):  # -> nbformat.NotebookNode
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell(text) if kind == "md" else nbformat.v4.new_code_cell(text)
                for kind, text in cells]
    return nb


def execute(nb, timeout: int = 300):
    """Run `nb` in a fresh kernel (in this folder), in place; returns it."""
    import nbclient

    nbclient.NotebookClient(nb, kernel_name="python3", timeout=timeout,
                            resources={"metadata": {"path": str(HERE)}}).execute()
    return nb


def main() -> None:
    import nbformat

    names = sys.argv[1:] or list(NOTEBOOKS)
    with tempfile.TemporaryDirectory(prefix="cuvil-notebooks-") as cache:
        os.environ["CUVIL_CACHE_DIR"] = cache  # a cold start: the outputs show misses, as a first run does
        for name in names:
            nb = execute(notebook(NOTEBOOKS[name]))
            for cell in nb.cells:  # no execution metadata: a rebuild changes only what the outputs say
                cell.metadata.pop("execution", None)
            nbformat.write(nb, HERE / f"{name}.ipynb")
            print(f"wrote notebooks/{name}.ipynb")


if __name__ == "__main__":
    main()
