"""Run notebooks on a real ipykernel, for tests/notebooks."""

from __future__ import annotations

import json
import os
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

# Two functions a restarted kernel should read from the disk cache; the last cell prints where each came from.
CUVIL_CELLS = ["""
import numpy as np
import cuvil

@cuvil.jit
def smooth(a, out):
    for i in range(1, len(a) - 1):
        out[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1]
    return out

@cuvil.jit
def count_above(a, t):
    n = 0
    for x in a:
        if x > t:
            n += 1
    return n

count_above(smooth(np.arange(8.0), np.zeros(8)), 1.0)
""", """
import json
print(json.dumps({"cache": {f.__name__: [e.cache for e in cuvil.explain(f).compiles] for f in (smooth, count_above)}}))
"""]


def run(cells_or_path: list[str] | Path, cache_dir: Path, timeout: int = 300):
    """Execute in a fresh kernel with `CUVIL_CACHE_DIR=cache_dir` (and Numba's cache beside it); the notebook."""
    import nbclient
    import nbformat

    if isinstance(cells_or_path, Path):
        nb = nbformat.read(cells_or_path, as_version=4)
    else:
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(c.strip()) for c in cells_or_path]
    saved = {k: os.environ.get(k) for k in ("CUVIL_CACHE_DIR", "NUMBA_CACHE_DIR")}
    os.environ["CUVIL_CACHE_DIR"] = str(cache_dir)
    os.environ["NUMBA_CACHE_DIR"] = str(cache_dir / "numba")  # Numba caches a cell's functions there
    try:
        nbclient.NotebookClient(nb, kernel_name="python3", timeout=timeout,
                                resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return nb


def report(nb) -> dict:
    """The JSON the last cell printed."""
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    return json.loads(text.strip().splitlines()[-1])
