"""A new function in a warm process: the first call of a function never compiled before, in a process that has
compiled others (a notebook's next cell), Cuvil against numba.njit on the same source.

Issue 40's target: Cuvil ≤ Numba + 50 ms. Each function is fresh source (`x + k`, `x * k - 1`, a loop summing
`x[i] * k`, with a new constant k each time), so neither system's in-memory cache serves it; Cuvil's cache
folder is a new temporary one. Both systems warm up on one function first (imports, Numba's first compile).
The two systems alternate, so that a change in load touches both alike; medians of --runs functions per form.

Run: `python bench/new_function.py [--runs N]`. Writes bench/new_function.md.
"""

from __future__ import annotations

import argparse
import linecache
import os
import statistics
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
FORMS = {
    "array expression": "def f{k}(x):\n    return x + {k}\n",
    "two operations": "def f{k}(x):\n    return x * {k} - 1.0\n",
    "loop with a sum": "def f{k}(x):\n    s = 0.0\n    for i in range(x.shape[0]):\n        s += x[i] * {k}\n"
                       "    return s\n",
}


def _define(source: str, name: str):  # noqa: ANN202
    """The function, from source held in linecache, as IPython holds a cell's."""
    filename = f"<new-function-{name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    space: dict = {"__name__": name}
    exec(compile(source, filename, "exec"), space)  # noqa: S102 (the bench's own source)
    return space[name]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    os.environ["CUVIL_CACHE_DIR"] = tempfile.mkdtemp(prefix="cuvil-bench-new-")
    warnings.filterwarnings("ignore")
    import numba
    import numpy as np

    import cuvil

    x = np.arange(1000.0)
    cuvil.jit(_define("def w(x):\n    return x - 1\n", "w"))(x)
    numba.njit(_define("def w(x):\n    return x - 1\n", "w"))(x)
    k = 2
    lines = ["# A new function in a warm process (CPU)", "",
             f"`python bench/new_function.py --runs {options.runs}`: the first call of a function never compiled "
             "before, in a process that compiled another first; medians of the runs, seconds. Target: Cuvil ≤ "
             "Numba + 50 ms.", "", "| form | cuvil s | numba s | cuvil − numba ms |", "|---|---|---|---|"]
    for form, text in FORMS.items():
        times: dict[str, list[float]] = {"cuvil": [], "numba": []}
        for _ in range(options.runs):
            for system, jit in (("cuvil", cuvil.jit), ("numba", numba.njit)):
                k += 1
                fn = jit(_define(text.format(k=k), f"f{k}"))
                start = time.perf_counter()
                fn(x)
                times[system].append(time.perf_counter() - start)
        c, n = statistics.median(times["cuvil"]), statistics.median(times["numba"])
        lines.append(f"| {form} | {c:.3f} | {n:.3f} | {1000 * (c - n):+.0f} |")
    text = "\n".join(lines) + "\n"
    (HERE / "new_function.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
